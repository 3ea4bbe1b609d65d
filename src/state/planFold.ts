// Long plans stay readable: past a threshold of rows, the oldest done steps fold into one
// "+N done steps" row (the odek overflow rule: oldest done steps go first, behind an explicit
// marker). Pure: which entries fold, given their statuses.
//
// Rule: with `after` > 0 and more than `after` steps, the first done (`completed`) steps in plan
// order fold, as many as it takes to bring the rows (the fold row included) down to `after`, or
// every done step when there are not enough. Fewer than 2 folded steps fold nothing (one row for one
// step saves nothing). `after` ≤ 0: never fold.

export function foldedSteps(statuses: readonly string[], after: number): number[] {
  if (!(after > 0) || statuses.length <= after) return [];
  const want = statuses.length - after + 1;
  const out: number[] = [];
  for (let i = 0; i < statuses.length && out.length < want; i++) if (statuses[i] === 'completed') out.push(i);
  return out.length >= 2 ? out : [];
}
