// The Demo Agent's steering (`_session/steering`, advertised as `_meta.steering`): on both
// versions a running `/steer` turn takes the input (`injected`) and the agent's next message,
// still inside the turn, quotes it; `/steer refuse` answers `failed` with a reason; with no turn
// running it answers `promptRequired` when the client asked for that.
import * as assert from 'node:assert/strict';
import { cleanup, schemaCheck, start } from './support/harness';
import type { DemoClient } from './support/demoClient';

type Update = { sessionUpdate?: string; content?: { text?: string }; state?: string };
const update = (m: { params?: unknown }): Update | undefined => (m.params as { update?: Update } | undefined)?.update;
const steerParams = (sessionId: string, text: string) => ({
  sessionId,
  prompt: [{ type: 'text', text }],
  _meta: { steering: { idleBehavior: 'promptRequired' } },
});

/** Waits for the turn's first agent message, so the turn is surely running. */
async function turnRunning(client: DemoClient, from: number): Promise<void> {
  await client.waitFor((m) => update(m)?.sessionUpdate === 'agent_message_chunk', from);
}

describe('Demo Agent steering', function () {
  this.timeout(30_000);
  before(() => schemaCheck());
  afterEach(cleanup);

  for (const version of [1, 2] as const) {
    it(`v${version}: advertises steering, takes input into a running turn and answers it within the turn`, async () => {
      const s = await start({ version });
      assert.deepEqual((s.init._meta as { steering?: unknown } | undefined)?.steering, { supported: true });
      const from = s.client.received.length;
      const prompting = s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [{ type: 'text', text: '/steer' }] });
      await turnRunning(s.client, from);
      const answer = await s.client.request('_session/steering', steerParams(s.sessionId, 'use the fixtures'));
      assert.deepEqual(answer, { outcome: 'injected' });
      const isAck = (m: { params?: unknown }): boolean =>
        update(m)?.sessionUpdate === 'agent_message_chunk' && /use the fixtures/.test(update(m)?.content?.text ?? '');
      const ack = await s.client.waitFor(isAck, from);
      s.client.notify('session/cancel', { sessionId: s.sessionId });
      await prompting;
      // The turn's end: v2 its idle state, v1 the prompt's answer (with its stopReason).
      const isEnd = (m: { params?: unknown; result?: unknown }): boolean =>
        version === 2
          ? update(m)?.sessionUpdate === 'state_update' && update(m)?.state === 'idle'
          : (m.result as { stopReason?: unknown } | undefined)?.stopReason !== undefined;
      await s.client.waitFor(isEnd, from);
      const endAt = s.client.received.findIndex((m, i) => i >= from && isEnd(m));
      const ackAt = s.client.received.findIndex((m, i) => i >= from && isAck(m));
      assert.ok(ackAt > 0 && endAt > ackAt, `the acknowledgement (${ackAt}) comes before the turn ends (${endAt})`);
      assert.match(update(ack)?.content?.text ?? '', /Steering noted: "use the fixtures"/);
    });
  }

  it('/steer refuse answers failed with a reason; with no turn running it is promptRequired', async () => {
    const s = await start({ version: 2 });
    const from = s.client.received.length;
    const prompting = s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [{ type: 'text', text: '/steer refuse' }] });
    await turnRunning(s.client, from);
    assert.deepEqual(await s.client.request('_session/steering', steerParams(s.sessionId, 'faster')), {
      outcome: 'failed',
      reason: 'this turn does not take steering',
    });
    s.client.notify('session/cancel', { sessionId: s.sessionId });
    await prompting;
    await s.client.waitFor((m) => update(m)?.sessionUpdate === 'state_update' && update(m)?.state === 'idle', from);
    assert.deepEqual(await s.client.request('_session/steering', steerParams(s.sessionId, 'later')), { outcome: 'promptRequired', reason: 'noRunningTurn' });
    assert.ok(!s.client.received.some((m) => /faster/.test(JSON.stringify(m.params ?? {}))), 'a refused steer is not taken into the turn');
  });
});
