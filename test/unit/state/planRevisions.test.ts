import assert from 'node:assert/strict';
import type { PlanContent, PlanEntry } from '../../../src/protocol/domain';
import { PlanStore, type StoredRevision } from '../../../src/state/planStore';
import { summarizeView, viewPlan } from '../../../src/state/planTypes';

const A = 'agent-1';
const S = 'sess-1';
const REF = { agentId: A, sessionId: S, planId: 'p1' };

function plan(entries: PlanEntry[], meta?: Record<string, unknown>): PlanContent {
  return { type: 'items', planId: 'p1', entries, ...(meta ? { _meta: meta } : {}) };
}

/** A seeded walk of plan updates: statuses move, entries come and go, a rewrite now and then. */
function walk(n: number): PlanContent[] {
  let seed = 7;
  const rnd = (k: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % k;
  };
  const statuses = ['pending', 'in_progress', 'completed'];
  let entries: PlanEntry[] = Array.from({ length: 12 }, (_, i) => ({ content: `step ${i}`, priority: 'medium', status: 'pending' }));
  const out: PlanContent[] = [];
  for (let v = 0; v < n; v++) {
    entries = entries.map((e) => ({ ...e }));
    const r = rnd(10);
    if (r < 6) entries[rnd(entries.length)]!.status = statuses[rnd(3)]!;
    else if (r === 6) entries.push({ content: `added ${v}`, priority: 'low', status: 'pending' });
    else if (r === 7 && entries.length > 2) entries.splice(rnd(entries.length), 1);
    else if (r === 8) entries = entries.map((e, i) => ({ ...e, content: `rewritten ${v} ${i}` }));
    else entries[rnd(entries.length)]!.content = `reworded ${v}`;
    out.push(plan(entries, v % 17 === 0 ? { round: v } : undefined));
  }
  return out;
}

describe('Plan revisions', () => {
  it('every kept revision reads back as the plan it was, with its summary', () => {
    const store = new PlanStore({ maxRevisions: 50 });
    const sent = new Map<number, PlanContent>(); // by version (a re-send makes none)
    for (const p of walk(400)) {
      store.update(A, S, p);
      sent.set(store.get(REF)!.version, p);
    }
    const rec = store.get(REF)!;
    assert.equal(rec.revisions.length, 50);
    for (const r of rec.revisions) {
      const original = sent.get(r.version)!;
      assert.deepEqual(r.plan, original);
      assert.equal(JSON.stringify(r.plan), JSON.stringify(original)); // key order too
      assert.deepEqual(r.summary, summarizeView(r.version, viewPlan(original)));
    }
    assert.equal(rec.revisions.at(-1)!.plan, rec.plan);
  });

  it('an older items revision holds only the entries that changed, not the whole plan', () => {
    const store = new PlanStore();
    const entries = Array.from({ length: 40 }, (_, i) => ({ content: `step ${i}`, priority: 'high', status: 'pending' }));
    store.update(A, S, plan(entries));
    store.update(A, S, plan(entries.map((e, i) => (i === 3 ? { ...e, status: 'completed' } : e))));
    store.update(A, S, plan(entries.map((e, i) => (i === 3 || i === 9 ? { ...e, status: 'completed' } : e))));
    const revs = store.get(REF)!.revisions as readonly StoredRevision[];
    assert.deepEqual(
      revs.map((r) => r.heldEntries),
      [1, 1, 40],
    );
    assert.equal((revs[0]!.plan as { entries: PlanEntry[] }).entries[3]!.status, 'pending');
    assert.equal(revs[0]!.summary.header, 'v1 — 0/40 done, 0 blocked');
  });

  it('keeps a revision whole when its other members differ from the next one', () => {
    const store = new PlanStore();
    const entries = [{ content: 'a', priority: 'high', status: 'pending' }];
    store.update(A, S, plan(entries, { x: 1 }));
    store.update(A, S, plan(entries, { x: 2 }));
    const revs = store.get(REF)!.revisions as readonly StoredRevision[];
    assert.equal(revs[0]!.heldEntries, 1);
    assert.deepEqual(revs[0]!.plan, plan(entries, { x: 1 }));
  });
});
