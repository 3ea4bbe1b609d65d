// `/longplan`: a long items plan in the odek style (docs: the summary always carries the blocked
// count; past acp.plans.foldDoneStepsAfter steps the oldest done ones fold into "+N done steps").
//   1. plan `long`: 26 steps with ids s1…s26 in `_meta.id`, all pending;
//   2. then s1…s22 done, s23 in progress, s24 `_blocked` with a `_meta.note` saying why, s25 and
//      s26 pending (s25 carries a note too). With the default threshold (20) the 7 oldest done
//      steps fold into one row.
import type { EntryStatus, PlanEntry } from '../model';
import type { Scenario } from './scenario';

export const LONG_PLAN_ID = 'long';
export const LONG_PLAN_STEPS = 26;
export const BLOCKED_NOTE = 'provider rejects nested arrays';

function entries(status: (i: number) => EntryStatus): PlanEntry[] {
  return Array.from({ length: LONG_PLAN_STEPS }, (_, i): PlanEntry => {
    const note = i === 23 ? BLOCKED_NOTE : i === 24 ? 'after the schema fix' : undefined;
    return {
      content: `Step ${i + 1} of the migration`,
      priority: i < 3 ? 'high' : 'medium',
      status: status(i),
      _meta: { id: `s${i + 1}`, ...(note ? { note } : {}) },
    };
  });
}

export const longPlanScenario: Scenario = {
  name: 'longplan',
  description: 'A 26-step plan with step ids and notes, 22 steps done and one blocked',
  async run(turn) {
    turn.emit({ kind: 'plan', plan: { type: 'items', planId: LONG_PLAN_ID, entries: entries(() => 'pending') } });
    await turn.pace();
    turn.emit({
      kind: 'plan',
      plan: {
        type: 'items',
        planId: LONG_PLAN_ID,
        entries: entries((i) => (i < 22 ? 'completed' : i === 22 ? 'in_progress' : i === 23 ? '_blocked' : 'pending')),
      },
    });
    await turn.pace();
    turn.say('longplan: 22 of 26 steps done; s24 is blocked (provider rejects nested arrays).');
  },
};
