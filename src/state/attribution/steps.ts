// One plan's steps as the work index sees them: a stable identity for each entry across the
// plan's revisions (entries matched by content; entries left unmatched by a revision are taken as rewordings of
// the steps it left unmatched, in order; an entry that comes back with a dropped step's text is
// that step again),
// each step's timeline (first start, last finish) and the plan's drift (entries added, dropped or
// reordered by a revision). Pure and vscode-free; time is passed in.
import type { PlanContent, PlanEntry } from '../../protocol/domain';

/** The step of a plan as a whole (markdown, file and custom plans, or work linked to no entry). */
export const WHOLE_PLAN = -1;
/** Caps: steps remembered per plan (dropped ones included), drift records per plan, text kept. */
export const MAX_STEPS_PER_PLAN = 1000;
export const MAX_DRIFT = 200;
const MAX_TEXT = 200;

export type StepStatus = string;

/** What a step did: ids in arrival order, bounded by the store (see WorkStore). */
export interface StepWork {
  readonly calls: string[];
  readonly files: string[];
  readonly messages: string[];
  readonly terminals: string[];
}

export interface Step extends StepWork {
  /** Stable within its plan, for the life of the session. */
  readonly key: number;
  /** The plan it is a step of (none for "Unplanned"). */
  readonly planId?: string;
  /** The current index in the plan, WHOLE_PLAN for the plan as a whole, -2 once dropped. */
  index: number;
  content: string;
  status: StepStatus;
  /** When it first went in progress, and when it last finished (completed, cancelled…). */
  start?: number;
  finish?: number;
  /** The checkpoint of each workspace folder taken as it first owned work time (src/app/checkpoints): Restore Workspace to Before This Step goes back to it. */
  before?: { readonly folder: string; readonly id: string }[];
}

export interface DriftRecord {
  readonly version: number;
  readonly time: number;
  readonly added: readonly string[];
  readonly dropped: readonly string[];
  readonly moved: readonly string[];
}

export const DROPPED = -2;
const FINAL = new Set(['completed', 'cancelled', 'failed']);

function newWork(): StepWork {
  return { calls: [], files: [], messages: [], terminals: [] };
}

function clip(s: string): string {
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s;
}

/** The steps of one plan (by planId) in one session. */
export class PlanTrack {
  readonly whole: Step;
  /** Current entries, by index (items plans only). */
  byIndex: Step[] = [];
  /** Every step ever seen, oldest first (dropped ones stay, so their work stays reviewable). */
  readonly all: Step[] = [];
  readonly drift: DriftRecord[] = [];
  droppedDrift = 0;
  live = true;
  itemsPlan = false;
  version = 0;
  /** The last time the agent sent this plan (picks the plan that takes un-stepped work). */
  updatedAt = 0;
  private nextKey = 0;
  /**
   * The step last dropped with each text (it may have come back since: its index says). Kept while
   * the step is in `all`, so a plan whose length goes up and down reuses its steps instead of
   * making new ones at every revision.
   */
  private readonly lastDropped = new Map<string, Step>();

  constructor(readonly planId: string) {
    this.whole = { key: WHOLE_PLAN, planId, index: WHOLE_PLAN, content: planId, status: 'in_progress', ...newWork() };
  }

  /** The steps in progress now (items plans). */
  active(): Step[] {
    return this.byIndex.filter((s) => s.status === 'in_progress');
  }

  /**
   * Applies a revision. Returns the steps whose row changed (status, content, index).
   * Non-items plans have no entries: their work goes to the plan as a whole.
   */
  update(plan: PlanContent, time: number): Step[] {
    this.version++;
    this.updatedAt = time;
    this.live = true;
    if (plan.type !== 'items') {
      this.itemsPlan = false;
      return [];
    }
    if (this.itemsPlan && this.sameSteps(plan.entries)) return this.statusesOnly(plan.entries, time);
    const first = !this.itemsPlan && this.byIndex.length === 0 && this.all.length === 0;
    this.itemsPlan = true;
    const aligned = this.alignedPrefix(plan.entries);
    const next = aligned ? this.byIndex.slice(0, plan.entries.length) : this.match(plan.entries);
    for (let i = next.length; i < plan.entries.length; i++) next.push(undefined);
    const changed: Step[] = [];
    const added: string[] = [];
    const used = new Set<Step>();
    const result: Step[] = [];
    next.forEach((m, i) => {
      const e = plan.entries[i]!;
      let s = m;
      if (!s) {
        // An entry that comes back with a dropped step's text is that step again (its work and times go on).
        const back = this.lastDropped.get(clip(e.content));
        s = back?.index === DROPPED ? back : undefined;
        if (!s) {
          s = { key: this.nextKey++, planId: this.planId, index: i, content: clip(e.content), status: 'pending', ...newWork() };
          this.all.push(s);
        }
        if (!first) added.push(s.content);
      }
      used.add(s);
      result.push(s);
      if (s.index !== i || s.content !== clip(e.content) || s.status !== e.status) changed.push(s);
      s.index = i;
      s.content = clip(e.content);
      this.setStatus(s, e.status, time);
    });
    const dropped = this.byIndex.filter((s) => !used.has(s));
    for (const s of dropped) {
      s.index = DROPPED;
      changed.push(s);
      this.lastDropped.set(s.content, s);
    }
    const moved = aligned || samePlaces(this.byIndex, next) ? [] : movedSteps(this.byIndex, next);
    this.byIndex = result;
    if (added.length || dropped.length || moved.length) {
      this.drift.push({ version: this.version, time, added, dropped: dropped.map((s) => s.content), moved: moved.map((s) => s.content) });
      if (this.drift.length > MAX_DRIFT) {
        this.drift.shift();
        this.droppedDrift++;
      }
    }
    this.trim();
    return changed;
  }

  /** The revision has the same steps in the same order (the common case: a status changed). */
  private sameSteps(entries: readonly PlanEntry[]): boolean {
    return entries.length === this.byIndex.length && this.alignedPrefix(entries);
  }

  /**
   * The revision's entries and the current steps agree, place by place, as far as both go (steps
   * added or dropped at the end only): `match` would pair them place by place, and nothing moved.
   */
  private alignedPrefix(entries: readonly PlanEntry[]): boolean {
    const n = Math.min(entries.length, this.byIndex.length);
    for (let i = 0; i < n; i++) {
      const text = entries[i]!.content;
      const step = this.byIndex[i]!.content;
      if (text.length > MAX_TEXT ? clip(text) !== step : text !== step) return false;
    }
    return true;
  }

  /** `update` for a revision with the same steps: only statuses can change (no matching, no drift). */
  private statusesOnly(entries: readonly PlanEntry[], time: number): Step[] {
    const changed: Step[] = [];
    for (let i = 0; i < entries.length; i++) {
      const s = this.byIndex[i]!;
      if (s.status === entries[i]!.status) continue;
      this.setStatus(s, entries[i]!.status, time);
      changed.push(s);
    }
    return changed;
  }

  /** The plan was removed: nothing of it is in progress any more. */
  remove(time: number): Step[] {
    this.live = false;
    const was = this.active();
    for (const s of was) if (s.finish === undefined) s.finish = time;
    return was;
  }

  /** The step with this stable key (WHOLE_PLAN: the plan as a whole). */
  step(key: number): Step | undefined {
    return key === WHOLE_PLAN ? this.whole : this.all.find((s) => s.key === key);
  }

  /** Start: the first move out of `pending`; finish: the last move to a final status (cleared if it resumes). */
  private setStatus(s: Step, status: string, time: number): void {
    if (status === s.status) return;
    if (FINAL.has(status)) s.finish = time;
    else {
      if (status !== 'pending' && s.start === undefined) s.start = time;
      delete s.finish;
    }
    s.status = status;
  }

  /** For each new entry, the step it continues (same content first, then same index), or undefined. */
  private match(entries: readonly PlanEntry[]): (Step | undefined)[] {
    const byContent = new Map<string, Step[]>();
    for (const s of this.byIndex) {
      const list = byContent.get(s.content);
      if (list) list.push(s);
      else byContent.set(s.content, [s]);
    }
    const taken = new Set<Step>();
    const out: (Step | undefined)[] = entries.map((e) => {
      const s = byContent.get(clip(e.content))?.shift();
      if (s) taken.add(s);
      return s;
    });
    // Entries reworded: the unmatched entries take the identities of the unmatched steps, in order.
    const left = this.byIndex.filter((s) => !taken.has(s));
    let k = 0;
    out.forEach((s, i) => {
      if (!s && k < left.length) out[i] = left[k++];
    });
    return out;
  }

  /**
   * Keeps at most MAX_STEPS_PER_PLAN steps: the oldest dropped steps go first. Trimmed a quarter
   * past the cap, down to the cap, in one pass (a plan rewritten at every update paid a scan and a
   * splice per update at the cap).
   */
  private trim(): void {
    if (this.all.length <= MAX_STEPS_PER_PLAN + (MAX_STEPS_PER_PLAN >> 2)) return;
    let excess = this.all.length - MAX_STEPS_PER_PLAN;
    const kept: Step[] = [];
    for (const s of this.all) {
      if (excess > 0 && s.index === DROPPED) {
        excess--;
        if (this.lastDropped.get(s.content) === s) this.lastDropped.delete(s.content);
      } else kept.push(s);
    }
    this.all.length = 0;
    this.all.push(...kept);
  }
}

/** The same steps at the same places (entries reworded in place, nothing moved). */
function samePlaces(before: readonly Step[], after: readonly (Step | undefined)[]): boolean {
  if (before.length !== after.length) return false;
  for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) return false;
  return true;
}

/** Steps kept by both revisions whose relative order changed (those outside a longest kept order). */
function movedSteps(before: readonly Step[], after: readonly (Step | undefined)[]): Step[] {
  const rank = new Map<Step, number>();
  before.forEach((s, i) => rank.set(s, i));
  const seq = after.filter((s): s is Step => s !== undefined && rank.has(s));
  // Longest increasing subsequence of old ranks (patience sorting), O(n log n).
  const tails: number[] = [];
  const prev: number[] = new Array<number>(seq.length).fill(-1);
  const tailIdx: number[] = [];
  seq.forEach((s, i) => {
    const r = rank.get(s)!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = r;
    tailIdx[lo] = i;
    prev[i] = lo > 0 ? tailIdx[lo - 1]! : -1;
  });
  const keep = new Set<Step>();
  for (let i = tails.length ? tailIdx[tails.length - 1]! : -1; i >= 0; i = prev[i]!) keep.add(seq[i]!);
  return seq.filter((s) => !keep.has(s));
}
