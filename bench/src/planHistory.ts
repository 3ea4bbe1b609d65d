// Section 5 (plan history at its cap): heap held by one plan of 50 entries updated 1,000 times,
// with the default cap of 200 revisions, after a full GC (needs --expose-gc).
//   typical:  each update changes one entry's status (how agents report progress);
//   rewrite:  each update rewrites every entry's text (nothing can be shared between revisions).
import type { PlanEntry } from '../../src/protocol/domain';
import { PlanStore } from '../../src/state/planStore';
import { heapAfterGc, report } from './common';

const ENTRIES = 50;
const UPDATES = 1000;

function measure(kind: 'typical' | 'rewrite'): Record<string, unknown> {
  const before = heapAfterGc() ?? 0;
  const store = new PlanStore();
  const entries: PlanEntry[] = [];
  for (let i = 0; i < ENTRIES; i++) entries.push({ content: `Step ${i}: change the module and run its tests again`, priority: 'medium', status: 'pending' });
  for (let u = 1; u <= UPDATES; u++) {
    const next = entries.map((e, i) =>
      kind === 'rewrite'
        ? { ...e, content: `Step ${i} (revision ${u}): change the module and run its tests` }
        : i === u % ENTRIES
          ? { ...e, status: e.status === 'pending' ? 'in_progress' : 'pending' }
          : e,
    );
    entries.splice(0, ENTRIES, ...next);
    store.apply('a', { sessionId: 's', kind: 'plan_update', plan: { type: 'items', planId: 'p', entries: next.map((e) => ({ ...e })) } });
  }
  const after = heapAfterGc() ?? 0;
  const rec = store.get({ agentId: 'a', sessionId: 's', planId: 'p' })!;
  const out = {
    kind,
    updates: UPDATES,
    entries: ENTRIES,
    revisionsHeld: rec.revisions.length,
    revisionsDropped: rec.droppedRevisions,
    heapBytes: after - before,
    bytesPerRevision: Math.round((after - before) / rec.revisions.length),
  };
  store.dispose();
  return out;
}

report({ section: 'planHistory', maxRevisions: new PlanStore().maxRevisions, results: [measure('typical'), measure('rewrite')] });
