// The Demo Agent's `/intent` scenario over real pipes: every message valid against the official
// schema, the `_intent` plan verifies against the JWKS the agent wrote, and the calls measure up
// against the plan as the scenario says (two in the plan, the permission one outside it, the
// required step never run).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseJwks } from '../../../src/intent/keys';
import { IntentTracker } from '../../../src/intent/tracker';
import { verifyIntentToken } from '../../../src/intent/verify';
import { text } from './support/demoClient';
import { answerPermissions, cleanup, isIdleWithStop, schemaCheck, start, type Started } from './support/harness';

type Update = Record<string, unknown>;

async function turn(s: Started, prompt: string): Promise<Update[]> {
  const from = s.client.received.length;
  assert.deepEqual(
    await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text(prompt)] }),
    s.client.version === 2 ? {} : { stopReason: 'end_turn' },
  );
  if (s.client.version === 2) await s.client.waitFor(isIdleWithStop, from);
  return s.client.updates(from);
}

function said(updates: Update[]): string[] {
  const byId = new Map<string, string>();
  for (const u of updates.filter((x) => x.sessionUpdate === 'agent_message_chunk')) {
    const id = String(u.messageId ?? byId.size);
    byId.set(id, (byId.get(id) ?? '') + (u.content as { text: string }).text);
  }
  return [...byId.values()];
}

function keysOf(cwd: string) {
  const jwks = parseJwks(JSON.parse(readFileSync(path.join(cwd, '.acp-demo', 'jwks.json'), 'utf8')));
  assert.ok(jwks.ok, 'the JWKS file is a valid public key set');
  return jwks.value;
}

describe('Demo Agent /intent', function () {
  this.timeout(30_000);
  before(() => schemaCheck());
  afterEach(cleanup);

  for (const answer of ['reject_once', 'allow_once'] as const) {
    it(`v2 (${answer}): a signed _intent plan, two calls in the plan, one outside it through a permission request`, async () => {
      const s = await start({ version: 2 });
      const asked = answerPermissions(s.client, answer);
      const updates = await turn(s, '/intent');
      assert.deepEqual(s.client.problems, [], s.client.problems.join('\n'));

      // The plan: sent once, verified against the key set the agent wrote into the session folder.
      const planUpdates = updates.filter((u) => u.sessionUpdate === 'plan_update');
      assert.equal(planUpdates.length, 1);
      const payload = planUpdates[0]!.plan as { type: string; planId: string; plan: Record<string, unknown>; token: string };
      assert.equal(payload.type, '_intent');
      assert.equal(payload.planId, 'intent');
      const keys = keysOf(s.cwd);
      assert.deepEqual(
        keys.keys.map((k) => k.kid),
        ['demo-1'],
      );
      const v = await verifyIntentToken(payload.token, payload.plan, keys, new Date());
      assert.equal(v.state, 'verified', v.detail);
      assert.ok(v.state === 'verified' && v.secondsLeft > 59 * 60 && v.secondsLeft <= 60 * 60, 'a 60-minute token');

      // The calls carry their tool name in _meta; the plan tracker judges them as the scenario says.
      // (The request comes before the call's final status update, as on the wire.)
      const tracker = new IntentTracker();
      assert.deepEqual(await tracker.receive(payload, keys), { kind: 'accepted', change: 'new_plan' });
      assert.equal(asked.length, 1);
      const subject = asked[0]!.subject as { type: string; toolCall: Update };
      assert.equal(subject.type, 'tool_call');
      assert.deepEqual(subject.toolCall._meta, { toolName: 'edit_file' });
      assert.deepEqual(subject.toolCall.rawInput, { path: 'package.json', edit: 'add a "farewell" script' });
      const calls = updates.filter((u) => u.sessionUpdate === 'tool_call_update');
      const verdicts = new Map<string, string>();
      const judge = (c: Update): void => {
        const v = tracker.checkCall({ toolCallId: c.toolCallId as string, rawInput: c.rawInput, _meta: c._meta as Update | undefined });
        verdicts.set(
          c.toolCallId as string,
          v.verdict === 'not_in_plan' ? `${v.toolName}:not_in_plan:${v.reason}:${v.argument ?? ''}` : `${v.toolName ?? '?'}:${v.verdict}`,
        );
      };
      const editId = subject.toolCall.toolCallId as string;
      const firstEdit = calls.findIndex((c) => c.toolCallId === editId);
      calls.slice(0, firstEdit).forEach(judge);
      judge(subject.toolCall);
      calls.slice(firstEdit).forEach(judge);
      assert.deepEqual([...verdicts.values()], ['read_file:in_plan', 'run_tests:in_plan', 'edit_file:not_in_plan:argument_fails_constraint:path']);
      assert.deepEqual(
        tracker.turnEnded().map((st) => st.tool),
        ['edit_file'],
        'the required step did not run',
      );

      // v2: the out-of-plan call is announced through the permission request only, then ended.
      const editUpdates = calls.filter((c) => c.toolCallId === editId);
      assert.deepEqual(
        editUpdates.map((c) => c.status),
        [answer === 'allow_once' ? 'completed' : 'failed'],
      );
      const m = said(updates);
      assert.match(m[0]!, /^intent: the plan is signed with key `demo-1`/);
      assert.equal(m[1], `permission: selected ${answer}`);
      assert.equal(m[2], 'intent: stopping here; the required step edit_file (src/greeting.ts) did not run.');
    });
  }

  it('signs every turn with the same key of the process and a new token id', async () => {
    const s = await start({ version: 2 });
    answerPermissions(s.client, 'cancelled');
    const first = (await turn(s, '/intent')).find((u) => u.sessionUpdate === 'plan_update')!.plan as { token: string; plan: unknown };
    const second = (await turn(s, '/intent')).find((u) => u.sessionUpdate === 'plan_update')!.plan as { token: string; plan: unknown };
    const keys = keysOf(s.cwd);
    const a = await verifyIntentToken(first.token, first.plan, keys, new Date());
    const b = await verifyIntentToken(second.token, second.plan, keys, new Date());
    assert.equal(a.state, 'verified');
    assert.equal(b.state, 'verified');
    assert.ok(a.state === 'verified' && b.state === 'verified' && a.jti !== b.jti, 'a new plan id (jti) per turn');
    assert.deepEqual(s.client.problems, []);
  });

  it('a tampered plan does not verify against the written keys', async () => {
    const s = await start({ version: 2 });
    answerPermissions(s.client, 'reject_once');
    const plan = (await turn(s, '/intent')).find((u) => u.sessionUpdate === 'plan_update')!.plan as { token: string; plan: { steps: unknown[] } };
    const wider = { ...plan.plan, steps: [...plan.plan.steps, { tool: 'delete_file' }] };
    assert.equal((await verifyIntentToken(plan.token, wider, keysOf(s.cwd), new Date())).state, 'plan_hash_mismatch');
  });

  it('v1: says intent plans need v2 and sends no plan', async () => {
    const s = await start({ version: 1, clientCapabilities: { plan: {} } });
    const updates = await turn(s, '/intent');
    assert.deepEqual(said(updates), ['intent: intent plans need ACP v2 (a v1 plan cannot have the custom type `_intent`).']);
    assert.ok(!updates.some((u) => String(u.sessionUpdate).startsWith('plan')));
    assert.deepEqual(s.client.problems, []);
  });
});
