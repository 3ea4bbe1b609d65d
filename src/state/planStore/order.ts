// Which plans go first, for the plan store's caps and its agents' memory budgets (store.ts keeps
// one PlanOrder): a session's live plans in recency order (a new plan past the live cap archives
// the oldest), its archive (oldest removal first, cut to its caps), and per agent recency lists of
// its plans, so finding the oldest and moving a plan to the newest end are O(1) and a cut walks
// only what it cuts. Every byte a plan's history holds is charged to its agent here; past the
// budget, the reclaimers drop the agent's oldest archived plans, then cut the history of its
// least recently updated plans to their current revision, and last (after the conversation)
// archive its least recently updated live plans. vscode-free.
import { ReclaimStage, type AgentBudget } from '../agentBudget';
import { Recency } from '../recency';
import type { PlanLimits } from './records';
import { dropRevisions, type MutablePlan } from './revisions';

/** The plan store's plans of one session. */
export interface SessionPlans {
  readonly live: Map<string, MutablePlan>;
  /** The live plans, least recently updated first. */
  readonly recent: Recency<MutablePlan>;
  archived: MutablePlan[];
  /** Archived plans dropped because of the caps. */
  droppedArchived: number;
}

export function newSessionPlans(): SessionPlans {
  return { live: new Map(), recent: new Recency(), archived: [], droppedArchived: 0 };
}

/** What the order asks of the store: a session's plans, and archiving a live plan (with its change event). */
export interface PlanStoreAccess {
  session(agentId: string, sessionId: string): SessionPlans | undefined;
  remove(p: MutablePlan): void;
}

/** One agent's plans, oldest first. */
class AgentOrder {
  /** Live plans, least recently updated first. */
  readonly live = new Recency<MutablePlan>();
  /** Live plans with more than one revision kept, least recently updated first. */
  readonly history = new Recency<MutablePlan>();
  /** Archived plans, oldest removal first. */
  readonly archived = new Set<MutablePlan>();
}

export class PlanOrder {
  private readonly agents = new Map<string, AgentOrder>();

  constructor(
    private readonly budget: AgentBudget | undefined,
    private readonly store: PlanStoreAccess,
  ) {
    if (!budget) return;
    budget.addReclaimer(ReclaimStage.ArchivedPlans, (agentId, bytes) => this.dropOldestArchived(agentId, bytes));
    budget.addReclaimer(ReclaimStage.PlanHistory, (agentId, bytes) => this.cutOldestHistory(agentId, bytes));
    budget.addReclaimer(ReclaimStage.LivePlans, (agentId, bytes) => this.archiveOldestLive(agentId, bytes));
  }

  /** `p` (live in `sp`) was added or updated, its history `delta` bytes larger: it is now the newest. */
  touch(sp: SessionPlans, p: MutablePlan, delta: number): void {
    sp.recent.touch(p);
    const order = this.agentOrder(p.agentId);
    order.live.touch(p);
    if (p.revisions.length > 1) order.history.touch(p);
    else order.history.delete(p);
    this.charge(p, delta);
  }

  /** The live plan `p` of `sp` (already out of `sp.live`) is archived as `archived`; the archive is cut to its caps. */
  archive(sp: SessionPlans, p: MutablePlan, archived: MutablePlan, limits: PlanLimits): void {
    sp.recent.delete(p);
    const order = this.agentOrder(p.agentId);
    order.live.delete(p);
    order.history.delete(p);
    sp.archived.push(archived);
    order.archived.add(archived);
    this.trimArchive(p.agentId, sp, limits);
  }

  /** Drops the oldest archived plans of a session over the count and byte caps. */
  trimArchive(agentId: string, sp: SessionPlans, limits: PlanLimits): void {
    let bytes = 0;
    for (const p of sp.archived) bytes += p.historyBytes;
    let drop = Math.max(0, sp.archived.length - limits.maxArchived);
    for (let i = 0; i < drop; i++) bytes -= sp.archived[i]!.historyBytes;
    while (drop < sp.archived.length && bytes > limits.maxArchiveBytes) bytes -= sp.archived[drop++]!.historyBytes;
    if (drop === 0) return;
    const order = this.agents.get(agentId);
    for (let i = 0; i < drop; i++) {
      const p = sp.archived[i]!;
      order?.archived.delete(p);
      this.charge(p, -p.historyBytes);
    }
    sp.archived = sp.archived.slice(drop);
    sp.droppedArchived += drop;
  }

  /** A new plan would pass `maxLive` in `sp`: its least recently updated live plan, to archive (said once per agent). */
  overLiveCap(sp: SessionPlans, maxLive: number): MutablePlan | undefined {
    const oldest = sp.recent.oldest();
    if (!oldest) return undefined;
    const text = `has more than ${maxLive} live plans in one session; the least recently updated ones are archived.`;
    this.budget?.report(oldest.agentId, 'live plans', text, oldest.sessionId);
    return oldest;
  }

  /** A session's plans were dropped: out of the agent's order and released from its budget. */
  release(agentId: string, sp: SessionPlans): void {
    const order = this.agents.get(agentId);
    for (const p of [...sp.live.values(), ...sp.archived]) {
      order?.live.delete(p);
      order?.history.delete(p);
      order?.archived.delete(p);
      this.charge(p, -p.historyBytes);
    }
  }

  /** Every plan of an agent is dropped (release each session after). */
  forget(agentId: string): void {
    this.agents.delete(agentId);
  }

  charge(p: MutablePlan, delta: number): void {
    this.budget?.charge(p.agentId, delta, p.sessionId);
  }

  private agentOrder(agentId: string): AgentOrder {
    let o = this.agents.get(agentId);
    if (!o) this.agents.set(agentId, (o = new AgentOrder()));
    return o;
  }

  // ------------------------------------------------------------------ the budget's reclaimers

  /** The agent's oldest archived plans are dropped. */
  private dropOldestArchived(agentId: string, bytes: number): string | undefined {
    const order = this.agents.get(agentId);
    let freed = 0;
    for (const p of order?.archived ?? []) {
      if (freed >= bytes) break;
      order!.archived.delete(p);
      const sp = this.store.session(agentId, p.sessionId);
      const i = sp ? sp.archived.indexOf(p) : -1;
      if (sp && i >= 0) {
        sp.archived.splice(i, 1);
        sp.droppedArchived++;
      }
      freed += p.historyBytes;
      this.charge(p, -p.historyBytes);
    }
    return freed > 0 ? 'archived plans' : undefined;
  }

  /** The history of the agent's least recently updated plans is cut to their current revision. */
  private cutOldestHistory(agentId: string, bytes: number): string | undefined {
    const order = this.agents.get(agentId);
    let freed = 0;
    for (const p of order?.history ?? []) {
      if (freed >= bytes) break;
      order!.history.delete(p);
      const n = dropRevisions(p, p.revisions.length - 1, p.revisions.at(-1)!.bytes);
      freed += n;
      this.charge(p, -n);
    }
    return freed > 0 ? 'plan revisions' : undefined;
  }

  /** Last: the agent's least recently updated live plans are archived and dropped, never its newest. */
  private archiveOldestLive(agentId: string, bytes: number): string | undefined {
    const order = this.agents.get(agentId);
    let freed = 0;
    for (const p of order?.live ?? []) {
      if (freed >= bytes || order!.live.size <= 1) break;
      freed += p.historyBytes;
      this.store.remove(p);
    }
    if (freed > 0) this.dropOldestArchived(agentId, freed);
    return freed > 0 ? 'plans' : undefined;
  }
}
