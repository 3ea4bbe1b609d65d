// Attribution survives a reload: the session history replays its records (events and the client's
// writes) with their stored times into a fresh work index, which attributes the same way.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/app/history/historyStore';
import { SessionHistory } from '../../../src/app/history/sessionHistory';
import type { SessionEvent } from '../../../src/protocol/domain';
import { PLAN_ENTRY_META_KEY, WorkStore } from '../../../src/state/attribution/workStore';
import { PlanStore } from '../../../src/state/planStore';
import { SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';

const A = 'demo';
const S = 's1';
const items = (...statuses: string[]): SessionEvent => ({
  sessionId: S,
  kind: 'plan_update',
  plan: { type: 'items', planId: 'p', entries: statuses.map((status, i) => ({ content: `step ${i}`, status, priority: 'medium' })) },
});
const call = (id: string, meta?: Record<string, unknown>): SessionEvent => ({
  sessionId: S,
  kind: 'tool_call',
  toolCallId: id,
  fields: { title: id, status: 'in_progress', locations: [{ path: '/w/a.ts' }], ...(meta ? { _meta: meta } : {}) },
});

function world(dir: string) {
  const history = new HistoryStore(dir, { maxSessions: 10, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: () => undefined });
  const store = new SessionStore();
  const plans = new PlanStore();
  const transcript = new Transcript();
  const work = new WorkStore();
  const h = new SessionHistory({ history, store, plans, transcript, work, agentName: () => 'Demo', ignored: () => false, setReplayTime: () => undefined });
  return { history, store, plans, work, h };
}

describe('attribution across a reload (session history replay)', () => {
  it('rebuilds the same steps, calls, files, writes and timeline', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-attrib-'));
    const live = world(dir);
    live.store.addStoredSession(A, S, { cwd: '/w' });
    const feed = (e: SessionEvent, t: number): void => {
      live.plans.apply(A, e);
      live.work.apply(A, e, t);
      live.h.record(A, S, { t, e });
    };
    feed(call('before'), 1);
    feed(items('in_progress', 'pending'), 2);
    feed(call('c1'), 3);
    live.work.recordWrite(A, S, '/w/a.ts', 'old', 'new', 4);
    live.h.record(A, S, { t: 4, write: { path: '/w/a.ts', before: 'old', after: 'new' } });
    feed(call('c2', { [PLAN_ENTRY_META_KEY]: { planId: 'p', index: 1 } }), 5);
    feed(items('completed', 'in_progress'), 6);
    feed(items('completed', 'completed'), 9);
    await live.history.flush();

    const again = world(dir);
    again.h.restore();
    await again.h.whenRestored();
    const s0 = again.work.stepAt(A, S, 'p', 0)!;
    const s1 = again.work.stepAt(A, S, 'p', 1)!;
    assert.deepEqual([s0.calls, s0.files, s0.start, s0.finish], [['c1'], ['/w/a.ts'], 2, 6]);
    assert.deepEqual([s1.calls, s1.start, s1.finish], [['c2'], 6, 9]);
    assert.deepEqual(again.work.unplanned(A, S)!.calls, ['before']);
    const [change] = again.work.stepChanges(A, S, s0);
    assert.deepEqual([change!.first.before, change!.last.after, change!.first.written], ['old', 'new', true]);
  });

  it('restores a plan with the revisions it had: updates that changed nothing are not stored', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-revisions-'));
    const live = world(dir);
    live.store.addStoredSession(A, S, { cwd: '/w' });
    const feed = (e: SessionEvent, t: number): void => {
      live.plans.apply(A, e);
      live.h.record(A, S, { t, e });
    };
    feed(items('in_progress', 'pending'), 1);
    feed(items('in_progress', 'pending'), 2); // the same plan again: no revision
    feed(items('completed', 'in_progress'), 3);
    feed(items('completed', 'in_progress'), 4);
    await live.history.flush();
    const stored = await live.h.records({ agentId: A, sessionId: S });
    assert.deepEqual(
      stored!.records.map((r) => r.t),
      [1, 3],
    );

    const again = world(dir);
    again.h.restore();
    await again.h.whenRestored();
    const ref = { agentId: A, sessionId: S, planId: 'p' };
    assert.deepEqual(
      again.plans.get(ref)!.revisions.map((r) => r.plan),
      live.plans.get(ref)!.revisions.map((r) => r.plan),
    );
    assert.equal(again.plans.get(ref)!.revisions.length, 2);
  });
});
