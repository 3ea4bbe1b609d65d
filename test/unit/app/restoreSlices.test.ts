// Restoring a large history never holds the host in one go: 51 stored sessions of 20,000 records
// in all (one of them 10,000 long) are replayed a slice at a time, the host's event loop turning
// between slices, and no slice applies more than MAX_SLICE_RECORDS records however fast they go.
// The structure is asserted (records applied per turn of the loop, counted by a setImmediate probe),
// not a wall-clock figure, which on a loaded machine is the machine's; bench/restore-stall.mjs
// prints the longest stall measured.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/app/history/historyStore';
import { MAX_SLICE_RECORDS } from '../../../src/app/history/logSlices';
import { SessionHistory } from '../../../src/app/history/sessionHistory';
import type { SessionEvent } from '../../../src/protocol/domain';
import { PlanStore } from '../../../src/state/planStore';
import { sessionKey, SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';

const SESSIONS = 51;
const ITEMS = 20_000;
const LONG = 10_000;

/** A light record, one conversation item (a short message of its own): many of them fit in a time slice. */
const event = (sessionId: string, i: number): SessionEvent => ({
  sessionId,
  kind: 'message_chunk',
  role: i % 2 ? 'agent' : 'user',
  messageId: `m-${i}`,
  content: { type: 'text', text: `w${i}` },
});

function world(dir: string, replayed?: () => void) {
  const history = new HistoryStore(dir, { maxSessions: 100, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: () => undefined });
  const store = new SessionStore();
  const transcript = new Transcript();
  const h = new SessionHistory({
    history,
    store,
    plans: new PlanStore(),
    transcript,
    agentName: () => 'Stored agent',
    ignored: () => false,
    setReplayTime: () => undefined,
    ...(replayed ? { replayed } : {}),
  });
  return { history, store, transcript, h };
}

describe('restoring a large history in slices', function () {
  this.timeout(120_000);
  let dir: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-restore-slices-'));
    const w = world(dir);
    const per = Math.ceil((ITEMS - LONG) / (SESSIONS - 1));
    for (let s = 0, written = 0; s < SESSIONS; s++) {
      const agentId = `agent-${s % 3}`;
      const sessionId = `stored-${s}`;
      w.store.addStoredSession(agentId, sessionId, { title: `Stored session ${s}` });
      const n = s === 0 ? LONG : Math.min(per, ITEMS - LONG - written);
      for (let i = 0; i < n; i++) w.h.record(agentId, sessionId, { t: i + 1, e: event(sessionId, i) });
      if (s > 0) written += n;
      await w.history.flush();
    }
    w.h.dispose();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(`applies at most ${MAX_SLICE_RECORDS} records per turn of the event loop, yielding between slices`, async () => {
    let applied = 0;
    let inTurn = 0;
    let mostInTurn = 0;
    let turns = 0;
    let on = true;
    // One probe callback per turn of the loop (check phase): what was applied since the last one ran in one turn.
    const probe = (): void => {
      mostInTurn = Math.max(mostInTurn, inTurn);
      if (inTurn > 0) turns++;
      inTurn = 0;
      if (on) setImmediate(probe);
    };
    const w = world(dir, () => {
      applied++;
      inTurn++;
    });
    setImmediate(probe);
    assert.equal(w.h.restore(), SESSIONS);
    assert.equal(applied, 0, 'nothing is replayed before restore() returns');
    await w.h.whenRestored();
    on = false;
    probe();
    assert.equal(applied, ITEMS, 'every stored record was replayed');
    assert.ok(mostInTurn <= MAX_SLICE_RECORDS, `${mostInTurn} records applied in one turn of the loop`);
    assert.ok(turns >= ITEMS / MAX_SLICE_RECORDS, `${turns} turns for ${ITEMS} records`);
    assert.equal(w.store.session('agent-0', 'stored-0')?.title, 'Stored session 0');
    assert.equal(w.transcript.session(sessionKey('agent-0', 'stored-0'))?.size, LONG);
    w.h.dispose();
  });
});
