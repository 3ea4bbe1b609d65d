// A context compaction in the session history: recorded as it came, and shown again by a replay
// (one row, its summary in order, its status and counts), whether or not an update announced it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/app/history/historyStore';
import { SessionHistory } from '../../../src/app/history/sessionHistory';
import type { SessionEvent } from '../../../src/protocol/domain';
import { PlanStore } from '../../../src/state/planStore';
import { sessionKey, SessionStore } from '../../../src/state/sessionStore';
import { compactionItemId, messageText, Transcript, type CompactionItem } from '../../../src/state/transcript';

const A = 'demo';
const S = 'long';

function world(dir: string) {
  const history = new HistoryStore(dir, { maxSessions: 10, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: () => undefined });
  const store = new SessionStore();
  const transcript = new Transcript();
  const h = new SessionHistory({
    history,
    store,
    plans: new PlanStore(),
    transcript,
    agentName: () => 'Demo',
    ignored: () => false,
    setReplayTime: () => undefined,
  });
  store.onDidChange((c) => {
    if (c.scope === 'session' && c.kind !== 'removed') h.describe(c);
  });
  return { history, store, transcript, h };
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const events: SessionEvent[] = [
  { sessionId: S, kind: 'state', state: 'running' },
  { sessionId: S, kind: 'compaction', compactionId: 'c1', status: 'in_progress' },
  { sessionId: S, kind: 'compaction_chunk', compactionId: 'c1', content: text('Earlier, the user ') },
  { sessionId: S, kind: 'compaction_chunk', compactionId: 'c1', content: text('asked for tests.') },
  { sessionId: S, kind: 'compaction', compactionId: 'c1', status: 'completed', tokens: { before: 150000, after: 9000 } },
  { sessionId: S, kind: 'compaction_chunk', compactionId: 'c2', content: text('no update before me') },
  { sessionId: S, kind: 'state', state: 'idle', stopReason: 'end_turn' },
];

describe('session history: context compactions', () => {
  it('records compaction updates and chunks, and a replay shows the same rows', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-compaction-'));
    const before = world(dir);
    before.store.addStoredSession(A, S, { title: 'Long session' });
    let t = 1;
    for (const e of events) {
      before.store.applyEvent(A, e);
      before.h.record(A, S, { t: t++, e });
    }
    await before.history.flush();

    const after = world(dir);
    after.h.restore();
    await after.h.whenRestored();
    const session = after.transcript.session(sessionKey(A, S))!;
    assert.ok(session, 'the replayed session has a transcript');
    const rows = session.slice(0);
    assert.deepEqual(
      rows.map((i) => i.kind),
      ['compaction', 'compaction', 'turn_end'],
    );
    const summary = (c: CompactionItem) => messageText({ kind: 'message', itemId: '', role: 'agent', messageId: '', parts: c.parts, rev: 0, local: false });
    const c1 = session.item(compactionItemId('c1')) as CompactionItem;
    assert.equal(c1.status, 'completed');
    assert.deepEqual(c1.tokens, { before: 150000, after: 9000 });
    assert.equal(summary(c1), 'Earlier, the user asked for tests.');
    const c2 = session.item(compactionItemId('c2')) as CompactionItem;
    assert.equal(c2.status, 'in_progress');
    assert.equal(summary(c2), 'no update before me');
  });

  // Mutation: compaction chunks left out of the history's chunk cap (chunkOf in records.ts) → the log grows by 40 MB.
  it('stores a compaction summary only up to what the transcript keeps (a hostile agent cannot grow the log without end)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-compaction-'));
    const w = world(dir);
    w.store.addStoredSession(A, S, { title: 'Flood' });
    const piece = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 640; i++) w.h.record(A, S, { t: i + 1, e: { sessionId: S, kind: 'compaction_chunk', compactionId: 'flood', content: text(piece) } });
    await w.history.flush();
    let bytes = 0;
    const walk = (d: string): void => {
      for (const f of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, f.name);
        if (f.isDirectory()) walk(p);
        else bytes += fs.statSync(p).size;
      }
    };
    walk(dir);
    assert.ok(bytes < 2 * 1024 * 1024, `the history holds ${(bytes / 1024 / 1024).toFixed(1)} MB of a 40 MB summary`);
  });
});
