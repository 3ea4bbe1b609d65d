// Steering (`_session/steering`) with the real adapters through OUR client: codex-acp 2.6 on v2 and
// claude-agent-acp 0.101 on v1 (its v2 surface does not serve steering yet and does not advertise
// it). Both advertise `_meta.steering`. While the fake model holds the turn's first answer (a step
// with `delayMs`), our client steers; the adapter answers `injected`, our client reports the
// message as steered inside the running turn, and the model's next request within that same turn
// carries the steered text. Every message our client sent is checked against the schema by the
// runner (the request is an ExtRequest).
import assert from 'node:assert/strict';
import { clientTurn } from './support/clientTurn';
import type { SteerOutcome } from '../../src/protocol/api';
import type { SessionEvent } from '../../src/protocol/domain';
import type { Scenario } from './support/fakeModel';

const STEER_TEXT = 'Also mention the word PELICAN in your answer.';

/** The first answer is held long enough to steer into it; the one after the steer ends the turn. */
const heldScenario = (): Scenario => ({ steps: [{ kind: 'text', text: 'Thinking about it.', delayMs: 4000 }], finalText: 'Done, with PELICAN.' });

const steeredEvents = (events: SessionEvent[]) =>
  events.filter((e): e is Extract<SessionEvent, { kind: 'message' }> => e.kind === 'message' && e.steered === true);

/** Resolves once a model request carries `text` (the fake model has no event for requests: checked every 100 ms). */
async function modelSaw(requests: () => { body: unknown }[], text: string, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    if (requests().some((r) => JSON.stringify(r.body).includes(text))) return true;
  }
  return false;
}

for (const [agent, protocol, modelSeesIt] of [
  // codex-acp 2.6 answers `injected` but, against the fake model, sends no request after the held
  // one (nor any update) within the turn: what the model sees of a steer is checked with claude only.
  ['codex-acp-2.6', 2, false],
  ['claude-agent-acp-0.101', 1, true],
] as const) {
  describe(`interop (our client): steering, ${agent} (v${protocol})`, function () {
    this.timeout(120_000);

    it(
      'steers into the running turn: injected, shown as steered inside the turn' + (modelSeesIt ? ', the model sees the text in the same turn' : ''),
      async () => {
        let advertised: boolean | undefined;
        let outcome: SteerOutcome | undefined;
        let requestsBefore = 0;
        let seen = false;
        const t = await clientTurn({
          agent,
          protocol,
          prompt: 'Say hello.',
          scenario: heldScenario,
          record: `client-${agent}-steering`,
          whileRunning: async ({ conn, sessionId, model }) => {
            advertised = conn.steering;
            await model.stepStarted(0);
            requestsBefore = model.requests.length;
            outcome = await conn.steer(sessionId, [{ type: 'text', text: STEER_TEXT }]);
            if (modelSeesIt) seen = await modelSaw(() => model.requests.slice(requestsBefore), 'PELICAN', 30_000);
            conn.cancel(sessionId); // the rest of the turn is not this test's concern
          },
        });
        assert.equal(t.conn.version, protocol);
        assert.equal(advertised, true, 'the initialize answer advertises steering');
        assert.deepEqual(outcome, { kind: 'injected' });

        // Shown once, as steered, between the turn's start and its end.
        const steered = steeredEvents(t.events);
        assert.equal(steered.length, 1, JSON.stringify(t.events.map((e) => e.kind)));
        assert.deepEqual(steered[0]!.content, [{ type: 'text', text: STEER_TEXT }]);
        const at = t.events.indexOf(steered[0]!);
        const idleAt = t.events.findIndex((e) => e.kind === 'state' && e.state === 'idle' && e.stopReason != null);
        const runningAt = t.events.findIndex((e) => e.kind === 'state' && e.state === 'running');
        assert.ok(runningAt >= 0 && runningAt < at && at < idleAt, `running ${runningAt} < steered ${at} < idle ${idleAt}`);
        const idles = t.events.filter((e) => e.kind === 'state' && e.state === 'idle' && e.stopReason != null);
        assert.equal(idles.length, 1, 'one turn');
        if (modelSeesIt) assert.ok(seen, `a model request after the steer, in this turn, carries it: ${t.model.requests.map((r) => r.answer).join(', ')}`);
        assert.deepEqual(t.logs, [], 'protocol warnings');
      },
    );
  });
}
