// THE INTEROP TESTS: real agents, real pipes, OUR client. Each turn goes through `connect()`
// (version negotiation, adapters), our permission answers and fs/terminal services, and feeds the
// plan store; the assertions are on what the user would see (plans and their progress, tool
// calls and diffs, files on disk, how the turn ended).
import assert from 'node:assert/strict';
import { clientTurn, AGENT_ID, type ClientTurn } from './support/clientTurn';
import { codexScenario, claudeScenario, FILE_NAME, MARKER } from './support/scenarios';
import type { ToolCallContent } from '../../src/protocol/domain';

/** Prints the turn time; our protocol layer must have had nothing to warn about. */
const report = (name: string, t: ClientTurn) => {
  console.log(`      ${name}: v${t.conn.version}, turn ${t.turnMs} ms`);
  assert.deepEqual(t.logs, [], 'protocol warnings');
};
const livePlans = (t: ClientTurn) => t.store.plans(AGENT_ID, t.sessionId);
const statuses = (t: ClientTurn, planId: string) => {
  const p = t.store.get({ agentId: AGENT_ID, sessionId: t.sessionId, planId });
  assert.ok(p, `plan ${planId}`);
  assert.equal(p.plan.type, 'items');
  return p.plan.type === 'items' ? p.plan.entries.map((e) => e.status) : [];
};
const diffsOf = (call: Record<string, unknown> | undefined) =>
  ((call?.content as ToolCallContent[] | undefined) ?? []).filter((c): c is Extract<ToolCallContent, { type: 'diff' }> => c.type === 'diff');
const agentText = (t: ClientTurn) =>
  t.events.flatMap((e) => (e.kind === 'message_chunk' && e.role === 'agent' && e.content.type === 'text' ? [e.content.text] : [])).join('');

/** The open permission request was answered `{outcome: cancelled}` on the wire. */
function assertPermissionAnsweredCancelled(t: ClientTurn): void {
  assert.equal(t.permissions.length, 1);
  const req = t.wire.find((l) => l.dir === 'receive' && (l.msg as { method?: string }).method === 'session/request_permission');
  const id = (req?.msg as { id: unknown }).id;
  const answer = t.wire.find((l) => l.dir === 'send' && (l.msg as { id?: unknown; method?: string }).id === id && !(l.msg as { method?: string }).method);
  assert.deepEqual((answer?.msg as { result?: unknown }).result, { outcome: { outcome: 'cancelled' } });
}

describe('interop (our client): codex-acp', function () {
  this.timeout(60_000);

  it('plans, an edit with its diff, a command; both permissions allowed', async () => {
    const t = await clientTurn({ agent: 'codex-acp', scenario: () => codexScenario(), record: 'client-codex-acp-allow' });
    report('codex-acp allow', t);
    assert.equal(t.conn.version, 1);
    assert.equal(t.stopReason, 'end_turn');
    assert.deepEqual(
      livePlans(t).map((p) => p.planId),
      ['main'],
    );
    assert.deepEqual(statuses(t, 'main'), ['completed', 'completed']);
    const main = livePlans(t)[0];
    assert.equal(main.version, 2);
    assert.deepEqual(main.revisions[0].plan.type === 'items' && main.revisions[0].plan.entries.map((e) => e.status), ['in_progress', 'pending']);
    assert.equal(t.permissions.length, 2);
    const edit = [...t.toolCalls.values()].find((c) => c.kind === 'edit');
    assert.equal(edit?.status, 'completed');
    const [diff] = diffsOf(edit);
    assert.ok(diff, 'edit diff');
    assert.match(diff.changes[0].path, /hello\.txt$/);
    assert.equal(diff.texts?.[0].newText, 'hello from the interop suite\n');
    // The command's tool call is announced by the permission request, then completed.
    const exec = t.permissions.find((p) => p.req.subject?.type === 'tool_call' && p.req.subject.fields.kind === 'execute');
    assert.ok(exec?.req.subject?.type === 'tool_call');
    assert.equal(t.toolCalls.get(exec.req.subject.toolCallId)?.status, 'completed');
    assert.ok(t.files.includes(FILE_NAME) && t.files.includes(MARKER), `files: ${t.files}`);
  });

  it('a rejected permission: the turn ends `cancelled`, nothing written', async () => {
    const t = await clientTurn({ agent: 'codex-acp', scenario: () => codexScenario(), policy: 'reject', record: 'client-codex-acp-reject' });
    report('codex-acp reject', t);
    assert.equal(t.stopReason, 'cancelled');
    assert.equal(t.permissions.length, 1);
    assert.deepEqual(t.files, []);
    assert.deepEqual(statuses(t, 'main'), ['in_progress', 'pending']);
  });

  it('cancel mid-turn ends the turn `cancelled`', async () => {
    const t = await clientTurn({
      agent: 'codex-acp',
      scenario: () => codexScenario({ holdMs: 60_000 }),
      cancelWhen: { modelStep: 1 },
      record: 'client-codex-acp-cancel',
    });
    report('codex-acp cancel', t);
    assert.equal(t.stopReason, 'cancelled');
  });

  it('cancel while a permission request is open: we answer it `cancelled`, the turn ends `cancelled`', async () => {
    const t = await clientTurn({
      agent: 'codex-acp',
      scenario: () => codexScenario(),
      policy: 'hold',
      cancelWhen: { permission: true },
      record: 'client-codex-acp-cancel-permission',
    });
    report('codex-acp cancel during permission', t);
    assert.equal(t.stopReason, 'cancelled');
    assert.deepEqual(t.files, []);
    assertPermissionAnsweredCancelled(t);
  });
});

for (const agent of ['claude-code-acp', 'claude-agent-acp'] as const) {
  const flavour = agent === 'claude-code-acp' ? 'acp-tools' : 'plain-tools';
  describe(`interop (our client): ${agent}`, function () {
    this.timeout(90_000);

    it('plans, write, read, command; permissions allowed', async () => {
      const t = await clientTurn({ agent, scenario: (cwd) => claudeScenario(cwd, flavour), record: `client-${agent}-allow` });
      report(`${agent} allow`, t);
      assert.equal(t.conn.version, 1);
      assert.equal(t.stopReason, 'end_turn');
      assert.deepEqual(statuses(t, 'main'), ['completed', 'completed']);
      assert.equal(t.permissions.length, 2);
      // The write call was first sent with empty input and a generic title; the folded call has
      // the real title, the diff and its final status.
      const sub = t.permissions[0].req.subject;
      assert.ok(sub?.type === 'tool_call');
      const write = t.toolCalls.get(sub.toolCallId);
      assert.match(String(write?.title), /hello\.txt/);
      assert.equal(write?.status, 'completed');
      assert.equal(diffsOf(write)[0]?.texts?.[0].newText, 'hello from the interop suite\n');
      assert.ok(t.files.includes(FILE_NAME) && t.files.includes(MARKER), `files: ${t.files}`);
      assert.equal(agentText(t), 'All steps are done.');
      if (agent === 'claude-code-acp') {
        // Our fs and terminal services did the work.
        assert.deepEqual(
          t.services.calls.writes.map((w) => w.content),
          ['hello from the interop suite\n'],
        );
        assert.equal(t.services.calls.reads.length, 1);
        assert.deepEqual(t.services.calls.terminalMethods, ['create', 'wait_for_exit', 'output', 'release']);
        const bash = [...t.toolCalls.values()].find((c) => c.kind === 'execute');
        assert.ok(
          ((bash?.content as ToolCallContent[]) ?? []).some((c) => c.type === 'terminal'),
          'terminal content',
        );
      } else {
        assert.equal(t.services.calls.writes.length + t.services.calls.terminals.length, 0);
      }
    });

    it('a rejected write is not performed', async () => {
      const t = await clientTurn({ agent, scenario: (cwd) => claudeScenario(cwd, flavour), policy: 'reject', record: `client-${agent}-reject` });
      report(`${agent} reject`, t);
      assert.ok(!t.files.includes(FILE_NAME));
      assert.equal(t.services.calls.writes.length, 0);
      const sub = t.permissions[0].req.subject;
      assert.ok(sub?.type === 'tool_call');
      assert.equal(t.toolCalls.get(sub.toolCallId)?.status, 'failed');
    });

    it('cancel mid-turn ends the turn `cancelled`', async () => {
      const t = await clientTurn({
        agent,
        scenario: (cwd) => claudeScenario(cwd, flavour, { holdMs: 60_000 }),
        cancelWhen: { modelStep: 1 },
        record: `client-${agent}-cancel`,
      });
      report(`${agent} cancel`, t);
      assert.equal(t.stopReason, 'cancelled');
    });

    it('cancel while a permission request is open: we answer it `cancelled`, the turn ends `cancelled`', async () => {
      const t = await clientTurn({
        agent,
        scenario: (cwd) => claudeScenario(cwd, flavour),
        policy: 'hold',
        cancelWhen: { permission: true },
        record: `client-${agent}-cancel-permission`,
      });
      report(`${agent} cancel during permission`, t);
      assert.equal(t.stopReason, 'cancelled');
      assert.ok(!t.files.includes(FILE_NAME));
      assertPermissionAnsweredCancelled(t);
    });
  });
}

describe('interop (our client): SDK agents and v2', function () {
  this.timeout(30_000);

  it('SDK 1.9 example agent (v1): tool calls and a permission', async () => {
    const t = await clientTurn({ agent: 'sdk-example', record: 'client-sdk-example' });
    report('sdk-example', t);
    assert.equal(t.conn.version, 1);
    assert.equal(t.stopReason, 'end_turn');
    assert.equal(t.permissions.length, 1);
    assert.ok(t.toolCalls.size >= 1);
  });

  it('SDK 1.9 dual-version agent negotiates v2 and ends idle end_turn', async () => {
    const t = await clientTurn({ agent: 'sdk-dual', record: 'client-sdk-dual' });
    report('sdk-dual', t);
    assert.equal(t.conn.version, 2);
    assert.equal(t.stopReason, 'end_turn');
    assert.ok(t.promptResult.messageId, 'prompt answered with a messageId');
    assert.ok(t.events.some((e) => e.kind === 'message' && e.role === 'agent'));
  });

  it('v2 test agent (SDK 2.4): several planIds, markdown and file plans, plan_removed, permission, diff', async () => {
    const t = await clientTurn({ agent: 'v2-test-agent', record: 'client-v2-test-agent' });
    report('v2-test-agent', t);
    assert.equal(t.conn.version, 2);
    assert.equal(t.stopReason, 'end_turn');
    assert.deepEqual(
      livePlans(t)
        .map((p) => `${p.plan.type}:${p.planId}`)
        .sort(),
      ['file:doc', 'items:main'],
    );
    assert.deepEqual(statuses(t, 'main'), ['completed', 'completed', 'completed']);
    assert.equal(t.store.get({ agentId: AGENT_ID, sessionId: t.sessionId, planId: 'main' })?.version, 3);
    assert.deepEqual(
      t.store.archived(AGENT_ID, t.sessionId).map((p) => `${p.plan.type}:${p.planId}`),
      ['markdown:notes'],
    );
    assert.equal(t.permissions.length, 1);
    assert.equal(t.permissions[0].req.title, 'Allow editing hello.txt?');
    const call = t.toolCalls.get('tc-edit');
    assert.equal(call?.status, 'completed');
    assert.equal(diffsOf(call)[0]?.changes[0].operation, 'add');
    assert.ok(t.events.some((e) => e.kind === 'state' && e.state === 'requires_action'));
  });

  it('v2 test agent: a rejected permission fails the call and cancels its plan entry', async () => {
    const t = await clientTurn({ agent: 'v2-test-agent', policy: 'reject', record: 'client-v2-test-agent-reject' });
    report('v2-test-agent reject', t);
    assert.equal(t.stopReason, 'end_turn');
    assert.equal(t.toolCalls.get('tc-edit')?.status, 'failed');
    assert.deepEqual(statuses(t, 'main'), ['completed', 'cancelled', 'completed']);
  });

  it('v2 test agent: cancel ends the turn idle `cancelled`', async () => {
    const t = await clientTurn({
      agent: 'v2-test-agent',
      prompt: 'hold',
      cancelWhen: { event: (e) => e.kind === 'plan_update' },
      record: 'client-v2-test-agent-cancel',
    });
    report('v2-test-agent cancel', t);
    assert.equal(t.stopReason, 'cancelled');
  });
});
