// Which plan a plan command acts on: the tree element it was invoked on, a plain PlanRef (tests,
// other commands), or, from the palette, the user's pick (no question when there is one plan).
import * as vscode from 'vscode';
import type { PlanRecord, PlanRef, PlanStore } from '../state/planStore';
import { truncate } from '../state/planSummary';
import type { SessionStore } from '../state/sessionStore';
import { isPlanTreeNode } from './tree/nodes';

export interface PickScope {
  agentId?: string;
  sessionId?: string;
  archivedOnly?: boolean;
}

export function isPlanRef(x: unknown): x is PlanRef {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  return (
    typeof r.agentId === 'string' &&
    typeof r.sessionId === 'string' &&
    typeof r.planId === 'string' &&
    (r.archiveId === undefined || typeof r.archiveId === 'number')
  );
}

/** The plan meant by a command argument; asks the user when the argument does not name one. */
export async function resolvePlan(arg: unknown, registry: SessionStore, plans: PlanStore, title: string): Promise<PlanRecord | undefined> {
  if (isPlanTreeNode(arg)) {
    switch (arg.kind) {
      case 'plan':
      case 'step':
      case 'field':
      case 'info':
      case 'intent':
        return plans.get(arg.ref);
      case 'session':
        return pickPlan(registry, plans, title, { agentId: arg.agentId, sessionId: arg.sessionId });
      case 'archive':
        return pickPlan(registry, plans, title, { agentId: arg.agentId, sessionId: arg.sessionId, archivedOnly: true });
      case 'agent':
        return pickPlan(registry, plans, title, { agentId: arg.agentId });
      case 'work':
        return arg.planId === undefined
          ? pickPlan(registry, plans, title, { agentId: arg.agentId, sessionId: arg.sessionId })
          : plans.get({ agentId: arg.agentId, sessionId: arg.sessionId, planId: arg.planId });
    }
  }
  if (isPlanRef(arg)) return plans.get(arg);
  return pickPlan(registry, plans, title, {});
}

/** Plans in scope, the active session's first; archived ones after the live ones. */
export function candidates(registry: SessionStore, plans: PlanStore, scope: PickScope): PlanRecord[] {
  const active = registry.activeSession;
  const out: PlanRecord[] = [];
  const agents = scope.agentId !== undefined ? [scope.agentId] : plans.agentIds();
  for (const a of agents) {
    const sessions = scope.sessionId !== undefined ? [scope.sessionId] : plans.sessionIds(a);
    for (const s of sessions) {
      if (!scope.archivedOnly) out.push(...plans.plans(a, s));
      out.push(...plans.archived(a, s).reverse());
    }
  }
  const isActive = (p: PlanRecord) => active?.agentId === p.agentId && active.sessionId === p.sessionId;
  const rank = (p: PlanRecord) => (isActive(p) ? 0 : 2) + (p.archived ? 1 : 0);
  return out
    .map((p, i) => ({ p, i }))
    .sort((x, y) => rank(x.p) - rank(y.p) || x.i - y.i)
    .map((x) => x.p);
}

export async function pickPlan(registry: SessionStore, plans: PlanStore, title: string, scope: PickScope): Promise<PlanRecord | undefined> {
  const list = candidates(registry, plans, scope);
  if (list.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There is no plan yet. Plans appear when an agent shares one.'));
    return undefined;
  }
  if (list.length === 1) return list[0];
  const picked = await vscode.window.showQuickPick(
    list.map((p) => ({
      label: truncate(p.planId, 80),
      description: p.summary.header + (p.archived ? ` · ${vscode.l10n.t('archived')}` : ''),
      detail: `${registry.agent(p.agentId)?.name ?? p.agentId} · ${truncate(registry.session(p.agentId, p.sessionId)?.title ?? p.sessionId, 60)}`,
      plan: p,
    })),
    { title, placeHolder: vscode.l10n.t('Choose a plan'), matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.plan;
}

export function refOf(p: PlanRecord): PlanRef {
  return p.archived
    ? { agentId: p.agentId, sessionId: p.sessionId, planId: p.planId, archiveId: p.archived.archiveId }
    : { agentId: p.agentId, sessionId: p.sessionId, planId: p.planId };
}
