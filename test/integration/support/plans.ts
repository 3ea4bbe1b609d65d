// Helpers of the plans tests (plans.test.ts, plansCommands.test.ts, plansWired.test.ts): the agent
// and session ids, plan entry/content/update builders, a tree item read as a Row, and the Fixture:
// the test's own SessionStore, PlanStore and PlansTreeProvider (one agent "demo" with session
// "sess-1", active), fed SessionEvents directly and read through getChildren/getTreeItem like
// VS Code does.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PlanContent, PlanEntry, SessionEvent } from '../../../src/protocol/domain';
import { PlanStore } from '../../../src/state/planStore';
import { SessionStore } from '../../../src/state/sessionStore';
import type { PlanTreeNode } from '../../../src/ui/tree/nodes';
import { PlansTreeProvider } from '../../../src/ui/tree/plansTreeProvider';

export const A = 'demo';
export const S = 'sess-1';
export const e = (content: string, status: string, priority = 'medium'): PlanEntry => ({ content, status, priority });
export const items = (planId: string, ...entries: PlanEntry[]): PlanContent => ({ type: 'items', planId, entries });
export const upd = (plan: PlanContent, sessionId = S): SessionEvent => ({ sessionId, kind: 'plan_update', plan });

export interface Row {
  id?: string;
  label: string;
  description?: string;
  icon?: string;
  color?: string;
  contextValue?: string;
  tooltip?: string;
  collapsible?: vscode.TreeItemCollapsibleState;
}

export function row(t: vscode.TreeItem): Row {
  const icon = t.iconPath instanceof vscode.ThemeIcon ? t.iconPath : undefined;
  return {
    ...(t.id !== undefined ? { id: t.id } : {}),
    label: typeof t.label === 'string' ? t.label : (t.label?.label ?? ''),
    ...(typeof t.description === 'string' ? { description: t.description } : {}),
    ...(icon ? { icon: icon.id } : {}),
    ...(icon?.color ? { color: icon.color.id } : {}),
    ...(t.contextValue !== undefined ? { contextValue: t.contextValue } : {}),
    ...(typeof t.tooltip === 'string' ? { tooltip: t.tooltip } : {}),
    ...(t.collapsibleState !== undefined ? { collapsible: t.collapsibleState } : {}),
  };
}

export class Fixture implements vscode.Disposable {
  readonly registry = new SessionStore();
  readonly plans = new PlanStore();
  readonly tree = new PlansTreeProvider(this.registry, this.plans);
  private readonly owned: vscode.Disposable[] = [this.tree, this.registry, this.plans];

  constructor() {
    this.registry.setAgent({ id: A, name: 'Demo Agent', protocolVersion: 2, status: 'running' });
    this.registry.attachSession(A, S, { title: 'Fix the build' });
    this.registry.setActiveSession({ agentId: A, sessionId: S });
  }

  own<T extends vscode.Disposable>(d: T): T {
    this.owned.push(d);
    return d;
  }
  apply(ev: SessionEvent): void {
    this.registry.applyEvent(A, ev);
    this.plans.apply(A, ev);
  }
  children(n?: PlanTreeNode): PlanTreeNode[] {
    return this.tree.getChildren(n);
  }
  rows(n?: PlanTreeNode): Row[] {
    return this.children(n).map((c) => row(this.tree.getTreeItem(c)));
  }
  session(): PlanTreeNode {
    return this.children(this.children()[0])[0] ?? assert.fail('no session node');
  }
  plan(planId: string): PlanTreeNode {
    const n = this.children(this.session()).find((c) => c.kind === 'plan' && c.ref.planId === planId);
    return n ?? assert.fail(`no plan node ${planId}`);
  }
  dispose(): void {
    for (const d of this.owned.splice(0).reverse()) d.dispose();
  }
}
