// Session lifecycle of the Demo Agent: list, load / resume (with replay), persistence across a
// restart with ACP_DEMO_STATE_DIR, config options, modes, close.

import assert from 'node:assert/strict';
import { text, type DemoClient } from './support/demoClient';
import { answerPermissions, cleanup, isIdleWithStop, schemaCheck, start, tempDir, type Started } from './support/harness';
import type { Message } from './support/schemaCheck';

type Update = Record<string, unknown>;

function kinds(updates: Update[]): string[] {
  return updates.map((u) => String(u.sessionUpdate));
}

async function defaultTurn(s: Started): Promise<void> {
  answerPermissions(s.client, 'allow_once');
  const from = s.client.received.length;
  const answer = await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('Add a farewell helper')] });
  if (s.client.version === 2) await s.client.waitFor(isIdleWithStop, from);
  else assert.deepEqual(answer, { stopReason: 'end_turn' });
}

/** Sends a request; returns its result and the updates that arrived before the answer. */
async function withUpdates(client: DemoClient, method: string, params: object): Promise<{ result: Update; before: Update[]; after: number }> {
  const from = client.received.length;
  const result = (await client.request(method, params)) as Update;
  const answerIndex = client.received.findIndex((m: Message, k) => k >= from && m.method === undefined);
  return {
    result,
    before: client.updates(from).slice(0, client.received.slice(from, answerIndex).filter((m) => m.method === 'session/update').length),
    after: answerIndex + 1,
  };
}

function assertValid(client: DemoClient): void {
  assert.deepEqual(client.problems, [], client.problems.join('\n'));
}

describe('Demo Agent sessions', function () {
  this.timeout(30_000);
  before(() => schemaCheck());
  afterEach(cleanup);

  it('v1: session/load replays the history (v1 shapes) before answering, then re-announces the commands', async () => {
    const s = await start({ version: 1, schemas: () => ['v1.unstable', 'v1'] });
    await defaultTurn(s);
    const { result, before, after } = await withUpdates(s.client, 'session/load', { sessionId: s.sessionId, cwd: s.cwd, mcpServers: [] });
    assert.deepEqual(Object.keys(result).sort(), ['configOptions', 'modes']);
    const k = kinds(before);
    assert.equal(k[0], 'user_message_chunk', 'the prompt is the first thing of the history');
    assert.ok(k.includes('user_message_chunk'));
    assert.ok(k.includes('agent_thought_chunk'));
    assert.deepEqual(
      before.filter((u) => u.sessionUpdate === 'tool_call').map((u) => [u.kind, u.status]),
      [
        ['read', 'completed'],
        ['edit', 'completed'],
        ['edit', 'completed'],
      ],
    );
    assert.equal(k.filter((x) => x === 'plan').length, 1, 'one merged plan at the end of the replay');
    assert.equal(k.at(-1), 'plan');
    const userText = before.find((u) => u.sessionUpdate === 'user_message_chunk')?.content as { text: string };
    assert.equal(userText.text, 'Add a farewell helper');
    await s.client.waitFor((m) => (m.params as { update?: Update })?.update?.sessionUpdate === 'available_commands_update', after);
    assertValid(s.client);
  });

  it('v1: session/resume answers without replay', async () => {
    const s = await start({ version: 1 });
    await defaultTurn(s);
    const { result, before } = await withUpdates(s.client, 'session/resume', { sessionId: s.sessionId, cwd: s.cwd });
    assert.deepEqual(before, []);
    assert.equal((result.modes as Update).currentModeId, 'default');
    assertValid(s.client);
  });

  it('v2 → restart → v2: session/resume with replayFrom start replays whole messages, then idle, then answers', async () => {
    const stateDir = tempDir('acp-demo-state-');
    const first = await start({ version: 2, env: { ACP_DEMO_STATE_DIR: stateDir } });
    await defaultTurn(first);
    await first.client.close();

    const second = await start({ version: 2, env: { ACP_DEMO_STATE_DIR: stateDir }, cwd: first.cwd });
    const list = (await second.client.request('session/list', { cwd: first.cwd })) as { sessions: Update[] };
    const listed = list.sessions.find((x) => x.sessionId === first.sessionId);
    assert.equal(listed?.title, 'Add a farewell helper');
    assert.equal(listed?.cwd, first.cwd);

    const { result, before } = await withUpdates(second.client, 'session/resume', {
      sessionId: first.sessionId,
      cwd: first.cwd,
      replayFrom: { type: 'start' },
    });
    assert.deepEqual(Object.keys(result), ['configOptions']);
    const k = kinds(before);
    assert.equal(k[0], 'user_message');
    for (const kind of ['agent_thought', 'agent_message', 'plan_update', 'plan_removed', 'tool_call_update', 'session_info_update', 'usage_update']) {
      assert.ok(k.includes(kind), `replay has ${kind}`);
    }
    assert.ok(!k.includes('agent_message_chunk'), 'chunks are replayed as whole messages');
    assert.deepEqual(before.at(-1), { sessionUpdate: 'state_update', state: 'idle' });
    const agentMessage = before.find((u) => u.sessionUpdate === 'agent_message') as { content: { text: string }[] };
    assert.equal(agentMessage.content.length, 1, 'the chunks are merged into one text block');
    assert.match(agentMessage.content[0].text, /farewell/);
    assertValid(second.client);
  });

  it('v2 → restart → v1 with the plan opt-in: session/load replays plan_update variants', async () => {
    const stateDir = tempDir('acp-demo-state-');
    const first = await start({ version: 2, env: { ACP_DEMO_STATE_DIR: stateDir } });
    await defaultTurn(first);
    await first.client.close();
    const second = await start({ version: 1, clientCapabilities: { plan: {} }, env: { ACP_DEMO_STATE_DIR: stateDir }, cwd: first.cwd });
    const { before } = await withUpdates(second.client, 'session/load', { sessionId: first.sessionId, cwd: first.cwd, mcpServers: [] });
    const plans = before.filter((u) => u.sessionUpdate === 'plan_update').map((u) => (u.plan as Update).planId);
    assert.deepEqual(plans, ['impl', 'tests', 'scratch', 'notes', 'spec'], 'the custom plan cannot be sent in v1');
    assert.deepEqual(
      before.filter((u) => u.sessionUpdate === 'plan_removed').map((u) => u.planId),
      ['scratch'],
    );
    assertValid(second.client);
  });

  it('v2: session/resume without replayFrom only reports the idle state', async () => {
    const s = await start({ version: 2 });
    await defaultTurn(s);
    const { before } = await withUpdates(s.client, 'session/resume', { sessionId: s.sessionId, cwd: s.cwd });
    assert.deepEqual(before, [{ sessionUpdate: 'state_update', state: 'idle' }]);
  });

  it('without a state dir, a restarted agent does not know the session', async () => {
    const first = await start({ version: 1 });
    await first.client.close();
    const second = await start({ version: 1 });
    await assert.rejects(second.client.request('session/load', { sessionId: first.sessionId, cwd: first.cwd, mcpServers: [] }), /-32002/);
    await assert.rejects(second.client.request('session/prompt', { sessionId: first.sessionId, prompt: [text('x')] }), /-32002/);
  });

  it('config options: v2 needs type "id"; turning show_thoughts off drops the thoughts', async () => {
    const s = await start({ version: 2 });
    const options = s.newSession.configOptions as Update[];
    assert.deepEqual(
      options.map((o) => [o.configId, o.type, o.currentValue]),
      [
        ['model', 'select', 'demo-fast'],
        ['show_thoughts', 'boolean', true],
      ],
    );
    await assert.rejects(s.client.request('session/set_config_option', { sessionId: s.sessionId, configId: 'model', value: 'demo-thorough' }), /-32602/);
    const set = (await s.client.request('session/set_config_option', { sessionId: s.sessionId, configId: 'model', type: 'id', value: 'demo-thorough' })) as {
      configOptions: Update[];
    };
    assert.equal(set.configOptions[0].currentValue, 'demo-thorough');
    await assert.rejects(s.client.request('session/set_config_option', { sessionId: s.sessionId, configId: 'model', type: 'id', value: 'nope' }), /-32602/);
    await s.client.request('session/set_config_option', { sessionId: s.sessionId, configId: 'show_thoughts', type: 'boolean', value: false });
    const from = s.client.received.length;
    await defaultTurn(s);
    assert.ok(!s.client.updates(from).some((u) => u.sessionUpdate === 'agent_thought_chunk'));
    assertValid(s.client);
  });

  it('config options and modes in v1: boolean options only with the client capability', async () => {
    const plain = await start({ version: 1 });
    assert.deepEqual(
      (plain.newSession.configOptions as Update[]).map((o) => o.id),
      ['model'],
    );
    await assert.rejects(
      plain.client.request('session/set_config_option', { sessionId: plain.sessionId, configId: 'show_thoughts', type: 'boolean', value: false }),
      /-32602/,
    );
    const set = (await plain.client.request('session/set_config_option', { sessionId: plain.sessionId, configId: 'model', value: 'demo-thorough' })) as {
      configOptions: Update[];
    };
    assert.equal(set.configOptions[0].currentValue, 'demo-thorough');
    assert.deepEqual(await plain.client.request('session/set_mode', { sessionId: plain.sessionId, modeId: 'plan' }), {});
    await assert.rejects(plain.client.request('session/set_mode', { sessionId: plain.sessionId, modeId: 'nope' }), /-32602/);
    const resumed = (await plain.client.request('session/resume', { sessionId: plain.sessionId, cwd: plain.cwd })) as { modes: Update };
    assert.equal(resumed.modes.currentModeId, 'plan');

    const withBooleans = await start({ version: 1, clientCapabilities: { session: { configOptions: { boolean: {} } } } });
    assert.deepEqual(
      (withBooleans.newSession.configOptions as Update[]).map((o) => o.id),
      ['model', 'show_thoughts'],
    );
    assertValid(plain.client);
    assertValid(withBooleans.client);
  });

  it('v2: session/close during a turn stops it silently', async () => {
    const s = await start({ version: 2 });
    const from = s.client.received.length;
    await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('/slow')] });
    await s.client.waitFor((m) => (m.params as { update?: Update })?.update?.sessionUpdate === 'plan_update', from);
    assert.deepEqual(await s.client.request('session/close', { sessionId: s.sessionId }), {});
    const closedAt = s.client.received.length;
    await s.client.request('session/list', {});
    assert.deepEqual(s.client.updates(closedAt), []);
    assertValid(s.client);
  });

  it('v1: session/close during a turn answers the prompt cancelled', async () => {
    const s = await start({ version: 1 });
    const from = s.client.received.length;
    const answer = s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('/slow')] });
    await s.client.waitFor((m) => (m.params as { update?: Update })?.update?.sessionUpdate === 'plan', from);
    assert.deepEqual(await s.client.request('session/close', { sessionId: s.sessionId }), {});
    assert.deepEqual(await answer, { stopReason: 'cancelled' });
  });

  it('refuses a second prompt while a turn runs, and unknown methods', async () => {
    const s = await start({ version: 2 });
    const from = s.client.received.length;
    await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('/slow')] });
    await assert.rejects(s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text('again')] }), /-32600/);
    await assert.rejects(s.client.request('session/load', { sessionId: s.sessionId, cwd: s.cwd }), /-32601/, 'v2 has no session/load');
    s.client.notify('session/cancel', { sessionId: s.sessionId });
    await s.client.waitFor(isIdleWithStop, from);
    assertValid(s.client);
  });
});
