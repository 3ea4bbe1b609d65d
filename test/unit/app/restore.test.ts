// Restoring stored sessions at activation: what their rows show before their logs are replayed,
// and in which order the logs are replayed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/app/history/historyStore';
import { SessionHistory } from '../../../src/app/history/sessionHistory';
import type { SessionEvent } from '../../../src/protocol/domain';
import { PlanStore } from '../../../src/state/planStore';
import { SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';

const A = 'demo';

function world(dir: string) {
  const history = new HistoryStore(dir, { maxSessions: 10, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: () => undefined });
  const store = new SessionStore();
  const plans = new PlanStore();
  const h = new SessionHistory({
    history,
    store,
    plans,
    transcript: new Transcript(),
    agentName: () => 'Demo',
    ignored: () => false,
    setReplayTime: () => undefined,
  });
  // As the extension does: every change of a session describes it again in the index.
  store.onDidChange((c) => {
    if (c.scope === 'session' && c.kind !== 'removed') h.describe(c);
  });
  return { history, store, plans, h };
}

/** A session that lived in an earlier window: its events went through the store and into its log. */
function live(w: ReturnType<typeof world>, sessionId: string, events: SessionEvent[]): void {
  w.store.addStoredSession(A, sessionId, { title: `Session ${sessionId}` });
  let t = 1;
  for (const e of events) {
    w.store.applyEvent(A, e);
    w.plans.apply(A, e);
    w.h.record(A, sessionId, { t: t++, e });
  }
}

const state = (sessionId: string, s: 'running' | 'idle', stopReason?: string): SessionEvent =>
  ({ sessionId, kind: 'state', state: s, ...(stopReason ? { stopReason } : {}) }) as SessionEvent;
const title = (sessionId: string, t: string): SessionEvent => ({ sessionId, kind: 'session_info', title: t }) as SessionEvent;
const plan = (sessionId: string): SessionEvent => ({
  sessionId,
  kind: 'plan_update',
  plan: { type: 'items', planId: 'p', entries: [{ content: 'step', status: 'pending', priority: 'low' }] },
});

const row = (store: SessionStore, sessionId: string) => {
  const s = store.session(A, sessionId)!;
  return { title: s.title, turnState: s.turnState, stopReason: s.stopReason };
};

describe('restoring stored sessions', () => {
  it('shows each stored session, before its log is replayed, as the replay will end it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-restore-'));
    const before = world(dir);
    live(before, 'open', [title('open', 'Renamed by the agent'), state('open', 'running')]); // the window closed mid-turn
    live(before, 'done', [state('done', 'running'), state('done', 'idle', 'max_tokens')]);
    live(before, 'plain', [plan('plain')]);
    await before.history.flush();

    const after = world(dir);
    after.h.restore();
    const shown = ['open', 'done', 'plain'].map((s) => row(after.store, s));
    assert.deepEqual(shown, [
      { title: 'Renamed by the agent', turnState: 'idle', stopReason: 'interrupted' },
      { title: 'Session done', turnState: 'idle', stopReason: 'max_tokens' },
      { title: 'Session plain', turnState: 'idle', stopReason: undefined },
    ]);
    assert.ok(after.h.pending(A, 'plain'), 'not replayed yet');
    await after.h.whenRestored();
    assert.equal(after.h.pending(A, 'plain'), undefined);
    assert.deepEqual(
      ['open', 'done', 'plain'].map((s) => row(after.store, s)),
      shown,
      'the replay ends each row as it was shown',
    );
    assert.ok(after.plans.get({ agentId: A, sessionId: 'plain', planId: 'p' }), 'the replay brought the plan back');

    // And once more: a restored session keeps showing the same after the next reload.
    await after.history.flush();
    const third = world(dir);
    third.h.restore();
    assert.deepEqual(
      ['open', 'done', 'plain'].map((s) => row(third.store, s)),
      shown,
    );
    await third.h.whenRestored();
  });

  it('replays the active session first, then one the user opens, then the others; a title change keeps the index order', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-restore-order-'));
    const before = world(dir);
    for (const s of ['s1', 's2', 's3', 's4']) live(before, s, [plan(s)]);
    before.store.applyEvent(A, title('s1', 'A new title')); // described again: stays first
    before.history.setActive({ agentId: A, sessionId: 's3' });
    await before.history.flush();
    assert.deepEqual(
      before.history.sessions().map((s) => s.sessionId),
      ['s1', 's2', 's3', 's4'],
    );

    const after = world(dir);
    const order: string[] = [];
    after.h.onDidReplay((k) => {
      order.push(k.sessionId);
      // While the views paint the active session, the user opens s4: it goes next.
      if (k.sessionId === 's3') void after.h.wanted(A, 's4');
    });
    after.h.restore();
    assert.deepEqual(
      after.store.sessions(A).map((s) => s.sessionId),
      ['s1', 's2', 's3', 's4'],
    );
    await after.h.whenRestored();
    assert.deepEqual(order, ['s3', 's4', 's1', 's2']);
  });
});
