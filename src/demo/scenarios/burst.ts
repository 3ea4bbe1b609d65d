// `/burst <n>`: n plan updates of the item plan `burst` (5 entries), sent back to back without
// pausing. Update k (1-based) has floor((k-1)·5/n) entries completed and the next one in progress;
// the last update has every entry completed. Then the message "burst: sent <n> plan updates".
// n defaults to 50 and is clamped to 1…10000.

import type { PlanEntry } from '../model';
import { type Scenario } from './scenario';

export const BURST_ENTRIES = 5;
export const BURST_DEFAULT = 50;
export const BURST_MAX = 10_000;

export function burstCount(args: string): number {
  const n = Number.parseInt(args, 10);
  if (!Number.isFinite(n)) return BURST_DEFAULT;
  return Math.min(BURST_MAX, Math.max(1, n));
}

export function burstEntries(k: number, n: number): PlanEntry[] {
  const done = k === n ? BURST_ENTRIES : Math.floor(((k - 1) * BURST_ENTRIES) / n);
  return Array.from({ length: BURST_ENTRIES }, (_, j): PlanEntry => ({
    content: `Burst step ${j + 1}`,
    priority: j === 0 ? 'high' : j < 3 ? 'medium' : 'low',
    status: j < done ? 'completed' : j === done ? 'in_progress' : 'pending',
  }));
}

export const burstScenario: Scenario = {
  name: 'burst',
  description: 'Send many plan updates as fast as possible',
  hint: 'number of plan updates (default 50)',
  async run(turn, args) {
    const n = burstCount(args);
    for (let k = 1; k <= n; k++) turn.emit({ kind: 'plan', plan: { type: 'items', planId: 'burst', entries: burstEntries(k, n) } });
    turn.say(`burst: sent ${n} plan updates`);
    await turn.pace();
  },
};
