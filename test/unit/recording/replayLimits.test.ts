// A replayed recording is data: it lives under its own pseudo agent (`recording:<file>`), never
// reaches a live session of the same id, and creates at most 100 sessions however many it names.
// Through the real format reader, decoder, player and replay sink, into the real stores.
import assert from 'node:assert/strict';
import { indexRecording, REPLAY_AGENT_PREFIX } from '../../../src/recording/format';
import * as sinks from '../../../src/recording/replaySink';
import type { SessionEvent } from '../../../src/protocol/domain';
import { PlanStore } from '../../../src/state/planStore';
import { sessionKey, SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';
import { ManualScheduler } from './support';
import { german } from '../l10n/german';

const LIVE = 'agent:claude';

function recording(lines: unknown[]): Buffer {
  const head = [
    { recording: { format: 'acp-plans-recording', agent: 'Claude', agentId: LIVE, protocolVersion: 1 } },
    { dir: 'send', msg: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } } },
    { dir: 'receive', msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: {} } } },
  ];
  return Buffer.from([...head, ...lines].map((l) => JSON.stringify(l)).join('\n'));
}
const update = (sessionId: string, update: Record<string, unknown>) => ({
  dir: 'receive',
  msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } },
});
const chunk = (sessionId: string, text: string) => update(sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

function play(bytes: Buffer) {
  const store = new SessionStore();
  const plans = new PlanStore();
  const transcript = new Transcript();
  store.setAgent({ id: LIVE, name: 'Claude', status: 'running' });
  store.attachSession(LIVE, 'live', { title: 'Mine' });
  const apply = (agentId: string, e: SessionEvent) => {
    store.applyEvent(agentId, e);
    plans.apply(agentId, e);
    transcript.apply(e, sessionKey(agentId, e.sessionId));
  };
  const agentId = `${REPLAY_AGENT_PREFIX}attack.jsonl`;
  const notes: string[] = [];
  const sink = new sinks.ReplaySink(
    agentId,
    { store, transcript, apply },
    { connected: () => undefined, session: () => undefined, note: (_l, t) => notes.push(t) },
  );
  const sched = new ManualScheduler();
  const player = sinks.replayPipeline(bytes, indexRecording(bytes), sink, 'instant', sched.schedule);
  player.start();
  sched.drain(1_000_000);
  assert.equal(player.state.done, true);
  return { store, plans, transcript, agentId, sink, notes };
}

/** CPU time (user + system) `f` takes, in ms. */
function cpuMsOf(f: () => void): number {
  const before = process.cpuUsage();
  f();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

describe('replayed recordings are data, not authority', () => {
  it('a recording naming a live session replays into a copy of its own, never the live one', () => {
    const r = play(
      recording([
        update('live', { sessionUpdate: 'plan', entries: [{ content: 'Run the installer', status: 'pending', priority: 'high' }] }),
        chunk('live', 'injected'),
      ]),
    );
    assert.equal(r.store.session(LIVE, 'live')?.title, 'Mine');
    assert.equal(r.plans.sessionIds(LIVE).length, 0, 'no plan in the live session');
    assert.ok(r.store.session(r.agentId, 'live'), 'the replay has its own copy');
  });

  it('a recording naming 200,001 sessions replays at most 100 of them and says so, at the cost of reading the file', function () {
    this.timeout(60_000); // today's code must fail on the assertions, not on mocha's clock
    const lines: unknown[] = [];
    for (let i = 0; i < 200_001; i++) lines.push(chunk(`s${i}`, 'x'));
    const bytes = recording(lines);
    lines.length = 0;
    // The floor, measured in this process on this machine's load: reading every line of the file once.
    const floorMs = cpuMsOf(() =>
      bytes
        .toString('utf8')
        .split('\n')
        .forEach((l) => JSON.parse(l)),
    );
    const heap = process.memoryUsage().heapUsed;
    let r!: ReturnType<typeof play>;
    const cpuMs = cpuMsOf(() => (r = play(bytes)));
    const sessions = r.store.sessions(r.agentId).length;
    assert.ok(sessions <= 100, `${sessions} replayed sessions`);
    assert.ok(r.transcript.sessionIds().length <= 100, `${r.transcript.sessionIds().length} transcripts`);
    assert.equal(sinks.MAX_REPLAYED_SESSIONS, 100);
    assert.equal(r.sink.summary(), 'The file names 200,001 sessions; only the first 100 were replayed.');
    assert.equal(r.sink.summary(german), 'Die Datei nennt 200,001 Sitzungen; nur die ersten 100 wurden wiedergegeben.');
    // A ratio to the floor, not a time: it holds on a busy machine (both run under the same load),
    // and work per skipped session beyond reading its line (a store, a transcript) would pass it.
    assert.ok(cpuMs < 8 * floorMs + 300, `replayed in ${Math.round(cpuMs)} ms of CPU; reading the file takes ${Math.round(floorMs)} ms`);
    const grown = (process.memoryUsage().heapUsed - heap) / 1048576;
    assert.ok(grown < 200, `heap grew ${grown.toFixed(0)} MiB`);
  });
});
