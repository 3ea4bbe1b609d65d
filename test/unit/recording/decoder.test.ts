// Replay decoding: recorded traffic through the real adapters gives what the live connection
// gave: the version from the recorded initialize answer (as negotiate.ts decides it), sessions,
// plans, the v1 turn's synthesized states, permission requests with their recorded answers.
// Malformed messages become notes, never a failed replay.
import * as assert from 'node:assert/strict';
import type { SessionEvent } from '../../../src/protocol/domain';
import { ReplayDecoder, type ReplayOutput } from '../../../src/recording/decoder';
import { indexRecording, readMessage, type RecordedMessage } from '../../../src/recording/format';
import { PlanStore } from '../../../src/state/planStore';
import { decodeAll, fixture } from './support';

const events = (outs: ReplayOutput[]): SessionEvent[] => outs.flatMap((o) => (o.kind === 'event' ? [o.event] : []));
const of = <K extends ReplayOutput['kind']>(outs: ReplayOutput[], kind: K) => outs.filter((o): o is Extract<ReplayOutput, { kind: K }> => o.kind === kind);
const stopReasons = (outs: ReplayOutput[]) => events(outs).flatMap((e) => (e.kind === 'state' && e.state === 'idle' && e.stopReason ? [e.stopReason] : []));
const plans = (outs: ReplayOutput[]) => {
  const s = new PlanStore();
  for (const e of events(outs)) s.apply('r', e);
  return s;
};
const msg = (line: number, dir: 'send' | 'receive', m: Record<string, unknown>): RecordedMessage => ({
  line,
  dir,
  time: undefined,
  msgs: [{ jsonrpc: '2.0', ...m }],
});

describe('replay decoding', () => {
  it('v1 (codex-acp): the session, its plan, both permission requests answered as recorded, the turn', () => {
    const { decoder, outputs } = decodeAll(fixture('codex-acp-0.16.0.ndjson'));
    assert.equal(decoder.version, 1);
    assert.deepEqual(
      of(outputs, 'connected').map((c) => [c.version, c.agentInfo?.name]),
      [[1, 'codex-acp']],
    );
    const [session] = of(outputs, 'session');
    assert.equal(session.sessionId, '01a22993-ec7f-74b3-86d2-1aabdfea13b5');
    assert.equal(session.cwd, '/workspace');
    assert.deepEqual(of(outputs, 'note'), []);
    // The v1 adapter synthesized our prompt's user message and the turn's states.
    const evs = events(outputs);
    assert.ok(evs.some((e) => e.kind === 'message' && e.role === 'user'));
    const firstState = evs.find((e) => e.kind === 'state');
    assert.ok(firstState?.kind === 'state' && firstState.state === 'running');
    assert.deepEqual(stopReasons(outputs), ['end_turn']);
    const plan = plans(outputs).get({ agentId: 'r', sessionId: session.sessionId, planId: 'main' });
    assert.ok(plan?.plan.type === 'items');
    assert.deepEqual(
      plan.plan.entries.map((e) => e.status),
      ['completed', 'completed'],
    );
    const asked = of(outputs, 'permission');
    const answered = of(outputs, 'permission_answer');
    assert.equal(asked.length, 2);
    assert.deepEqual(
      answered.map((a) => a.requestId),
      asked.map((a) => a.requestId),
    );
    assert.ok(answered.every((a) => a.outcome.outcome === 'selected'));
  });

  it('v1 reject recording: the rejection is the recorded answer and the turn ends cancelled', () => {
    const { outputs } = decodeAll(fixture('codex-acp-0.16.0-reject.ndjson'));
    const [answer] = of(outputs, 'permission_answer');
    const [asked] = of(outputs, 'permission');
    assert.ok(answer.outcome.outcome === 'selected');
    assert.equal(asked.request.options.find((o) => answer.outcome.outcome === 'selected' && o.optionId === answer.outcome.optionId)?.kind, 'reject_once');
    assert.deepEqual(stopReasons(outputs), ['cancelled']);
  });

  it('v2 (SDK 2.4.0 test agent): plans by planId, plan_removed, the permission and its answer', () => {
    const { decoder, outputs } = decodeAll(fixture('sdk-2.4.0-v2-test-agent.ndjson'));
    assert.equal(decoder.version, 2);
    assert.deepEqual(of(outputs, 'note'), []);
    const evs = events(outputs);
    const planIds = new Set(evs.flatMap((e) => (e.kind === 'plan_update' ? [e.plan.planId] : [])));
    assert.ok(planIds.size >= 3, [...planIds].join());
    assert.ok(evs.some((e) => e.kind === 'plan_removed'));
    assert.equal(of(outputs, 'permission').length, 1);
    assert.equal(of(outputs, 'permission_answer').length, 1);
    assert.ok(evs.some((e) => e.kind === 'state' && e.state === 'idle'));
  });

  it("v2 from a dual-version agent: the answer's shape decides, as in negotiation", () => {
    const { decoder, outputs } = decodeAll(fixture('sdk-1.9.0-dual-version-agent-v2.ndjson'));
    assert.equal(decoder.version, 2);
    assert.ok(events(outputs).some((e) => e.kind === 'message_chunk' || e.kind === 'message'));
  });

  it('every interop recording decodes without a note', () => {
    for (const f of ['claude-agent-acp-0.23.1.ndjson', 'claude-code-acp-0.16.2.ndjson', 'sdk-1.9.0-example-agent.ndjson']) {
      const { outputs } = decodeAll(fixture(f));
      assert.deepEqual(of(outputs, 'note'), [], f);
      assert.deepEqual(stopReasons(outputs), ['end_turn'], f);
    }
  });

  it('a refused initialize then a v1 retry: the accepted answer decides', () => {
    const d = new ReplayDecoder(2);
    d.decode(msg(1, 'send', { id: 0, method: 'initialize', params: { protocolVersion: 2 } }));
    assert.deepEqual(d.decode(msg(2, 'receive', { id: 0, error: { code: -32022, message: 'unsupported', data: { supported: [1] } } })), []);
    d.decode(msg(3, 'send', { id: 1, method: 'initialize', params: { protocolVersion: 1 } }));
    const out = d.decode(msg(4, 'receive', { id: 1, result: { protocolVersion: 1, agentCapabilities: {} } }));
    assert.deepEqual(
      out.map((o) => o.kind),
      ['connected'],
    );
    assert.equal(d.version, 1);
  });

  it("without a recorded initialize: decodes as the header's version and says so once", () => {
    const d = new ReplayDecoder(2);
    const update = (line: number) =>
      msg(line, 'receive', {
        method: 'session/update',
        params: { sessionId: 's', update: { sessionUpdate: 'agent_message', messageId: 'm1', content: [{ type: 'text', text: 'hi' }] } },
      });
    const out = [...d.decode(update(1)), ...d.decode(update(2))];
    assert.equal(d.version, 2);
    assert.equal(of(out, 'note').length, 1);
    assert.match(of(out, 'note')[0].text, /decoding as ACP v2/);
    assert.equal(events(out).length, 2);
  });

  it('a malformed update is kept as unknown and noted; a malformed permission request is noted; the replay goes on', () => {
    const d = new ReplayDecoder(1);
    const outs = [
      ...d.decode(msg(1, 'receive', { method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'plan', entries: 'not a list' } } })),
      ...d.decode(msg(2, 'receive', { id: 7, method: 'session/request_permission', params: { nonsense: true } })),
      ...d.decode(
        msg(3, 'receive', {
          method: 'session/update',
          params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ok' } } },
        }),
      ),
    ];
    assert.deepEqual(
      of(outs, 'note').map((n) => n.line),
      [1, 1, 2],
    );
    assert.equal(events(outs)[0].kind, 'unknown');
    assert.equal(events(outs).at(-1)?.kind, 'message_chunk');
  });

  it('an error answer to our prompt ends the v1 turn with an error, like the live connection', () => {
    const d = new ReplayDecoder(1);
    d.decode(msg(1, 'send', { id: 5, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text: 'go' }] } }));
    const out = d.decode(msg(2, 'receive', { id: 5, error: { code: -32603, message: 'boom' } }));
    const e = events(out)[0];
    assert.ok(e.kind === 'state' && e.state === 'idle' && e.stopReason === 'error');
  });

  it('a line of the interop recordings is one message: readMessage → decode', () => {
    const bytes = fixture('codex-acp-0.16.0.ndjson');
    const index = indexRecording(bytes);
    const d = new ReplayDecoder();
    const perLine = index.messages.map((r) => d.decode(readMessage(bytes, r)).length);
    assert.equal(perLine.length, 23);
    assert.equal(perLine[0], 0); // our initialize request: nothing to show
  });
});
