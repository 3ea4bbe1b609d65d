// Rows other features add to the Plans tree (the review's "Review: 3 open" below a session, its
// threads below that, a count on a step row), through one hook, so the tree knows no feature by
// name. A source names its rows by path below the session (`a`, `a/b`); the tree interns them.
import type * as vscode from 'vscode';
import type { PlanRef } from '../../state/planStore';
import { sessionNodeId, type ExtraNode, type NodeIndex, type PlanTreeNode } from './nodes';

export interface ExtraRowSource {
  readonly name: string;
  /** The paths of the rows below a session (top level) or below one of its rows. */
  children(agentId: string, sessionId: string, parent?: string): string[];
  item(agentId: string, sessionId: string, path: string): vscode.TreeItem;
  /** Adds to a step row (a count in its description, a facet in its context value). */
  decorateStep?(t: vscode.TreeItem, ref: PlanRef, index: number): void;
  /** Its rows of a session changed. */
  readonly onDidChange: (l: (k: { agentId: string; sessionId: string }) => void) => vscode.Disposable;
}

export class ExtraRows {
  private readonly sources = new Map<string, ExtraRowSource>();

  constructor(
    private readonly nodes: NodeIndex,
    private readonly refresh: (id: string) => void,
  ) {}

  /** Adds a source of rows; disposing removes it. */
  add(source: ExtraRowSource): vscode.Disposable {
    this.sources.set(source.name, source);
    const sub = source.onDidChange((k) => this.refresh(sessionNodeId(k.agentId, k.sessionId)));
    this.refresh('');
    return {
      dispose: () => {
        sub.dispose();
        if (this.sources.get(source.name) === source) this.sources.delete(source.name);
        this.refresh('');
      },
    };
  }

  sessionChildren(agentId: string, sessionId: string): PlanTreeNode[] {
    return [...this.sources.values()].flatMap((s) => s.children(agentId, sessionId).map((p) => this.nodes.extra(agentId, sessionId, s.name, p)));
  }

  children(n: ExtraNode): PlanTreeNode[] {
    return (this.sources.get(n.source)?.children(n.agentId, n.sessionId, n.key) ?? []).map((p) => this.nodes.extra(n.agentId, n.sessionId, n.source, p));
  }

  parent(n: ExtraNode): PlanTreeNode {
    const i = n.key.lastIndexOf('/');
    return i < 0 ? this.nodes.session(n.agentId, n.sessionId) : this.nodes.extra(n.agentId, n.sessionId, n.source, n.key.slice(0, i));
  }

  item(n: ExtraNode): vscode.TreeItem | undefined {
    const t = this.sources.get(n.source)?.item(n.agentId, n.sessionId, n.key);
    if (t) t.id = n.id;
    return t;
  }

  decorateStep(t: vscode.TreeItem, ref: PlanRef, index: number): void {
    for (const s of this.sources.values()) s.decorateStep?.(t, ref, index);
  }
}
