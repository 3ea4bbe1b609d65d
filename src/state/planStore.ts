// Every plan of every session, keyed agent → session → planId. Events are applied synchronously,
// in arrival order; each real change fires onDidChange naming the plan. What is kept:
//   - `items` plans are replaced wholesale by each update, `markdown`, `file` and unknown types
//     are kept with their whole payload, up to `maxPlanBytes` (default 1 MiB): a larger plan keeps
//     its head, as its type cuts it (src/state/planTypes/), and the revision says what was left out;
//   - every real change is a new version and a new revision (time, content, summary and derived
//     data computed once); a plan keeps at most `maxRevisions` revisions and `maxHistoryBytes` of
//     them (oldest dropped first, the current one always kept, `droppedRevisions` counts them);
//     an identical re-send changes nothing;
//   - `plan_removed` moves the plan to the session's archive (it keeps its revisions); a session
//     keeps at most `maxArchived` archived plans and `maxArchiveBytes` of their history (oldest
//     removal dropped first, counted in `droppedArchived`);
//   - a session keeps at most `maxLive` live plans: a new one past it archives the least recently
//     updated (said once per agent through the budget);
//   - with an `AgentBudget`, every plan's history bytes are charged to its agent; over the budget
//     the agent's oldest archived plans are dropped first, then the history of its least recently
//     updated plans is cut to their current revision, and last (after the conversation) its least
//     recently updated live plans are archived. The newest live plan is always kept.
import { Disposable } from '../common/lifecycle';
import type { Event } from '../protocol/api';
import type { PlanContent, SessionEvent } from '../protocol/domain';
import type { AgentBudget } from './agentBudget';
import { Emitter } from './emitter';
import { storedPlanBytes } from './planBytes';
import { cloneReusing } from './planClone';
import { PlanOrder, registerPlanReclaimers } from './planOrder';
import { limitPlan, summarizeView, viewPlan } from './planTypes';
import type { FileState, MutablePlan, PlanChange, PlanLimits, PlanRecord, PlanRevision, PlanSnapshot, PlanRef, SessionPlans } from './planRecord';
import { DEFAULT_MAX_REVISIONS, sanitizeCap, sanitizeLimits, toSnapshot } from './planRecord';
import { StoredRevision } from './planRevisions';
import { Recency } from './recency';

export { cloneReusing } from './planClone';
export { DEFAULT_MAX_REVISIONS, DEFAULT_PLAN_LIMITS } from './planRecord';

export type { FileState, PlanChange, PlanLimits, PlanRecord, PlanRef, PlanRevision, PlanSnapshot } from './planRecord';

export interface PlanStoreOptions {
  maxRevisions?: number;
  limits?: Partial<PlanLimits>;
  now?: () => number;
  /** The memory budget every agent's plans are charged to. */
  budget?: AgentBudget;
}

export class PlanStore extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<PlanChange>());
  readonly onDidChange: Event<PlanChange> = this._onDidChange.event;

  private readonly byAgent = new Map<string, Map<string, SessionPlans>>();
  /** Each agent's plans, oldest first (for its budget and the live cap). */
  private readonly order = new Map<string, PlanOrder<MutablePlan>>();
  private readonly budget: AgentBudget | undefined;
  private readonly now: () => number;
  private _maxRevisions: number;
  private _limits: PlanLimits;
  private seq = 0;
  private nextArchiveId = 1;

  constructor(options: PlanStoreOptions = {}) {
    super();
    this.now = options.now ?? Date.now;
    this._maxRevisions = sanitizeCap(options.maxRevisions, DEFAULT_MAX_REVISIONS);
    this._limits = sanitizeLimits(options.limits);
    const budget = (this.budget = options.budget);
    if (budget) {
      registerPlanReclaimers(budget, {
        order: (agentId) => this.order.get(agentId),
        archive: (agentId, sessionId) => this.sessionPlans(agentId, sessionId, false),
        dropRevisions: (p, drop, bytes) => this.dropRevisions(p, drop, bytes),
        charge: (p, delta) => this.charge(p, delta),
        remove: (p) => this.remove(p.agentId, p.sessionId, p.planId),
      });
    }
  }

  get maxRevisions(): number {
    return this._maxRevisions;
  }
  get limits(): PlanLimits {
    return this._limits;
  }

  /** Changes the cap; plans over it drop their oldest revisions now (no change events). */
  setMaxRevisions(n: number): void {
    this._maxRevisions = sanitizeCap(n, DEFAULT_MAX_REVISIONS);
    this.forEachPlan((p) => this.charge(p, -this.trim(p)));
  }

  /** Changes the byte caps (for new content; kept history and archives are trimmed now). */
  setLimits(limits: Partial<PlanLimits>): void {
    this._limits = sanitizeLimits({ ...this._limits, ...limits });
    this.forEachPlan((p) => this.charge(p, -this.trim(p)));
    for (const [agentId, sessions] of this.byAgent) for (const sp of sessions.values()) this.trimArchive(agentId, sp);
  }

  // ------------------------------------------------------------------ events

  /** Applies one session event of `agentId`; only `plan_update` and `plan_removed` matter here. */
  apply(agentId: string, e: SessionEvent): void {
    if (e.kind === 'plan_update') this.update(agentId, e.sessionId, e.plan);
    else if (e.kind === 'plan_removed') this.remove(agentId, e.sessionId, e.planId);
  }

  update(agentId: string, sessionId: string, incoming: PlanContent): void {
    const sp = this.sessionPlans(agentId, sessionId, true);
    const prev = sp.live.get(incoming.planId);
    const time = this.now();
    let truncated: string | undefined;
    // A private copy sharing the unchanged parts of the current revision; an identical re-send
    // (same JSON, whatever the key order) gives back the current revision and changes nothing.
    // Measured after the copy: a reused entry's size is known already, so an update costs what
    // it changed, not the whole plan.
    let content = cloneReusing(incoming, prev?.plan) as PlanContent;
    if (prev && content === prev.plan) return;
    const last = prev && { plan: prev.plan, parts: prev.parts };
    let measured = storedPlanBytes(content, this._limits.maxPlanBytes, last);
    if (measured.bytes > this._limits.maxPlanBytes) {
      const cut = limitPlan(incoming, this._limits.maxPlanBytes);
      if (cut) {
        truncated = cut.dropped;
        content = cloneReusing(cut.plan, prev?.plan) as PlanContent;
        if (prev && content === prev.plan) return;
        measured = storedPlanBytes(content, Infinity, last);
      }
    }
    const bytes = measured.bytes;
    if (!prev) {
      const view = viewPlan(content);
      const summary = summarizeView(1, view);
      const p: MutablePlan = {
        agentId,
        sessionId,
        planId: incoming.planId,
        plan: content,
        parts: measured.parts,
        version: 1,
        summary,
        view,
        revisions: [new StoredRevision(1, time, content, summary, bytes, truncated)],
        droppedRevisions: 0,
        historyBytes: bytes,
        createdAt: time,
        updatedAt: time,
        seq: ++this.seq,
      };
      if (sp.live.size >= this._limits.maxLive) this.archiveOverCap(sp);
      sp.live.set(incoming.planId, p);
      sp.recent.touch(p);
      this.orderOf(agentId).touch(p);
      this.charge(p, bytes);
      this._onDidChange.fire({ kind: 'added', agentId, sessionId, planId: incoming.planId, version: 1 });
      return;
    }
    const fileChanged = prev.plan.type !== 'file' || content.type !== 'file' || prev.plan.uri !== content.uri;
    prev.plan = content;
    prev.parts = measured.parts;
    prev.version++;
    prev.updatedAt = time;
    prev.seq = ++this.seq;
    if (fileChanged) delete prev.file;
    this.recompute(prev);
    // A file plan's record summary counts its loaded text; the revision's is of the plan alone.
    const summary = prev.file ? summarizeView(prev.version, viewPlan(content)) : prev.summary;
    const added = new StoredRevision(prev.version, time, content, summary, bytes, truncated);
    prev.revisions.at(-1)?.supersede(added);
    prev.revisions.push(added);
    prev.historyBytes += bytes;
    const freed = this.trim(prev);
    sp.recent.touch(prev);
    this.orderOf(agentId).touch(prev);
    this.charge(prev, bytes - freed);
    this._onDidChange.fire({ kind: 'updated', agentId, sessionId, planId: incoming.planId, version: prev.version });
  }

  /** `plan_removed`: the live plan moves to the archive. Unknown planIds are ignored. */
  remove(agentId: string, sessionId: string, planId: string): void {
    const sp = this.sessionPlans(agentId, sessionId, false);
    const p = sp?.live.get(planId);
    if (!sp || !p) return;
    sp.live.delete(planId);
    sp.recent.delete(p);
    const order = this.orderOf(agentId);
    order.unlive(p);
    const archiveId = this.nextArchiveId++;
    const archived: MutablePlan = { ...p, archived: { archiveId, removedAt: this.now() }, seq: ++this.seq };
    sp.archived.push(archived);
    order.archived.add(archived);
    this.trimArchive(agentId, sp);
    this._onDidChange.fire({ kind: 'removed', agentId, sessionId, planId, archiveId });
  }

  /**
   * Records what the UI read from a live file plan's file (it does not change the version or add
   * a revision: the agent did not send anything). Ignored when the plan is no longer that file.
   */
  setFileContent(ref: PlanRef, state: { text: string } | { error: string; offerOpen?: boolean }, uri?: string): void {
    const p = this.sessionPlans(ref.agentId, ref.sessionId, false)?.live.get(ref.planId);
    if (!p || p.plan.type !== 'file' || ref.archiveId !== undefined) return;
    if (uri !== undefined && p.plan.uri !== uri) return;
    const loadedAt = this.now();
    const next: FileState =
      'text' in state ? { text: state.text, loadedAt } : { error: state.error, ...(state.offerOpen ? { offerOpen: true } : {}), loadedAt };
    if (p.file && p.file.text === next.text && p.file.error === next.error && p.file.offerOpen === next.offerOpen) return;
    p.file = next;
    // No new `seq` either: the order of agent updates (what the status bar follows) is unchanged.
    this.recompute(p);
    this._onDidChange.fire({ kind: 'updated', agentId: ref.agentId, sessionId: ref.sessionId, planId: ref.planId, version: p.version });
  }

  /** Drops every plan (live and archived) of a session. */
  clearSession(agentId: string, sessionId: string): void {
    const sp = this.byAgent.get(agentId)?.get(sessionId);
    if (!sp || !this.byAgent.get(agentId)!.delete(sessionId)) return;
    this.release(sp, this.order.get(agentId));
    this._onDidChange.fire({ kind: 'cleared', agentId, sessionId });
  }

  /** Drops every plan of an agent. */
  clearAgent(agentId: string): void {
    const sessions = this.byAgent.get(agentId);
    if (!sessions) return;
    this.byAgent.delete(agentId);
    this.order.delete(agentId);
    for (const sp of sessions.values()) this.release(sp, undefined);
    this._onDidChange.fire({ kind: 'cleared', agentId });
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

  /** How many archived plans of a session were dropped because of the caps. */
  droppedArchived(agentId: string, sessionId: string): number {
    return this.sessionPlans(agentId, sessionId, false)?.droppedArchived ?? 0;
  }

  /** Every live plan. */
  allPlans(): PlanRecord[] {
    const out: PlanRecord[] = [];
    for (const sessions of this.byAgent.values()) for (const sp of sessions.values()) out.push(...sp.live.values());
    return out;
  }

  /** Agents that hold plans (live or archived). */
  agentIds(): string[] {
    return [...this.byAgent.keys()];
  }
  /** Sessions of an agent that hold plans (live or archived). */
  sessionIds(agentId: string): string[] {
    return [...(this.byAgent.get(agentId)?.keys() ?? [])];
  }

  revision(ref: PlanRef, version: number): PlanRevision | undefined {
    return this.get(ref)?.revisions.find((r) => r.version === version);
  }

  /** Plain JSON-able copies of the live plans (optionally of one agent / session). */
  snapshot(filter: { agentId?: string; sessionId?: string } = {}): PlanSnapshot[] {
    return this.collect(filter, (sp) => [...sp.live.values()]);
  }

  /** A plain JSON-able copy of one plan (live, or archived with `archiveId`). */
  snapshotOf(ref: PlanRef): PlanSnapshot | undefined {
    const p = this.get(ref);
    return p && toSnapshot(p);
  }

  /** Plain JSON-able copies of the archived plans. */
  archivedSnapshot(filter: { agentId?: string; sessionId?: string } = {}): PlanSnapshot[] {
    return this.collect(filter, (sp) => sp.archived);
  }

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

  private forEachPlan(f: (p: MutablePlan) => void): void {
    for (const sessions of this.byAgent.values()) {
      for (const sp of sessions.values()) for (const p of [...sp.live.values(), ...sp.archived]) f(p);
    }
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
    if (!sp && create) sessions.set(sessionId, (sp = { live: new Map(), recent: new Recency(), archived: [], droppedArchived: 0 }));
    return sp;
  }

  /** The view and summary of the current content (parses a Markdown plan or a file's text once). */
  private recompute(p: MutablePlan): void {
    p.view = viewPlan(p.plan, p.file);
    p.summary = summarizeView(p.version, p.view, p.file);
  }

  /** Drops the oldest revisions over the count and byte caps (the current one always stays); returns the bytes freed. */
  private trim(p: MutablePlan): number {
    let drop = Math.max(0, p.revisions.length - this._maxRevisions);
    let bytes = p.historyBytes;
    for (let i = 0; i < drop; i++) bytes -= p.revisions[i]!.bytes;
    while (drop < p.revisions.length - 1 && bytes > this._limits.maxHistoryBytes) bytes -= p.revisions[drop++]!.bytes;
    return this.dropRevisions(p, drop, bytes);
  }

  private dropRevisions(p: MutablePlan, drop: number, bytes: number): number {
    if (drop === 0) return 0;
    const freed = p.historyBytes - bytes;
    // One at a time is the common case at the cap: shift() moves the array's start, splice copies the rest (~15× slower at 200).
    if (drop === 1) p.revisions.shift();
    else p.revisions.splice(0, drop);
    p.droppedRevisions += drop;
    p.historyBytes = bytes;
    return freed;
  }

  /** Drops the oldest archived plans of a session over the count and byte caps. */
  private trimArchive(agentId: string, sp: SessionPlans): void {
    let bytes = 0;
    for (const p of sp.archived) bytes += p.historyBytes;
    let drop = Math.max(0, sp.archived.length - this._limits.maxArchived);
    for (let i = 0; i < drop; i++) bytes -= sp.archived[i]!.historyBytes;
    while (drop < sp.archived.length && bytes > this._limits.maxArchiveBytes) bytes -= sp.archived[drop++]!.historyBytes;
    if (drop === 0) return;
    const order = this.order.get(agentId);
    for (let i = 0; i < drop; i++) {
      const p = sp.archived[i]!;
      order?.archived.delete(p);
      this.charge(p, -p.historyBytes);
    }
    sp.archived = sp.archived.slice(drop);
    sp.droppedArchived += drop;
  }

  // ------------------------------------------------------------------ the agent's budget and the live cap

  private orderOf(agentId: string): PlanOrder<MutablePlan> {
    let o = this.order.get(agentId);
    if (!o) this.order.set(agentId, (o = new PlanOrder()));
    return o;
  }

  private charge(p: MutablePlan, delta: number): void {
    this.budget?.charge(p.agentId, delta, p.sessionId);
  }

  /** A session's plans were dropped: released from the budget (and the agent's order). */
  private release(sp: SessionPlans, order: PlanOrder<MutablePlan> | undefined): void {
    for (const p of [...sp.live.values(), ...sp.archived]) {
      order?.unlive(p);
      order?.archived.delete(p);
      this.charge(p, -p.historyBytes);
    }
  }

  /** A new plan past `maxLive`: the session's least recently updated live plan is archived. */
  private archiveOverCap(sp: SessionPlans): void {
    const oldest = sp.recent.oldest();
    if (!oldest) return;
    const text = `has more than ${this._limits.maxLive} live plans in one session; the least recently updated ones are archived.`;
    this.budget?.report(oldest.agentId, 'live plans', text, oldest.sessionId);
    this.remove(oldest.agentId, oldest.sessionId, oldest.planId);
  }
}
