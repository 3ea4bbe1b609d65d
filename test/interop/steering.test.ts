// Steering (`_session/steering`) with the real adapters through OUR client: codex-acp 2.6 on v2 and
// claude-agent-acp 0.101 on v1 (its v2 surface does not serve steering yet and does not advertise
// it). Both advertise `_meta.steering`. While the fake model holds the turn's first answer (a step
// with `delayMs`), our client steers; the adapter answers `injected`, our client reports the
// message as steered inside the running turn; the test then releases the held answer, and the
// model's next request within that same turn carries the steered text (codex puts steered input
// into the next request of the running turn, once the current one completed); the answer to it
// ends the turn. codex-acp (v2) also sends the landed steer as a user message of its own, which the
// transcript folds into the steered one. Every message our client sent is checked against the
// schema by the runner (the request is an ExtRequest).
import assert from 'node:assert/strict';
import { clientTurn } from './support/clientTurn';
import type { SteerOutcome } from '../../src/protocol/api';
import type { ContentBlock, SessionEvent } from '../../src/protocol/domain';
import type { Scenario } from './support/fakeModel';
import { messageText, Transcript, type MessageItem } from '../../src/state/transcript';

const STEER_TEXT = 'Also mention the word PELICAN in your answer.';
const FINAL_TEXT = 'Done, with PELICAN.';

/**
 * The first answer is held until the test releases it, right after the steer (else longer than the
 * test may take); a request whose user input carries the steered text is answered with the final
 * text, which ends the turn.
 */
const heldScenario = (): Scenario => ({
  steps: [{ kind: 'text', text: 'Thinking about it.', delayMs: 600_000 }],
  phases: [{ marker: 'PELICAN', scenario: { steps: [], finalText: FINAL_TEXT } }],
});

type MessageEvent = Extract<SessionEvent, { kind: 'message' }>;
const isMessage = (e: SessionEvent): e is MessageEvent => e.kind === 'message';
/** The text of an agent message or message chunk (else empty). */
function agentText(e: SessionEvent): string {
  if (e.kind === 'message_chunk' && e.role === 'agent') return e.content.type === 'text' ? e.content.text : '';
  if (e.kind !== 'message' || e.role !== 'agent' || !Array.isArray(e.content)) return '';
  return (e.content as ContentBlock[]).map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/** The user messages of a transcript built from the events, steered ones marked. */
function userMessages(events: SessionEvent[], sessionId: string): string[] {
  const transcript = new Transcript();
  for (const e of events) transcript.apply(e);
  return transcript
    .session(sessionId)!
    .slice(0)
    .filter((i): i is MessageItem => i.kind === 'message' && i.role === 'user')
    .map((m) => `${m.steered ? 'steered:' : ''}${messageText(m)}`);
}

// `echoes`: the agent sends the landed steer again as a user message of its own.
for (const [agent, protocol, echoes] of [
  ['codex-acp-2.6', 2, true],
  ['claude-agent-acp-0.101', 1, false],
] as const) {
  describe(`interop (our client): steering, ${agent} (v${protocol})`, function () {
    this.timeout(120_000);

    it('steers into the running turn: injected, shown as steered, the model sees the text in the same turn, which ends by itself', async () => {
      let advertised: boolean | undefined;
      let outcome: SteerOutcome | undefined;
      let requestsBefore = 0;
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
          // The held answer completes now: the agent's next model request of this turn carries the steer.
          model.release();
        },
      });
      assert.equal(t.conn.version, protocol);
      assert.equal(advertised, true, 'the initialize answer advertises steering');
      assert.deepEqual(outcome, { kind: 'injected' });

      // One turn, ended by the agent (no cancel, no second prompt of ours).
      const prompts = t.wire.filter((l) => l.dir === 'send' && (l.msg as { method?: string }).method === 'session/prompt');
      assert.equal(prompts.length, 1, 'one prompt sent');
      const idles = t.events.filter((e) => e.kind === 'state' && e.state === 'idle' && e.stopReason != null);
      assert.equal(idles.length, 1, 'one turn');
      assert.equal(t.stopReason, 'end_turn');

      // Shown once, as steered, between the turn's start and its end.
      const steered = t.events.filter((e): e is MessageEvent => isMessage(e) && e.steered === true);
      assert.equal(steered.length, 1, JSON.stringify(t.events.map((e) => e.kind)));
      assert.deepEqual(steered[0]!.content, [{ type: 'text', text: STEER_TEXT }]);
      const at = t.events.indexOf(steered[0]!);
      const idleAt = t.events.indexOf(idles[0]!);
      const runningAt = t.events.findIndex((e) => e.kind === 'state' && e.state === 'running');
      assert.ok(runningAt >= 0 && runningAt < at && at < idleAt, `running ${runningAt} < steered ${at} < idle ${idleAt}`);

      // The model saw the steered text after the steer, and its answer to it is part of this turn.
      const after = t.model.requests.slice(requestsBefore);
      const sawIt = after.filter((r) => r.answer === 'final' && JSON.stringify(r.body).includes(STEER_TEXT));
      assert.ok(sawIt.length >= 1, `a model request after the steer carries it: ${after.map((r) => r.answer).join(', ')}`);
      const answerAt = t.events.findIndex((e) => agentText(e).includes(FINAL_TEXT));
      assert.ok(at < answerAt && answerAt < idleAt, `steered ${at} < the answer to it ${answerAt} < idle ${idleAt}`);

      // codex-acp sends the landed steer again under its own id; the transcript shows it once.
      const copies = t.events.filter((e) => e.kind === 'message_chunk' && e.role === 'user' && e.content.type === 'text' && e.content.text === STEER_TEXT);
      assert.equal(copies.length, echoes ? 1 : 0, "the agent's own copy of the steer");
      assert.deepEqual(
        userMessages(t.events, t.sessionId).filter((m) => m.includes('PELICAN')),
        [`steered:${STEER_TEXT}`],
      );
      assert.deepEqual(t.logs, [], 'protocol warnings');
    });
  });
}
