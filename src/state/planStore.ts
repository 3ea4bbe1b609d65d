// Every plan of every session, keyed agent → session → planId. Events are applied synchronously,
// in arrival order; each real change fires onDidChange naming the plan. Nothing is lost:
//   - `items` plans are replaced wholesale by each update, `markdown`, `file` and unknown types
//     are kept with their whole payload;
//   - every real change is a new version and a new revision (time + content; at most
//     `maxRevisions` per plan, oldest dropped); an identical re-send changes nothing;
//   - `plan_removed` moves the plan to the session's archive (it keeps its revisions).
import type { Disposable, Event } from '../protocol/api';
import type { PlanContent, SessionEvent } from '../protocol/domain';
import { Emitter } from './emitter';
import { jsonClone } from './json';
import { parseMarkdownPlan, type MarkdownOutline } from './markdownPlan';
import { summarizePlan, type PlanSummary } from './planSummary';

export const DEFAULT_MAX_REVISIONS = 200;

/** A live plan (`archiveId` absent) or an archived one. */
export interface PlanRef {
  readonly agentId: string;
  readonly sessionId: string;
  readonly planId: string;
  readonly archiveId?: number;
}

export interface PlanRevision {
  readonly version: number;
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly plan: PlanContent;
}

/** What the UI last read from a file plan's file (the store does no I/O). */
export interface FileState {
  readonly text?: string;
  readonly error?: string;
  readonly loadedAt: number;
}

export interface PlanRecord {
  readonly agentId: string;
  readonly sessionId: string;
  readonly planId: string;
  /** The current content (for unknown types, the whole raw payload). */
  readonly plan: PlanContent;
  /** 1 on creation, +1 on every real change. */
  readonly version: number;
  readonly summary: PlanSummary;
  /** Oldest first; the last one is the current content. */
  readonly revisions: readonly PlanRevision[];
  /** Revisions dropped because of the cap. */
  readonly droppedRevisions: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Store-wide order of the last change (breaks `updatedAt` ties). */
  readonly seq: number;
  /** Parsed Markdown (markdown plans, and file plans once their text is loaded). */
  readonly outline?: MarkdownOutline;
  readonly file?: FileState;
  readonly archived?: { readonly archiveId: number; readonly removedAt: number };
}

export type PlanChange =
  | { kind: 'added' | 'updated'; agentId: string; sessionId: string; planId: string; version: number }
  | { kind: 'removed'; agentId: string; sessionId: string; planId: string; archiveId: number }
  /** Everything of a session (or, without sessionId, of an agent) was dropped. */
  | { kind: 'cleared'; agentId: string; sessionId?: string };

export interface PlanSnapshot {
  agentId: string;
  sessionId: string;
  planId: string;
  type: PlanContent['type'];
  rawType?: string;
  version: number;
  summary: PlanSummary;
  revisions: number;
  droppedRevisions: number;
  createdAt: number;
  updatedAt: number;
  plan: PlanContent;
  file?: FileState;
  archived?: { archiveId: number; removedAt: number };
}

export interface PlanStoreOptions {
  maxRevisions?: number;
  now?: () => number;
}

type MutablePlan = { -readonly [K in keyof PlanRecord]: PlanRecord[K] };

type ArchivedPlan = MutablePlan & { revisions: PlanRevision[] };
type LivePlan = ArchivedPlan;

interface SessionPlans {
  readonly live: Map<string, LivePlan>;
  readonly archived: ArchivedPlan[];
}

export class PlanStore implements Disposable {
  private readonly _onDidChange = new Emitter<PlanChange>();
  readonly onDidChange: Event<PlanChange> = this._onDidChange.event;

  private readonly byAgent = new Map<string, Map<string, SessionPlans>>();
  private readonly now: () => number;
  private _maxRevisions: number;
  private seq = 0;
  private nextArchiveId = 1;

  constructor(options: PlanStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this._maxRevisions = sanitizeCap(options.maxRevisions);
  }

  get maxRevisions(): number { return this._maxRevisions; }

  /** Changes the cap; plans over it drop their oldest revisions now (no change events). */
  setMaxRevisions(n: number): void {
    this._maxRevisions = sanitizeCap(n);
    for (const sessions of this.byAgent.values()) {
      for (const sp of sessions.values()) {
        for (const p of [...sp.live.values(), ...sp.archived]) this.trim(p);
      }
    }
  }

  // ------------------------------------------------------------------ events

  /** Applies one session event of `agentId`; only `plan_update` and `plan_removed` matter here. */
  apply(agentId: string, e: SessionEvent): void {
    if (e.kind === 'plan_update') this.update(agentId, e.sessionId, e.plan);
    else if (e.kind === 'plan_removed') this.remove(agentId, e.sessionId, e.planId);
  }

  update(agentId: string, sessionId: string, plan: PlanContent): void {
    const sp = this.sessionPlans(agentId, sessionId, true);
    const prev = sp.live.get(plan.planId);
    const time = this.now();
    // A private copy sharing the unchanged parts of the current revision; an identical re-send
    // (same JSON, whatever the key order) gives back the current revision and changes nothing.
    const content = cloneReusing(plan, prev?.plan) as PlanContent;
    if (prev && content === prev.plan) return;
    if (!prev) {
      const p: LivePlan = {
        agentId, sessionId, planId: plan.planId, plan: content, version: 1,
        ...derive(1, content, undefined), revisions: [{ version: 1, time, plan: content }],
        droppedRevisions: 0, createdAt: time, updatedAt: time, seq: ++this.seq,
      };
      sp.live.set(plan.planId, p);
      this._onDidChange.fire({ kind: 'added', agentId, sessionId, planId: plan.planId, version: 1 });
      return;
    }
    const fileChanged = prev.plan.type !== 'file' || content.type !== 'file' || prev.plan.uri !== content.uri;
    prev.plan = content;
    prev.version++;
    prev.updatedAt = time;
    prev.seq = ++this.seq;
    if (fileChanged) delete prev.file;
    prev.revisions.push({ version: prev.version, time, plan: content });
    this.trim(prev);
    this.recompute(prev);
    this._onDidChange.fire({ kind: 'updated', agentId, sessionId, planId: plan.planId, version: prev.version });
  }

  /** `plan_removed`: the live plan moves to the archive. Unknown planIds are ignored. */
  remove(agentId: string, sessionId: string, planId: string): void {
    const sp = this.sessionPlans(agentId, sessionId, false);
    const p = sp?.live.get(planId);
    if (!sp || !p) return;
    sp.live.delete(planId);
    const archiveId = this.nextArchiveId++;
    sp.archived.push({ ...p, archived: { archiveId, removedAt: this.now() }, seq: ++this.seq });
    this._onDidChange.fire({ kind: 'removed', agentId, sessionId, planId, archiveId });
  }

  /**
   * Records what the UI read from a live file plan's file (it does not change the version or add
   * a revision: the agent did not send anything). Ignored when the plan is no longer that file.
   */
  setFileContent(ref: PlanRef, state: { text: string } | { error: string }, uri?: string): void {
    const p = this.sessionPlans(ref.agentId, ref.sessionId, false)?.live.get(ref.planId);
    if (!p || p.plan.type !== 'file' || ref.archiveId !== undefined) return;
    if (uri !== undefined && p.plan.uri !== uri) return;
    const next: FileState = 'text' in state ? { text: state.text, loadedAt: this.now() } : { error: state.error, loadedAt: this.now() };
    if (p.file && p.file.text === next.text && p.file.error === next.error) return;
    p.file = next;
    // No new `seq` either: the order of agent updates (what the status bar follows) is unchanged.
    this.recompute(p);
    this._onDidChange.fire({ kind: 'updated', agentId: ref.agentId, sessionId: ref.sessionId, planId: ref.planId, version: p.version });
  }

  /** Drops every plan (live and archived) of a session. */
  clearSession(agentId: string, sessionId: string): void {
    if (this.byAgent.get(agentId)?.delete(sessionId)) this._onDidChange.fire({ kind: 'cleared', agentId, sessionId });
  }

  /** Drops every plan of an agent. */
  clearAgent(agentId: string): void {
    if (this.byAgent.delete(agentId)) this._onDidChange.fire({ kind: 'cleared', agentId });
  }

  // ------------------------------------------------------------------ queries

  get(ref: PlanRef): PlanRecord | undefined {
    const sp = this.sessionPlans(ref.agentId, ref.sessionId, false);
    if (!sp) return undefined;
    if (ref.archiveId === undefined) return sp.live.get(ref.planId);
    return sp.archived.find((p) => p.archived?.archiveId === ref.archiveId);
  }

  /** Live plans of a session, in creation order. */
  plans(agentId: string, sessionId: string): PlanRecord[] {
    return [...(this.sessionPlans(agentId, sessionId, false)?.live.values() ?? [])];
  }

  /** Archived (removed) plans of a session, oldest removal first. */
  archived(agentId: string, sessionId: string): PlanRecord[] {
    return [...(this.sessionPlans(agentId, sessionId, false)?.archived ?? [])];
  }

  /** Every live plan. */
  allPlans(): PlanRecord[] {
    const out: PlanRecord[] = [];
    for (const sessions of this.byAgent.values()) for (const sp of sessions.values()) out.push(...sp.live.values());
    return out;
  }

  /** Agents that hold plans (live or archived). */
  agentIds(): string[] { return [...this.byAgent.keys()]; }
  /** Sessions of an agent that hold plans (live or archived). */
  sessionIds(agentId: string): string[] { return [...(this.byAgent.get(agentId)?.keys() ?? [])]; }

  revision(ref: PlanRef, version: number): PlanRevision | undefined {
    return this.get(ref)?.revisions.find((r) => r.version === version);
  }

  /** Plain JSON-able copies of the live plans (optionally of one agent / session). */
  snapshot(filter: { agentId?: string; sessionId?: string } = {}): PlanSnapshot[] {
    return this.collect(filter, (sp) => [...sp.live.values()]);
  }

  /** Plain JSON-able copies of the archived plans. */
  archivedSnapshot(filter: { agentId?: string; sessionId?: string } = {}): PlanSnapshot[] {
    return this.collect(filter, (sp) => sp.archived);
  }

  dispose(): void { this._onDidChange.dispose(); }

  // ------------------------------------------------------------------ internals

  private collect(filter: { agentId?: string; sessionId?: string }, pick: (sp: SessionPlans) => PlanRecord[]): PlanSnapshot[] {
    const out: PlanSnapshot[] = [];
    for (const [agentId, sessions] of this.byAgent) {
      if (filter.agentId !== undefined && filter.agentId !== agentId) continue;
      for (const [sessionId, sp] of sessions) {
        if (filter.sessionId !== undefined && filter.sessionId !== sessionId) continue;
        for (const p of pick(sp)) out.push(toSnapshot(p));
      }
    }
    return out;
  }

  private sessionPlans(agentId: string, sessionId: string, create: true): SessionPlans;
  private sessionPlans(agentId: string, sessionId: string, create: false): SessionPlans | undefined;
  private sessionPlans(agentId: string, sessionId: string, create: boolean): SessionPlans | undefined {
    let sessions = this.byAgent.get(agentId);
    if (!sessions) {
      if (!create) return undefined;
      this.byAgent.set(agentId, (sessions = new Map()));
    }
    let sp = sessions.get(sessionId);
    if (!sp && create) sessions.set(sessionId, (sp = { live: new Map(), archived: [] }));
    return sp;
  }

  private recompute(p: MutablePlan): void {
    const d = derive(p.version, p.plan, p.file);
    if (d.outline) p.outline = d.outline;
    else delete p.outline;
    p.summary = d.summary;
  }

  private trim(p: { revisions: PlanRevision[]; droppedRevisions: number }): void {
    const extra = p.revisions.length - this._maxRevisions;
    if (extra > 0) {
      p.revisions.splice(0, extra);
      p.droppedRevisions += extra;
    }
  }
}

function derive(version: number, plan: PlanContent, file: FileState | undefined): { summary: PlanSummary; outline?: MarkdownOutline } {
  const text = plan.type === 'markdown' ? plan.content : plan.type === 'file' ? file?.text : undefined;
  const outline = text !== undefined ? parseMarkdownPlan(text) : undefined;
  return { summary: summarizePlan(version, plan, file, outline), ...(outline ? { outline } : {}) };
}

function sanitizeCap(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return DEFAULT_MAX_REVISIONS;
  return Math.max(1, Math.floor(n));
}

// Plan updates arrive by the thousand per turn and most of a plan stays the same from one update
// to the next (an entry's status changes), so the store neither serializes plans nor copies what
// did not change: a new revision reuses the previous revision's unchanged parts (store-owned and
// never mutated). Both helpers follow JSON semantics exactly (what JSON.stringify keeps): object
// keys in any order, `undefined` members left out, `undefined`/non-finite numbers read as null.

/**
 * A private copy of `next` as `JSON.parse(JSON.stringify(next))` would make it, except that the
 * parts with the same JSON as the matching part of `prev` (a copy made here earlier) are `prev`'s
 * own; `prev` itself when all of `next` has the same JSON as `prev`.
 */
export function cloneReusing(next: unknown, prev: unknown): unknown {
  if (prev === undefined || typeof next !== 'object' || next === null || typeof prev !== 'object' || prev === null) {
    const copy = cloneValue(next);
    return copy === prev ? prev : copy;
  }
  // Compare first (no allocation): most parts of a re-sent plan are unchanged.
  if (sameJson(next, prev)) return prev;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return cloneValue(next);
    const out = new Array<unknown>(next.length);
    for (let i = 0; i < next.length; i++) {
      const x: unknown = next[i];
      out[i] = x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null
        : i < prev.length ? cloneReusing(x, prev[i]) : cloneValue(x);
    }
    return out;
  }
  if (Array.isArray(prev) || !isPlainObject(next)) return cloneValue(next);
  const src = next as Record<string, unknown>;
  const old = prev as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(src)) {
    const x = src[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    const p = Object.prototype.hasOwnProperty.call(old, k) ? old[k] : undefined;
    setKey(out, k, p === undefined ? cloneValue(x) : cloneReusing(x, p));
  }
  return out;
}

/** Whether `next` has the same JSON as `prev`, a copy made by this module (key order ignored). */
function sameJson(next: unknown, prev: unknown): boolean {
  if (next === prev) return true;
  if (typeof next !== 'object' || next === null) {
    if (typeof next === 'number' && !Number.isFinite(next)) return prev === null;
    if (next === undefined || typeof next === 'function' || typeof next === 'symbol') return prev === null;
    return false;
  }
  if (typeof prev !== 'object' || prev === null) return false;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev) || next.length !== prev.length) return false;
    for (let i = 0; i < next.length; i++) if (!sameJson(next[i], prev[i])) return false;
    return true;
  }
  if (Array.isArray(prev) || !isPlainObject(next)) return false;
  const src = next as Record<string, unknown>;
  const old = prev as Record<string, unknown>;
  let n = 0;
  for (const k in src) {
    if (!Object.prototype.hasOwnProperty.call(src, k)) continue;
    const x = src[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    if (!Object.prototype.hasOwnProperty.call(old, k) || !sameJson(x, old[k])) return false;
    n++;
  }
  for (const k in old) if (Object.prototype.hasOwnProperty.call(old, k)) n--;
  return n === 0;
}

/** The same copy as `JSON.parse(JSON.stringify(v))` for plain JSON data, without the text. */
function cloneValue(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) {
    if (typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    return jsonClone(v); // the rare cases keep JSON's exact behaviour (and errors)
  }
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      out[i] = x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null : cloneValue(x);
    }
    return out;
  }
  if (!isPlainObject(v)) return jsonClone(v);
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(src)) {
    const x = src[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    setKey(out, k, cloneValue(x));
  }
  return out;
}

function isPlainObject(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/** `__proto__` is an ordinary key in JSON: define it, never assign it. */
function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function toSnapshot(p: PlanRecord): PlanSnapshot {
  return jsonClone({
    agentId: p.agentId, sessionId: p.sessionId, planId: p.planId,
    type: p.plan.type, ...(p.plan.type === 'unknown' ? { rawType: p.plan.rawType } : {}),
    version: p.version, summary: p.summary, revisions: p.revisions.length, droppedRevisions: p.droppedRevisions,
    createdAt: p.createdAt, updatedAt: p.updatedAt, plan: p.plan,
    ...(p.file ? { file: p.file } : {}), ...(p.archived ? { archived: p.archived } : {}),
  });
}
