// The items plans of a log being read, kept as they were stored: a revision stored as the entries
// it changed (a delta line, records.ts) stays those changes, and its record's `plan` is built when
// it is read (a getter; a fresh array each time, sharing the entries). At most `max` revisions of
// each plan are kept while reading (the cap the history keeps, acp.planHistory.maxRevisions): an
// older one leaves the records and its changes are folded into the plan's anchor, the one array
// a plan holds. So a log costs about what it stores: a 20,000-entry plan changed 5,000 times holds
// one array and the changes, not 5,000 arrays of 20,000 entries. Part of history-reader.js.
// Free of `vscode`.
import type { PlanEntry } from '../../protocol/domain';
import type { HistoryRecord, PlanDelta, PlanUpdate } from './records';

/** One items revision: whole (as its line stored it), or the changes to the revision before it. */
interface Revision {
  /** The revision it changes; undefined: the plan's anchor. */
  prev: Revision | undefined;
  whole: PlanEntry[] | undefined;
  n: number;
  changes: readonly [number, PlanEntry][];
  /** Folded into the anchor (no longer in the records). */
  folded: boolean;
}

/** One plan's items revisions in a log: the number and length of its last line, its anchor. */
class Chain {
  q: number | undefined;
  length = 0;
  last: Revision | undefined;
  anchor: PlanEntry[] = [];
  /** The last revision built, and its entries (the next one in order is built from it). */
  private built: { rev: Revision; entries: PlanEntry[] } | undefined;

  entries(rev: Revision): PlanEntry[] {
    if (rev.whole) return rev.whole;
    if (this.built?.rev === rev) return this.built.entries;
    const path: Revision[] = [];
    let r: Revision | undefined = rev;
    while (r && !r.whole && !r.folded && r !== this.built?.rev) {
      path.push(r);
      r = r.prev;
    }
    const base = !r || r.folded ? this.anchor : r === this.built?.rev ? this.built.entries : r.whole!;
    const entries = base.slice();
    for (let i = path.length - 1; i >= 0; i--) {
      const d = path[i]!;
      entries.length = d.n;
      for (const [at, entry] of d.changes) entries[at] = entry;
    }
    this.built = { rev, entries };
    return entries;
  }

  /** The revision leaves the records: the anchor becomes the entries it stood for. */
  fold(rev: Revision): void {
    if (rev.whole) this.anchor = rev.whole;
    else {
      this.anchor.length = rev.n;
      for (const [at, entry] of rev.changes) this.anchor[at] = entry;
    }
    Object.assign(rev, { folded: true, whole: undefined, changes: [], prev: undefined });
  }
}

/** The planId of a plan update, without building a delta's entries. */
const planIds = new WeakMap<object, string>();
export function planIdOf(e: PlanUpdate): string {
  return planIds.get(e) ?? e.plan.planId;
}

/** The plan updates of a log being read, by session and plan: the kept ones' places in `out`. */
export class PlanChains {
  private readonly chains = new Map<string, Chain>();
  private readonly places = new Map<string, { at: number; rev: Revision | undefined }[]>();
  private readonly max: number;
  /** Revisions left out (over the cap). */
  dropped = 0;

  constructor(
    maxRevisions: number,
    private readonly out: (HistoryRecord | undefined)[],
  ) {
    this.max = Math.max(1, maxRevisions);
  }

  /** A plan update stored whole: kept at the end of `out` (its items, when `q` is given, start the plan's chain again). */
  whole(r: HistoryRecord & { e: PlanUpdate }, q: number | undefined): void {
    const e = r.e;
    const key = `${e.sessionId}\u0000${e.plan.planId}`;
    let rev: Revision | undefined;
    if (e.plan.type === 'items') {
      const c = this.chain(key);
      rev = { prev: undefined, whole: e.plan.entries as PlanEntry[], n: e.plan.entries.length, changes: [], folded: false };
      Object.assign(c, { q, length: rev.n, last: rev });
    }
    this.keep(key, r, rev);
  }

  /** A delta line: kept when it applies to its plan's last line (same number, every entry known), else false. */
  delta(t: number, d: PlanDelta): boolean {
    const key = `${d.e.sessionId}\u0000${d.h.planId}`;
    const c = this.chains.get(key);
    if (!c?.last || c.q !== d.b || !Number.isInteger(d.n) || d.n < 0 || d.n > c.length + d.c.length) return false;
    const added = new Set<number>();
    for (const x of d.c) {
      if (!Array.isArray(x) || !Number.isInteger(x[0]) || x[0] < 0 || x[0] >= d.n || !x[1] || typeof x[1] !== 'object') return false;
      if (x[0] >= c.length) added.add(x[0]);
    }
    if (d.n > c.length && added.size !== d.n - c.length) return false; // an entry nobody wrote
    const rev: Revision = { prev: c.last, whole: undefined, n: d.n, changes: d.c, folded: false };
    Object.assign(c, { q: d.b + 1, length: d.n, last: rev });
    const { e, h } = d;
    const record = {
      t,
      e: {
        ...e,
        kind: 'plan_update',
        get plan() {
          return { ...h, type: 'items', entries: c.entries(rev) };
        },
      } as PlanUpdate,
    };
    planIds.set(record.e, h.planId);
    this.keep(key, record, rev);
    return true;
  }

  private keep(key: string, r: HistoryRecord, rev: Revision | undefined): void {
    let list = this.places.get(key);
    if (!list) this.places.set(key, (list = []));
    list.push({ at: this.out.length, rev });
    this.out.push(r);
    if (list.length <= this.max) return;
    const old = list.shift()!;
    this.out[old.at] = undefined;
    this.dropped++;
    if (old.rev) this.chain(key).fold(old.rev);
  }

  private chain(key: string): Chain {
    let c = this.chains.get(key);
    if (!c) this.chains.set(key, (c = new Chain()));
    return c;
  }
}
