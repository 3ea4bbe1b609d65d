// Section 2 — UI coalescing. 10,000 plan updates spread over one second go into PlanStore, whose
// change events feed a FrameCoalescer (src/ui/coalesce.ts) with its real timer-based scheduler,
// keyed by plan as the Plans tree keys its nodes. The flush reads each changed plan back, as a
// tree refresh would. Measures: flushes, the smallest gap between two flushes (at most one per
// 16 ms frame), and the time from the last update until a flush has shown the final state.
//
//   node coalescing.js [count] [durationMs]
import type { PlanEntry, SessionEvent } from '../../src/protocol/domain';
import { PlanStore } from '../../src/state/planStore';
import { FrameCoalescer } from '../../src/ui/coalesce';
import { report } from './common';

const [countArg, durationArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const COUNT = Number(countArg ?? 10_000);
const DURATION_MS = Number(durationArg ?? 1000);
const FRAME_MS = 16;
const AGENT = 'bench-agent';

// Plan updates as agents send them: 8 plans of 10–50 entries, each update moving one entry on
// (seeded, so every run applies the same updates). Built up front: only the store and the
// coalescer are timed.
function planUpdates(count: number, seed: number): SessionEvent[] {
  let a = seed >>> 0;
  const rnd = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const plans = Array.from({ length: 8 }, (_, p) => {
    const n = 10 + Math.floor(rnd() * 41);
    return Array.from({ length: n }, (_, i): PlanEntry => ({
      content: `Plan ${p} step ${i}: edit the module and run its tests`,
      priority: 'medium',
      status: 'pending',
    }));
  });
  const out: SessionEvent[] = [];
  for (let i = 0; i < count; i++) {
    const p = Math.floor(rnd() * plans.length);
    const entries = plans[p];
    const k = Math.floor(rnd() * entries.length);
    entries[k] = { ...entries[k], status: entries[k].status === 'pending' ? 'in_progress' : entries[k].status === 'in_progress' ? 'completed' : 'pending' };
    out.push({ sessionId: 'bench-session', kind: 'plan_update', plan: { type: 'items', planId: `plan-${p}`, entries: entries.map((e) => ({ ...e })) } });
  }
  return out;
}
const events = planUpdates(COUNT, 7);

const store = new PlanStore();
const flushes: { at: number; keys: number; versions: Map<string, number> }[] = [];
let flushWorkMs = 0;
const coalescer = new FrameCoalescer<string>((keys) => {
  const t = performance.now();
  const versions = new Map<string, number>();
  for (const key of keys) {
    const [sessionId, planId] = key.split('\u0000');
    const rec = store.get({ agentId: AGENT, sessionId, planId });
    if (rec) {
      versions.set(key, rec.version);
      void rec.summary.header; // what the tree row shows
    }
  }
  flushes.push({ at: t, keys: keys.size, versions });
  flushWorkMs += performance.now() - t;
}, FRAME_MS);
let storeEvents = 0;
store.onDidChange((c) => {
  if (c.kind === 'added' || c.kind === 'updated') {
    storeEvents++;
    coalescer.add(`${c.sessionId}\u0000${c.planId}`);
  }
});

async function main(): Promise<void> {
  let applied = 0;
  let applyMs = 0;
  let lastUpdateAt = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const due = Math.min(COUNT, Math.ceil(((performance.now() - start) / DURATION_MS) * COUNT));
      const t = performance.now();
      while (applied < due) store.apply(AGENT, events[applied++]);
      applyMs += performance.now() - t;
      if (applied < COUNT) setTimeout(tick, 1);
      else {
        lastUpdateAt = performance.now();
        resolve();
      }
    };
    setTimeout(tick, 1);
  });
  await coalescer.whenIdle();
  const idleAt = performance.now();

  // The final state: the version of every plan after the last update.
  const final = new Map<string, number>();
  for (const p of store.plans(AGENT, events[0].sessionId)) final.set(`${p.sessionId}\u0000${p.planId}`, p.version);
  // The first flush after which every plan's last-flushed version is final.
  const shown = new Map<string, number>();
  let finalShownAt: number | undefined;
  for (const f of flushes) {
    for (const [k, v] of f.versions) shown.set(k, v);
    if (f.at >= lastUpdateAt && finalShownAt === undefined && [...final].every(([k, v]) => shown.get(k) === v)) finalShownAt = f.at;
  }
  const gaps = flushes.slice(1).map((f, i) => f.at - flushes[i].at);
  const minGap = gaps.length ? Math.min(...gaps) : null;
  const tooClose = gaps.filter((g) => g < FRAME_MS).length;
  // Timestamps are taken in the flush callback, a few µs after the coalescer's own clock read; a
  // GC pause in between can shift one by a fraction of a millisecond.
  const tooCloseBeyondTolerance = gaps.filter((g) => g < FRAME_MS - 0.5).length;
  // Flushes per 16 ms frame on a fixed grid from the first flush (a stricter reading than the gap).
  const perFrame = new Map<number, number>();
  for (const f of flushes) {
    const frame = Math.floor((f.at - flushes[0].at) / FRAME_MS);
    perFrame.set(frame, (perFrame.get(frame) ?? 0) + 1);
  }
  report({
    section: 'coalescing',
    updates: applied,
    storeChanges: storeEvents,
    spreadMs: lastUpdateAt - start,
    flushes: flushes.length,
    minGapMs: minGap,
    flushesCloserThanFrame: tooClose,
    flushesCloserThanFrameMinusHalfMs: tooCloseBeyondTolerance,
    maxFlushesInOneFrame: Math.max(0, ...perFrame.values()),
    finalStateLatencyMs: finalShownAt === undefined ? null : finalShownAt - lastUpdateAt,
    idleAfterLastUpdateMs: idleAt - lastUpdateAt,
    storeApplyUsPerUpdate: (applyMs * 1000) / applied,
    flushWorkMsTotal: flushWorkMs,
    ok: finalShownAt !== undefined,
  });
  coalescer.dispose();
  store.dispose();
}

void main();
