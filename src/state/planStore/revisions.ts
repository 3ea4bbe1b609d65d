// A plan's revisions, as the plan store keeps them (store.ts): its own record of a plan, the
// revisions' storage, and the history's caps. The newest revision of a plan holds its content and
// summary; when a newer one arrives, an items revision keeps only the entries that differ from
// it (a backward delta: the unchanged entries are the newer revision's own, shared by identity
// since cloneReusing) and its summary is recomputed when read. A plan at its 200-revision cap
// used to hold 200 arrays of all its entries and 200 summaries, each alive for thousands of
// updates: the collector copied them out of the young generation and swept them from the old
// one, and that churn grew the young generation to its largest size. Reading a revision's `plan`
// builds it from the newest one (a fresh object each time, sharing the entries). vscode-free.
import type { PlanContent, PlanEntry } from '../../protocol/domain';
import type { PlanSummary } from '../planSummary';
import { summarizePlan } from '../planTypes';
import type { StoredContent, StoredParts } from './content';
import type { PlanRecord, PlanRevision } from './records';

/** The plan store's own record of a plan. */
export type MutablePlan = { -readonly [K in keyof Omit<PlanRecord, 'revisions'>]: PlanRecord[K] } & {
  revisions: StoredRevision[];
  /** Sizes of the current content's array elements (content.ts), for the next update. */
  parts: StoredParts;
};

/** The caps of one plan's history. */
export interface HistoryCaps {
  readonly maxRevisions: number;
  readonly maxHistoryBytes: number;
}

/**
 * The plan's current content (`plan`, `version`; its size and cut in `stored`) becomes its newest
 * revision, the one before it a delta of it; the oldest revisions over the caps are dropped.
 * Returns the bytes freed.
 */
export function appendRevision(
  p: MutablePlan,
  time: number,
  summary: PlanSummary,
  stored: Pick<StoredContent, 'bytes' | 'truncated'>,
  caps: HistoryCaps,
): number {
  const added = new StoredRevision(p.version, time, p.plan, summary, stored.bytes, stored.truncated);
  p.revisions.at(-1)?.supersede(added);
  p.revisions.push(added);
  p.historyBytes += stored.bytes;
  return trimRevisions(p, caps);
}

/** Drops the oldest revisions over the count and byte caps (the current one always stays); returns the bytes freed. */
export function trimRevisions(p: MutablePlan, caps: HistoryCaps): number {
  let drop = Math.max(0, p.revisions.length - caps.maxRevisions);
  let bytes = p.historyBytes;
  for (let i = 0; i < drop; i++) bytes -= p.revisions[i]!.bytes;
  while (drop < p.revisions.length - 1 && bytes > caps.maxHistoryBytes) bytes -= p.revisions[drop++]!.bytes;
  return dropRevisions(p, drop, bytes);
}

/** Drops the first `drop` revisions, leaving `bytes` of history; returns the bytes freed. */
export function dropRevisions(p: MutablePlan, drop: number, bytes: number): number {
  if (drop === 0) return 0;
  const freed = p.historyBytes - bytes;
  // One at a time is the common case at the cap: shift() moves the array's start, splice copies the rest (~15× slower at 200).
  if (drop === 1) p.revisions.shift();
  else p.revisions.splice(0, drop);
  p.droppedRevisions += drop;
  p.historyBytes = bytes;
  return freed;
}

type ItemsPlan = Extract<PlanContent, { type: 'items' }>;

export class StoredRevision implements PlanRevision {
  declare readonly truncated?: string;
  /** The content, while held whole (the newest revision, and those that are not items deltas). */
  private content: PlanContent | undefined;
  private held: PlanSummary | undefined;
  /** A delta: the revision after this one, this one's entry count, and [index, entry, …] that differ. */
  private next: StoredRevision | undefined;
  private count = 0;
  private changes: (number | PlanEntry)[] = NO_CHANGES;

  constructor(
    readonly version: number,
    readonly time: number,
    plan: PlanContent,
    summary: PlanSummary,
    readonly bytes: number,
    truncated: string | undefined,
  ) {
    this.content = plan;
    this.held = summary;
    if (truncated) (this as { truncated?: string }).truncated = truncated;
  }

  get plan(): PlanContent {
    if (this.content) return this.content;
    // Walk to the nearest revision held whole, then patch the entries back to this one.
    const path: StoredRevision[] = [];
    let r: StoredRevision | undefined;
    for (r = this.next!, path.push(this); !r.content; r = r.next!) path.push(r);
    const base = r.content as ItemsPlan;
    let entries = base.entries;
    for (let i = path.length - 1; i >= 0; i--) entries = path[i]!.patch(entries);
    return { ...base, entries };
  }

  get summary(): PlanSummary {
    return this.held ?? summarizePlan(this.version, this.plan);
  }

  /** Entries this revision holds itself (all of them while whole); for tests and diagnostics. */
  get heldEntries(): number {
    if (this.content) return this.content.type === 'items' ? this.content.entries.length : 0;
    return this.changes.length / 2;
  }

  /**
   * `next` is the revision after this one: an items revision whose other members are `next`'s
   * (same keys, same order, same values) keeps only the entries that differ from it. Called once.
   */
  supersede(next: StoredRevision): void {
    const mine = this.content;
    const theirs = next.content;
    if (!mine || !theirs || mine.type !== 'items' || theirs.type !== 'items' || !sameShell(mine, theirs)) return;
    const changes: (number | PlanEntry)[] = [];
    const a = mine.entries;
    const b = theirs.entries;
    for (let i = 0; i < a.length; i++) if (i >= b.length || a[i] !== b[i]) changes.push(i, a[i]!);
    // Mostly rewritten: the whole array costs less than the changes.
    if (changes.length > a.length) return;
    this.next = next;
    this.count = a.length;
    this.changes = changes.length ? changes : NO_CHANGES;
    this.content = undefined;
    this.held = undefined;
  }

  /** This revision's entries, from those of the revision after it. */
  private patch(after: readonly PlanEntry[]): PlanEntry[] {
    const entries = after.slice(0, this.count);
    for (let i = 0; i < this.changes.length; i += 2) entries[this.changes[i] as number] = this.changes[i + 1] as PlanEntry;
    return entries;
  }
}

const NO_CHANGES: (number | PlanEntry)[] = [];

/** Same members besides `entries`, in the same order, with identical values. */
function sameShell(a: ItemsPlan, b: ItemsPlan): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i]) return false;
    if (k !== 'entries' && (a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return false;
  }
  return true;
}
