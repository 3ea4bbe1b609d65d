// The Demo Agent as a real child process over real pipes: default turns in v1 and v2, cancel,
// /vterm, /crash. Every message the agent sends is validated against the official schema.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VTERM_CHUNKS, VTERM_TEXT } from '../../../src/demo/scenarios/vterm';
import { text } from './support/demoClient';
import { answerPermissions, cleanup, isIdleWithStop, plansById, schemaCheck, start, statuses, type Started } from './support/harness';
import type { Message } from './support/schemaCheck';

type Update = Record<string, unknown>;

function assertValid(s: Started): void {
  assert.deepEqual(s.client.problems, [], `schema problems:\n${s.client.problems.join('\n')}`);
}

function ofKind(updates: Update[], kind: string): Update[] {
  return updates.filter((u) => u.sessionUpdate === kind);
}

function messageText(updates: Update[], kind: string): string {
  return ofKind(updates, kind)
    .map((u) => (u.content as { text: string }).text)
    .join('');
}

async function runV2Turn(optionId: string): Promise<{ s: Started; updates: Update[]; from: number; permissions: Update[] }> {
  const s = await start({ version: 2 });
  const permissions = answerPermissions(s.client, optionId);
  const from = s.client.received.length;
  const ack = await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('Add a farewell helper')] });
  assert.deepEqual(ack, {});
  const idle = await s.client.waitFor(isIdleWithStop, from);
  assert.equal((idle.params as { update: Update }).update.stopReason, 'end_turn');
  return { s, updates: s.client.updates(from), from, permissions };
}

describe('Demo Agent process', function () {
  this.timeout(30_000);
  before(() => schemaCheck());
  afterEach(cleanup);

  describe('v2 default turn', () => {
    it('acknowledges, then streams a full turn that ends with end_turn', async () => {
      const { s, updates, from, permissions } = await runV2Turn('allow_once');
      assertValid(s);
      // The {} acknowledgment comes before any update of the turn.
      const after = s.client.received.slice(from);
      assert.ok(after.findIndex((m) => m.method === undefined) < after.findIndex((m) => m.method === 'session/update'));

      const user = ofKind(updates, 'user_message')[0];
      assert.equal(updates[0], user);
      assert.deepEqual(user.content, [text('Add a farewell helper')]);
      assert.match(user.messageId as string, /^msg_\d+$/);

      const states = ofKind(updates, 'state_update').map((u) => `${u.state}${u.stopReason ? `:${u.stopReason}` : ''}`);
      assert.deepEqual(states, ['running', 'requires_action', 'running', 'idle:end_turn']);
      assert.equal(updates[updates.length - 1].state, 'idle');

      assert.equal(permissions.length, 1);
      const perm = permissions[0];
      assert.equal(typeof perm.title, 'string');
      const subject = perm.subject as { type: string; toolCall: Update };
      assert.equal(subject.type, 'tool_call');
      assert.equal(subject.toolCall.kind, 'edit');
      assert.deepEqual(
        (perm.options as { kind: string }[]).map((o) => o.kind),
        ['allow_once', 'allow_always', 'reject_once'],
      );

      assert.ok(ofKind(updates, 'agent_thought_chunk').length > 0);
      assert.ok(ofKind(updates, 'session_info_update').some((u) => typeof u.title === 'string'));
      assert.equal(ofKind(updates, 'usage_update').length, 1);
      const chunks = ofKind(updates, 'agent_message_chunk');
      assert.ok(chunks.length > 1);
      assert.equal(new Set(chunks.map((c) => c.messageId)).size, 1, 'one message, one messageId');
      const markdown = messageText(updates, 'agent_message_chunk');
      assert.match(markdown, /^- /m); // a list
      assert.match(markdown, /`farewell\(\)`/); // a code span
      assert.match(markdown, /\]\(https:\/\//); // a link
    });

    it('sends the plans: two item plans side by side, markdown, file, custom, and a removed scratch plan', async () => {
      const { s, updates } = await runV2Turn('allow_once');
      const plans = plansById(updates);
      assert.deepEqual([...plans.keys()].sort(), ['custom', 'impl', 'notes', 'scratch', 'spec', 'tests']);
      const typeOf = (id: string): unknown => plans.get(id)?.[0].type;
      assert.deepEqual(['impl', 'tests', 'scratch', 'notes', 'spec', 'custom'].map(typeOf), ['items', 'items', 'items', 'markdown', 'file', '_custom']);

      const impl = plans.get('impl') ?? [];
      const tests = plans.get('tests') ?? [];
      assert.equal(statuses(impl[0]).length, 5);
      assert.equal(statuses(tests[0]).length, 3);
      assert.deepEqual(statuses(impl[impl.length - 1]), Array(5).fill('completed'));
      assert.deepEqual(statuses(tests[tests.length - 1]), Array(3).fill('completed'));
      assert.ok(
        impl.some((p) => statuses(p).includes('_blocked')),
        'an entry is _blocked while waiting for permission',
      );
      assert.ok(impl.some((p) => statuses(p).includes('in_progress')));
      const priorities = new Set(impl.flatMap((p) => (p.entries as { priority: string }[]).map((e) => e.priority)));
      assert.deepEqual([...priorities].sort(), ['high', 'low', 'medium']);
      // Concurrent: the tests plan moves before the impl plan is done.
      const planIds = ofKind(updates, 'plan_update').map((u) => (u.plan as { planId: string }).planId);
      assert.ok(planIds.indexOf('tests', planIds.indexOf('tests') + 1) < planIds.lastIndexOf('impl'));

      const notes = plans.get('notes') ?? [];
      assert.equal(notes.length, 2);
      assert.match(notes[0].content as string, /^## /m);
      assert.match(notes[0].content as string, /^- \[ \] /m);
      assert.match(notes[1].content as string, /^- \[x\] /m);

      const spec = plans.get('spec') ?? [];
      assert.equal(spec.length, 2, 'the file plan is sent again after the rewrite');
      const file = fileURLToPath(spec[0].uri as string);
      assert.equal(file, path.join(s.cwd, '.acp-demo', 'PLAN.md'));
      assert.match(readFileSync(file, 'utf8'), /Status: implemented/);

      assert.ok((plans.get('custom')?.[0] as { columns?: unknown }).columns);
      const removed = ofKind(updates, 'plan_removed');
      assert.deepEqual(
        removed.map((u) => u.planId),
        ['scratch'],
      );
    });

    it('reports a read and a permission-gated edit with a v2 diff', async () => {
      const { s, updates } = await runV2Turn('allow_once');
      const calls = ofKind(updates, 'tool_call_update');
      const byId = new Map<string, Update[]>();
      for (const c of calls) byId.set(c.toolCallId as string, [...(byId.get(c.toolCallId as string) ?? []), c]);
      const [readId, editId] = [...byId.keys()];
      assert.equal(byId.get(readId)?.[0].kind, 'read');
      assert.equal(typeof byId.get(readId)?.[0].title, 'string', 'the first update creates the call, with a title');
      assert.equal(byId.get(readId)?.at(-1)?.status, 'completed');
      assert.ok(ofKind(updates, 'tool_call_content_chunk').some((u) => u.toolCallId === readId));
      const edit = byId.get(editId) ?? [];
      assert.equal(edit[0].kind, 'edit');
      assert.deepEqual(
        edit.map((u) => u.status),
        ['pending', 'in_progress', 'completed'],
      );
      const diff = (edit[0].content as Update[])[0] as { type: string; changes: Update[]; patch: { format: string; text: string } };
      assert.equal(diff.type, 'diff');
      assert.deepEqual(diff.changes, [{ operation: 'modify', path: path.join(s.cwd, '.acp-demo', 'hello.ts'), fileType: 'text' }]);
      assert.equal(diff.patch.format, 'git_patch');
      assert.match(diff.patch.text, /^diff --git a\/\.acp-demo\/hello\.ts b\/\.acp-demo\/hello\.ts$/m);
      assert.match(diff.patch.text, /^\+export function farewell/m);
      assert.match(readFileSync(path.join(s.cwd, '.acp-demo', 'hello.ts'), 'utf8'), /function farewell/);
    });

    it('goes on when the edit is rejected: the edit fails, its plan entry is cancelled, the turn ends', async () => {
      const { s, updates } = await runV2Turn('reject_once');
      assertValid(s);
      const edits = ofKind(updates, 'tool_call_update').filter((u) => String(u.toolCallId).startsWith('call_edit'));
      assert.equal(edits.at(-1)?.status, 'failed');
      const impl = plansById(updates).get('impl') ?? [];
      assert.deepEqual(statuses(impl.at(-1)), ['completed', 'completed', 'cancelled', 'completed', 'completed']);
      assert.ok(!readFileSync(path.join(s.cwd, '.acp-demo', 'hello.ts'), 'utf8').includes('farewell'));
    });

    it('is valid under the stable v2 schema too, except the unstable markdown and file plans', async () => {
      const { s, from } = await runV2Turn('allow_once');
      const check = schemaCheck();
      const unstable = (m: Message): boolean => {
        const u = (m.params as { update?: { sessionUpdate?: string; plan?: { type?: string } } } | undefined)?.update;
        return u?.sessionUpdate === 'plan_update' && (u.plan?.type === 'markdown' || u.plan?.type === 'file');
      };
      const notifications = s.client.received.slice(from).filter((m) => m.method !== undefined);
      const problems = notifications.filter((m) => !unstable(m)).flatMap((m) => check.check('v2', m));
      assert.deepEqual(problems, []);
      assert.ok(notifications.some(unstable));
      assert.ok(
        notifications.filter(unstable).every((m) => check.check('v2', m).length > 0),
        'the stable schema rejects them',
      );
    });
  });

  describe('v1 default turn', () => {
    it('without the plan opt-in: one v1 plan, tool_call + tool_call_update, v1 diff, {stopReason:"end_turn"}', async () => {
      const s = await start({ version: 1, schemas: () => ['v1.unstable', 'v1'] });
      assert.equal(s.init.protocolVersion, 1);
      assert.ok((s.newSession.modes as { currentModeId: string }).currentModeId);
      const permissions = answerPermissions(s.client, 'allow_always');
      const from = s.client.received.length;
      const result = await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('Add a farewell helper')] });
      assert.deepEqual(result, { stopReason: 'end_turn' });
      assertValid(s);
      const updates = s.client.updates(from);
      assert.deepEqual(ofKind(updates, 'plan_update'), []);
      assert.deepEqual(ofKind(updates, 'plan_removed'), []);
      assert.deepEqual(ofKind(updates, 'state_update'), []);
      assert.deepEqual(ofKind(updates, 'user_message'), []);
      const plans = ofKind(updates, 'plan');
      assert.ok(plans.length > 5);
      assert.deepEqual(statuses(plans.at(-1)), Array(8).fill('completed'), 'impl (5) + tests (3); scratch removed');
      assert.ok(ofKind(updates, 'current_mode_update').length >= 1);
      const created = ofKind(updates, 'tool_call');
      assert.deepEqual(
        created.map((c) => c.kind),
        ['read', 'edit', 'edit'],
        'read, the edit, the test file',
      );
      const diff = (created[1].content as Update[])[0];
      assert.deepEqual(Object.keys(diff).sort(), ['newText', 'oldText', 'path', 'type']);
      assert.equal(diff.path, path.join(s.cwd, '.acp-demo', 'hello.ts'));
      const updatesOfEdit = ofKind(updates, 'tool_call_update').filter((u) => u.toolCallId === created[1].toolCallId);
      assert.equal(updatesOfEdit.at(-1)?.status, 'completed');
      assert.equal(permissions.length, 1);
      assert.equal((permissions[0].toolCall as Update).toolCallId, created[1].toolCallId);
      for (const chunk of [...ofKind(updates, 'agent_message_chunk'), ...ofKind(updates, 'agent_thought_chunk')]) {
        assert.equal(chunk.messageId, undefined);
      }
      assert.match(messageText(updates, 'agent_message_chunk'), /farewell/);
    });

    it('with clientCapabilities.plan: plan_update variants (items, markdown, file) and plan_removed, no custom plan', async () => {
      const s = await start({ version: 1, clientCapabilities: { plan: {} }, schemas: () => ['v1.unstable'] });
      answerPermissions(s.client, 'allow_once');
      const from = s.client.received.length;
      const result = await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('go')] });
      assert.deepEqual(result, { stopReason: 'end_turn' });
      assertValid(s);
      const updates = s.client.updates(from);
      assert.deepEqual(ofKind(updates, 'plan'), []);
      const plans = plansById(updates);
      assert.deepEqual([...plans.keys()].sort(), ['impl', 'notes', 'scratch', 'spec', 'tests']);
      assert.equal(plans.get('notes')?.[0].type, 'markdown');
      assert.equal(plans.get('spec')?.[0].type, 'file');
      assert.deepEqual(statuses(plans.get('impl')?.at(-1)), Array(5).fill('completed'));
      assert.ok(!plans.get('impl')?.some((p) => statuses(p).includes('_blocked')), 'v1 has no custom statuses');
      assert.deepEqual(
        ofKind(updates, 'plan_removed').map((u) => u.planId),
        ['scratch'],
      );
    });
  });

  describe('cancel', () => {
    it('v2: /slow ends only on session/cancel, with idle cancelled, and then sends nothing more', async () => {
      const s = await start({ version: 2 });
      const from = s.client.received.length;
      await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('/slow')] });
      await s.client.waitFor((m) => (m.params as { update?: Update })?.update?.sessionUpdate === 'plan_update', from);
      s.client.notify('session/cancel', { sessionId: s.sessionId });
      const idle = await s.client.waitFor(isIdleWithStop, from);
      assert.equal((idle.params as { update: Update }).update.stopReason, 'cancelled');
      const idleIndex = s.client.received.indexOf(idle);
      await s.client.request('session/list', {}); // a round trip: anything the turn still sent would be before its answer
      assert.deepEqual(s.client.updates(idleIndex + 1), []);
      assertValid(s);
    });

    it('v2: cancel while the permission is pending marks the edit cancelled', async () => {
      const s = await start({ version: 2 });
      s.client.onAgentRequest = () => {
        s.client.notify('session/cancel', { sessionId: s.sessionId });
        return { outcome: { outcome: 'cancelled' } };
      };
      const from = s.client.received.length;
      await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('go')] });
      const idle = await s.client.waitFor(isIdleWithStop, from);
      assert.equal((idle.params as { update: Update }).update.stopReason, 'cancelled');
      const edits = ofKind(s.client.updates(from), 'tool_call_update').filter((u) => String(u.toolCallId).startsWith('call_edit'));
      assert.equal(edits.at(-1)?.status, 'cancelled');
      assertValid(s);
    });

    it('v2: cancel does not wait for a permission answer that never comes', async () => {
      const s = await start({ version: 2 });
      s.client.onAgentRequest = () => {
        s.client.notify('session/cancel', { sessionId: s.sessionId });
        return new Promise(() => undefined); // never answered
      };
      const from = s.client.received.length;
      await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('/permission')] });
      const idle = await s.client.waitFor(isIdleWithStop, from);
      assert.equal((idle.params as { update: Update }).update.stopReason, 'cancelled');
      assert.ok(!s.client.updates(from).some((u) => u.sessionUpdate === 'agent_message_chunk'), 'no outcome is reported');
      assertValid(s);
    });

    it('v1: /slow answers the prompt with stopReason cancelled', async () => {
      const s = await start({ version: 1 });
      const from = s.client.received.length;
      const answer = s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('/slow')] });
      await s.client.waitFor((m) => (m.params as { update?: Update })?.update?.sessionUpdate === 'plan', from);
      s.client.notify('session/cancel', { sessionId: s.sessionId });
      assert.deepEqual(await answer, { stopReason: 'cancelled' });
      assertValid(s);
    });
  });

  describe('/vterm', () => {
    it('streams a display terminal whose chunks split UTF-8 characters', async () => {
      const s = await start({ version: 2 });
      const from = s.client.received.length;
      await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('/vterm')] });
      await s.client.waitFor(isIdleWithStop, from);
      assertValid(s);
      const updates = s.client.updates(from);
      const terminalUpdates = ofKind(updates, 'terminal_update');
      assert.equal(terminalUpdates.length, 2);
      const [first, last] = terminalUpdates;
      assert.equal(first.command, 'npm run build');
      assert.equal(first.cwd, s.cwd);
      assert.deepEqual(last.exitStatus, { exitCode: 0 });
      const chunks = ofKind(updates, 'terminal_output_chunk').map((u) => Buffer.from(u.data as string, 'base64'));
      assert.ok(chunks.length >= 2);
      const strict = new TextDecoder('utf-8', { fatal: true });
      const broken = chunks.filter((c) => {
        try {
          strict.decode(c);
          return false;
        } catch {
          return true;
        }
      });
      assert.ok(broken.length >= 1, 'some chunk is not valid UTF-8 on its own');
      const all = Buffer.concat([Buffer.from((first.output as { data: string }).data, 'base64'), ...chunks]);
      const shown = strict.decode(all);
      assert.equal(shown, VTERM_TEXT);
      assert.deepEqual(chunks, VTERM_CHUNKS);
      assert.match(shown, /café/);
      assert.match(shown, /✓/);
      assert.ok(shown.includes('\u001b[32m✓\u001b[0m'), 'the check mark is coloured');
      const call = ofKind(updates, 'tool_call_update')[0];
      assert.deepEqual(call.content, [{ type: 'terminal', terminalId: first.terminalId }]);
    });
  });

  describe('/crash', () => {
    it('sends a plan update, logs to stderr and exits with code 3', async () => {
      const s = await start({ version: 2 });
      const from = s.client.received.length;
      await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('/crash')] });
      const { code } = await s.client.exited;
      assert.equal(code, 3);
      assert.match(s.client.stderr, /crash/);
      const plan = plansById(s.client.updates(from)).get('crash');
      assert.deepEqual(statuses(plan?.[0]), ['in_progress', 'pending']);
      assert.ok(!s.client.updates(from).some((u) => u.state === 'idle'));
      assertValid(s);
      assert.ok(existsSync(s.cwd));
    });
  });
});
