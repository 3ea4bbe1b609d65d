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
//
// This class keeps the maps and fires the events; each step of an update is one call down to the
// file that owns it: the content (content.ts), its view and summary (src/state/planTypes/), the
// revisions (revisions.ts), the order, caps and budget (order.ts).
import { Disposable } from '../../common/lifecycle';
import type { Event } from '../../protocol/api';
import type { PlanContent, SessionEvent } from '../../protocol/domain';
import type { AgentBudget } from '../agentBudget';
import { Emitter } from '../emitter';
import { describePlan, summarizePlan } from '../planTypes';
import { storedContent, type StoredContent } from './content';
import { newSessionPlans, PlanOrder, type SessionPlans } from './order';
import type { FileState, PlanChange, PlanLimits, PlanRecord, PlanRevision, PlanSnapshot, PlanRef } from './records';
import { DEFAULT_MAX_REVISIONS, sanitizeCap, sanitizeLimits, toSnapshot } from './records';
import { appendRevision, trimRevisions, type HistoryCaps, type MutablePlan } from './revisions';

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
  /** Which plans go first (the live cap, the archive caps, the agents' budgets). */
  private readonly order: PlanOrder;
  private readonly now: () => number;
  private _maxRevisions: number;
  private _limits: PlanLimits;
  /** `_maxRevisions` and `_limits.maxHistoryBytes`, as one plan's history reads them. */
  private history: HistoryCaps;
  private seq = 0;
  private nextArchiveId = 1;

  constructor(options: PlanStoreOptions = {}) {
    super();
    this.now = options.now ?? Date.now;
    this._maxRevisions = sanitizeCap(options.maxRevisions, DEFAULT_MAX_REVISIONS);
    this._limits = sanitizeLimits(options.limits);
    this.history = this.historyCaps();
    this.order = new PlanOrder(options.budget, {
      session: (agentId, sessionId) => this.sessionPlans(agentId, sessionId, false),
      remove: (p) => this.remove(p.agentId, p.sessionId, p.planId),
    });
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
    this.history = this.historyCaps();
    this.forEachPlan((p) => this.order.charge(p, -trimRevisions(p, this.history)));
  }

  /** Changes the byte caps (for new content; kept history and archives are trimmed now). */
  setLimits(limits: Partial<PlanLimits>): void {
    this._limits = sanitizeLimits({ ...this._limits, ...limits });
    this.history = this.historyCaps();
    this.forEachPlan((p) => this.order.charge(p, -trimRevisions(p, this.history)));
    for (const [agentId, sessions] of this.byAgent) for (const sp of sessions.values()) this.order.trimArchive(agentId, sp, this._limits);
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
    const stored = storedContent(incoming, prev, this._limits.maxPlanBytes);
    if (!stored) return;
    if (prev) this.revise(sp, prev, stored, time);
    else this.add(sp, agentId, sessionId, incoming.planId, stored, time);
  }

  private add(sp: SessionPlans, agentId: string, sessionId: string, planId: string, stored: StoredContent, time: number): void {
    const { view, summary } = describePlan(1, stored.plan);
    const p: MutablePlan = {
      agentId,
      sessionId,
      planId,
      plan: stored.plan,
      parts: stored.parts,
      version: 1,
      summary,
      view,
      revisions: [],
      droppedRevisions: 0,
      historyBytes: 0,
      createdAt: time,
      updatedAt: time,
      seq: ++this.seq,
    };
    appendRevision(p, time, summary, stored, this.history);
    if (sp.live.size >= this._limits.maxLive) this.archiveOverCap(sp);
    sp.live.set(planId, p);
    this.order.touch(sp, p, stored.bytes);
    this._onDidChange.fire({ kind: 'added', agentId, sessionId, planId, version: 1 });
  }

  private revise(sp: SessionPlans, p: MutablePlan, stored: StoredContent, time: number): void {
    const fileChanged = p.plan.type !== 'file' || stored.plan.type !== 'file' || p.plan.uri !== stored.plan.uri;
    p.plan = stored.plan;
    p.parts = stored.parts;
    p.version++;
    p.updatedAt = time;
    p.seq = ++this.seq;
    if (fileChanged) delete p.file;
    this.recompute(p);
    // A file plan's record summary counts its loaded text; the revision's is of the plan alone.
    const summary = p.file ? summarizePlan(p.version, p.plan) : p.summary;
    const freed = appendRevision(p, time, summary, stored, this.history);
    this.order.touch(sp, p, stored.bytes - freed);
    this._onDidChange.fire({ kind: 'updated', agentId: p.agentId, sessionId: p.sessionId, planId: p.planId, version: p.version });
  }

  /** `plan_removed`: the live plan moves to the archive. Unknown planIds are ignored. */
  remove(agentId: string, sessionId: string, planId: string): void {
    const sp = this.sessionPlans(agentId, sessionId, false);
    const p = sp?.live.get(planId);
    if (!sp || !p) return;
    sp.live.delete(planId);
    const archiveId = this.nextArchiveId++;
    const archived: MutablePlan = { ...p, archived: { archiveId, removedAt: this.now() }, seq: ++this.seq };
    this.order.archive(sp, p, archived, this._limits);
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
    this.order.release(agentId, sp);
    this._onDidChange.fire({ kind: 'cleared', agentId, sessionId });
  }

  /** Drops every plan of an agent. */
  clearAgent(agentId: string): void {
    const sessions = this.byAgent.get(agentId);
    if (!sessions) return;
    this.byAgent.delete(agentId);
    this.order.forget(agentId);
    for (const sp of sessions.values()) this.order.release(agentId, sp);
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
    if (!sp && create) sessions.set(sessionId, (sp = newSessionPlans()));
    return sp;
  }

  /** The view and summary of the current content (parses a Markdown plan or a file's text once). */
  private recompute(p: MutablePlan): void {
    const { view, summary } = describePlan(p.version, p.plan, p.file);
    p.view = view;
    p.summary = summary;
  }

  private historyCaps(): HistoryCaps {
    return { maxRevisions: this._maxRevisions, maxHistoryBytes: this._limits.maxHistoryBytes };
  }

  /** A new plan past `maxLive`: the session's least recently updated live plan is archived. */
  private archiveOverCap(sp: SessionPlans): void {
    const oldest = this.order.overLiveCap(sp, this._limits.maxLive);
    if (oldest) this.remove(oldest.agentId, oldest.sessionId, oldest.planId);
  }
}
