// RAW-DRIVER SMOKE TESTS: each real agent runs a whole turn offline through a raw NDJSON driver
// (no code of ours between the test and the pipe). They pin down what the real agents send, the
// interop facts the client has to handle, independently of our protocol layer; client.test.ts
// runs these turns (and the reject and cancel paths) through connect().
import assert from 'node:assert/strict';
import { rawTurn } from './support/rawTurn';
import { codexScenario, claudeScenario, FILE_NAME, MARKER, FINAL_TEXT } from './support/scenarios';
import { rmSync } from 'node:fs';
import { RawClient, type Msg } from './support/rawClient';
import { launchOf, tempDir, type AgentName } from './support/agents';

type U = Record<string, unknown>;
const plans = (updates: U[]) => updates.filter((u) => u.sessionUpdate === 'plan').map((u) => (u.entries as { status: string }[]).map((e) => e.status));
const agentRequests = (ms: Msg[]) => ms.filter((m) => m.method && m.id !== undefined);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const text = (updates: U[]) =>
  updates
    .filter((u) => u.sessionUpdate === 'agent_message_chunk')
    .map((u) => (u.content as { text?: string }).text ?? '')
    .join('');
const report = (name: string, ms: number) => console.log(`      ${name}: turn ${ms} ms`);

describe('interop (raw driver): codex-acp', function () {
  this.timeout(60_000);

  it('runs a turn: plan, edit with diff, command, both permissions allowed', async () => {
    const t = await rawTurn({ agent: 'codex-acp', scenario: () => codexScenario(), record: 'codex-acp-allow' });
    report('codex-acp allow', t.turnMs);
    assert.equal(t.stopReason, 'end_turn');
    const u = t.client.updates();
    assert.deepEqual(plans(u), [
      ['in_progress', 'pending'],
      ['completed', 'completed'],
    ]);
    assert.equal(t.permissions.length, 2);
    // Agent → client request ids are UUID strings.
    for (const r of agentRequests(t.client.received())) assert.match(String(r.id), UUID);
    // The edit is a tool call with a v1 diff; the command's tool call is first announced by the
    // permission request (no tool_call for it before).
    const edit = u.find((x) => x.sessionUpdate === 'tool_call' && x.kind === 'edit');
    assert.ok(edit, 'edit tool call');
    assert.equal((edit.content as U[])[0].type, 'diff');
    const execPerm = t.permissions.find((p) => (p.params.toolCall as U).kind === 'execute');
    assert.ok(execPerm);
    const execId = (execPerm.params.toolCall as U).toolCallId;
    const firstSeen = t.client.received().findIndex((m) => JSON.stringify(m.params ?? {}).includes(String(execId)));
    assert.equal(t.client.received()[firstSeen].method, 'session/request_permission');
    assert.ok(t.files.includes(FILE_NAME) && t.files.includes(MARKER), `files: ${t.files}`);
    assert.equal(text(u), FINAL_TEXT);
  });
});

for (const agent of ['claude-code-acp', 'claude-agent-acp'] as const) {
  const flavour = agent === 'claude-code-acp' ? 'acp-tools' : 'plain-tools';
  describe(`interop (raw driver): ${agent}`, function () {
    this.timeout(90_000);

    it('runs a turn: plan, write, read, command, permissions allowed', async () => {
      const t = await rawTurn({ agent, scenario: (cwd) => claudeScenario(cwd, flavour), record: `${agent}-allow` });
      report(`${agent} allow`, t.turnMs);
      assert.equal(t.stopReason, 'end_turn');
      const u = t.client.updates();
      assert.deepEqual(plans(u), [
        ['in_progress', 'pending'],
        ['completed', 'completed'],
      ]);
      assert.equal(t.permissions.length, 2, 'write and command ask');
      // Request ids are numbers starting at 0, and collide with ours (separate id spaces).
      const ids = agentRequests(t.client.received()).map((m) => m.id);
      assert.equal(ids[0], 0);
      // A tool call is first sent with empty input and a generic title, then completed.
      const writeCalls = u.filter((x) => x.toolCallId === (t.permissions[0].params.toolCall as U).toolCallId);
      assert.deepEqual(writeCalls[0].rawInput, {});
      assert.ok(
        writeCalls.some((x) => Array.isArray(x.content) && (x.content as U[]).some((c) => c.type === 'diff')),
        'diff',
      );
      assert.ok(writeCalls.some((x) => x.status === 'completed'));
      assert.ok(t.files.includes(FILE_NAME) && t.files.includes(MARKER), `files: ${t.files}`);
      if (agent === 'claude-code-acp') {
        // tool_call repeats for one id; files and the command go through the client.
        assert.equal(writeCalls.filter((x) => x.sessionUpdate === 'tool_call').length, 2);
        assert.equal(t.services.calls.writes.length, 1);
        assert.equal(t.services.calls.reads.length, 1);
        assert.deepEqual(t.services.calls.terminalMethods, ['create', 'wait_for_exit', 'output', 'release']);
        assert.deepEqual(t.services.calls.terminals[0].args, []);
      } else {
        assert.equal(t.services.calls.writes.length + t.services.calls.terminals.length, 0, 'never uses client services');
      }
      assert.equal(text(u), FINAL_TEXT);
    });
  });
}

describe('interop (raw driver): version negotiation', function () {
  this.timeout(60_000);
  const hybridV2 = {
    protocolVersion: 2,
    info: { name: 'acp-plans-interop', version: '0.0.0' },
    capabilities: {},
    clientInfo: { name: 'acp-plans-interop', version: '0.0.0' },
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  };

  for (const agent of ['codex-acp', 'claude-code-acp', 'claude-agent-acp', 'sdk-example'] as const) {
    it(`${agent} answers protocolVersion 1 (v1-shaped) to a hybrid v2 initialize`, async () => {
      const r = await negotiateOnly(agent, hybridV2);
      assert.equal(r.protocolVersion, 1);
      assert.ok(!('info' in r), 'no v2 info');
    });
  }

  it('the SDK dual-version agent answers v2 to a v2 initialize and v1 to a v1 initialize', async () => {
    const v2 = await negotiateOnly('sdk-dual', hybridV2);
    assert.equal(v2.protocolVersion, 2);
    assert.ok(v2.info, 'v2 info');
    const v1 = await negotiateOnly('sdk-dual', { protocolVersion: 1, clientCapabilities: {} });
    assert.equal(v1.protocolVersion, 1);
  });

  it('the v2 test agent (SDK 2.4) answers v2, and -32022 with `supported` to a v1 initialize', async () => {
    const v2 = await negotiateOnly('v2-test-agent', hybridV2);
    assert.equal(v2.protocolVersion, 2);
    await assert.rejects(
      negotiateOnly('v2-test-agent', { protocolVersion: 1, info: { name: 'x', version: '1' } }),
      (e: { code?: number; data?: { supported?: number[] } }) => {
        assert.equal(e.code, -32022);
        assert.deepEqual(e.data?.supported, [2]);
        return true;
      },
    );
  });
});

async function negotiateOnly(agent: AgentName, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const cwd = tempDir('neg');
  const launch = launchOf(agent, 'http://127.0.0.1:9', cwd);
  const client = new RawClient(launch, () => ({}));
  try {
    return await client.request<Record<string, unknown>>('initialize', params);
  } finally {
    await client.close();
    launch.cleanup();
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('interop (raw driver): v2 turns', function () {
  this.timeout(30_000);

  it('SDK dual-version agent: user_message, running, agent_message, idle end_turn', async () => {
    const t = await rawTurn({ agent: 'sdk-dual', v2: true, record: 'sdk-dual-v2' });
    report('sdk-dual v2', t.turnMs);
    assert.equal(t.stopReason, 'end_turn');
    const kinds = t.client.updates().map((u) => (u.sessionUpdate === 'state_update' ? `state:${u.state}` : u.sessionUpdate));
    assert.deepEqual(kinds, ['user_message', 'state:running', 'agent_message', 'state:idle']);
  });

  it('v2 test agent: several planIds (items, markdown, file), plan_removed, permission, diff', async () => {
    const t = await rawTurn({ agent: 'v2-test-agent', v2: true, record: 'v2-test-agent' });
    report('v2-test-agent', t.turnMs);
    assert.equal(t.stopReason, 'end_turn');
    const u = t.client.updates();
    const planIds = [...new Set(u.filter((x) => x.sessionUpdate === 'plan_update').map((x) => `${(x.plan as U).type}:${(x.plan as U).planId}`))];
    assert.deepEqual(planIds, ['items:main', 'markdown:notes', 'file:doc']);
    assert.ok(u.some((x) => x.sessionUpdate === 'plan_removed' && x.planId === 'notes'));
    assert.equal(t.permissions.length, 1);
    assert.equal(t.permissions[0].params.title, 'Allow editing hello.txt?');
  });

  it('v2 test agent: session/cancel ends the turn idle `cancelled`', async () => {
    const t = await rawTurn({
      agent: 'v2-test-agent',
      v2: true,
      prompt: 'hold',
      record: 'v2-test-agent-cancel',
      cancelWhen: { message: (m) => m.method === 'session/update' && (m.params as { update: U }).update.sessionUpdate === 'plan_update' },
    });
    assert.equal(t.stopReason, 'cancelled');
  });
});
