// Memory of the work index (src/state/attribution): heap per attributed tool call, after a full
// GC (needs --expose-gc). One session, one items plan of 20 entries moving forward; 20,000 tool
// calls (the per-session cap), each created, then completed, with a 40-character title:
//   plain: calls only (the index's own cost: ids in the step, the call record);
//   diffs: each call also carries a diff of one file without texts (a v2 patch-only diff).
// Diff texts are kept on purpose (review, revert) and are bounded separately (MAX_*_TEXT_CHARS).
import type { PlanEntry, SessionEvent } from '../../src/protocol/domain';
import { WorkStore } from '../../src/state/attribution/workStore';
import { heapAfterGc, report } from './common';

const CALLS = 20_000;
const ENTRIES = 20;

function measure(kind: 'plain' | 'diffs'): Record<string, unknown> {
  const before = heapAfterGc() ?? 0;
  const work = new WorkStore();
  const entries: PlanEntry[] = Array.from({ length: ENTRIES }, (_, i) => ({
    content: `Step ${i}: change the module and run its tests`,
    priority: 'medium',
    status: 'pending',
  }));
  let t = 0;
  const apply = (e: SessionEvent): void => work.apply('a', e, t++);
  for (let i = 0; i < CALLS; i++) {
    const step = Math.floor((i * ENTRIES) / CALLS);
    if (entries[step]!.status !== 'in_progress') {
      if (step > 0) entries[step - 1]!.status = 'completed';
      entries[step]!.status = 'in_progress';
      apply({ sessionId: 's', kind: 'plan_update', plan: { type: 'items', planId: 'p', entries: entries.map((e) => ({ ...e })) } });
    }
    const id = `call_${i.toString(36).padStart(6, '0')}`;
    const content = kind === 'diffs' ? [{ type: 'diff' as const, changes: [{ operation: 'modify', path: `/work/src/module${i % 500}.ts` }] }] : undefined;
    apply({
      sessionId: 's',
      kind: 'tool_call',
      toolCallId: id,
      fields: { title: `Edit src/module${i % 500}.ts and run the tests`, kind: 'edit', status: 'in_progress', ...(content ? { content } : {}) },
    });
    apply({ sessionId: 's', kind: 'tool_call', toolCallId: id, fields: { status: 'completed' } });
  }
  const after = heapAfterGc() ?? 0;
  const held = work.stepAt('a', 's', 'p', 0)!.calls.length;
  const out = { kind, calls: CALLS, heapBytes: after - before, bytesPerCall: Math.round((after - before) / CALLS), firstStepCalls: held };
  work.dispose();
  return out;
}

report({ section: 'attribution', results: [measure('plain'), measure('diffs')] });
