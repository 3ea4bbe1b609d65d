// Which of an agent's plans are the oldest, for its memory budget (agentBudget.ts): recency lists,
// so finding the oldest and moving a plan to the newest end are O(1) and a cut walks only what it
// cuts. Kept by the plan store (planStore.ts), one per agent, with the reclaimers that
// cut the oldest of them when the agent passes its budget. vscode-free.
import { ReclaimStage, type AgentBudget } from './agentBudget';
import { Recency } from './recency';

export class PlanOrder<P extends { readonly revisions: readonly unknown[] }> {
  /** Live plans, least recently updated first. */
  readonly live = new Recency<P>();
  /** Live plans with more than one revision kept, least recently updated first. */
  readonly history = new Recency<P>();
  /** Archived plans, oldest removal first. */
  readonly archived = new Set<P>();

  /** The plan was added or updated: it is now the newest. */
  touch(p: P): void {
    this.live.touch(p);
    if (p.revisions.length > 1) this.history.touch(p);
    else this.history.delete(p);
  }

  /** The plan is no longer live (archived or dropped). */
  unlive(p: P): void {
    this.live.delete(p);
    this.history.delete(p);
  }
}

/** What the reclaimers may do to the plan store's records (planStore.ts). */
export interface PlanStoreAccess<P extends PlanLike> {
  order(agentId: string): PlanOrder<P> | undefined;
  /** The archive of a session (its `archived` list, oldest removal first, and the drop count). */
  archive(agentId: string, sessionId: string): { archived: P[]; droppedArchived: number } | undefined;
  /** Drops the first `drop` revisions, leaving `bytes` of history; returns the bytes freed. */
  dropRevisions(p: P, drop: number, bytes: number): number;
  charge(p: P, delta: number): void;
  /** Archives a live plan (as `plan_removed` does). */
  remove(p: P): void;
}

interface PlanLike {
  readonly agentId: string;
  readonly sessionId: string;
  readonly revisions: readonly { readonly bytes: number }[];
  readonly historyBytes: number;
}

/** The plan store's part of an agent's budget: archived plans first, then history, then (last of all) live plans. */
export function registerPlanReclaimers<P extends PlanLike>(budget: AgentBudget, store: PlanStoreAccess<P>): void {
  /** The agent's oldest archived plans are dropped. */
  const dropOldestArchived = (agentId: string, bytes: number): string | undefined => {
    const order = store.order(agentId);
    let freed = 0;
    for (const p of order?.archived ?? []) {
      if (freed >= bytes) break;
      order!.archived.delete(p);
      const sp = store.archive(agentId, p.sessionId);
      const i = sp ? sp.archived.indexOf(p) : -1;
      if (sp && i >= 0) {
        sp.archived.splice(i, 1);
        sp.droppedArchived++;
      }
      freed += p.historyBytes;
      store.charge(p, -p.historyBytes);
    }
    return freed > 0 ? 'archived plans' : undefined;
  };
  budget.addReclaimer(ReclaimStage.ArchivedPlans, dropOldestArchived);

  // The history of the agent's least recently updated plans is cut to their current revision.
  budget.addReclaimer(ReclaimStage.PlanHistory, (agentId, bytes) => {
    const order = store.order(agentId);
    let freed = 0;
    for (const p of order?.history ?? []) {
      if (freed >= bytes) break;
      order!.history.delete(p);
      const n = store.dropRevisions(p, p.revisions.length - 1, p.revisions.at(-1)!.bytes);
      freed += n;
      store.charge(p, -n);
    }
    return freed > 0 ? 'plan revisions' : undefined;
  });

  // Last: the agent's least recently updated live plans are archived and dropped, never its newest.
  budget.addReclaimer(ReclaimStage.LivePlans, (agentId, bytes) => {
    const order = store.order(agentId);
    let freed = 0;
    for (const p of order?.live ?? []) {
      if (freed >= bytes || order!.live.size <= 1) break;
      freed += p.historyBytes;
      store.remove(p);
    }
    if (freed > 0) dropOldestArchived(agentId, freed);
    return freed > 0 ? 'plans' : undefined;
  });
}
