// Archived sessions in the Plans tree: under an agent, the sessions the user archived fold below one
// "Archived" row (after its other rows); they keep their ids, rows and menus there, so they stay
// searchable and resumable. The facts (which are archived, what the agent offers for a session's
// menu) come from the session management feature (src/app/sessionManagement), shown through this
// slot while it is filled; with the slot empty the tree is as before.
import * as vscode from 'vscode';
import type { ArchivedSessionsNode, NodeIndex, PlanTreeNode, SessionNode } from './nodes';

export interface SessionArchiveSource {
  isArchived(agentId: string, sessionId: string): boolean;
  /** Facets for a session row's contextValue (`fork`, `archive`, `unarchive`, `rename`): what its menu offers. */
  facets(agentId: string, sessionId: string): readonly string[];
  /** An agent's rows changed (a session archived or unarchived, or what the agent offers). */
  readonly onDidChange: (listener: (agentId: string) => void) => { dispose(): void };
}

export class ArchivedSlot {
  private source: SessionArchiveSource | undefined;

  constructor(
    private readonly nodes: NodeIndex,
    private readonly refresh: (agentId: string) => void,
  ) {}

  /** Folds archived sessions and adds the menus' facets until the result is disposed. */
  show(source: SessionArchiveSource): vscode.Disposable {
    this.source = source;
    const sub = source.onDidChange((agentId) => this.refresh(agentId));
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.source === source) this.source = undefined;
    });
  }

  /** The agent's top-level sessions that are not archived. */
  visible(agentId: string, sessionIds: readonly string[]): string[] {
    return sessionIds.filter((s) => !this.source?.isArchived(agentId, s));
  }

  /** The "Archived" row, when the agent has archived sessions. */
  fold(agentId: string, sessionIds: readonly string[]): ArchivedSessionsNode[] {
    return sessionIds.some((s) => this.source?.isArchived(agentId, s)) ? [this.nodes.archivedSessions(agentId)] : [];
  }

  children(node: ArchivedSessionsNode, sessionIds: readonly string[]): SessionNode[] {
    return sessionIds.filter((s) => this.source?.isArchived(node.agentId, s)).map((s) => this.nodes.session(node.agentId, s));
  }

  parentOfSession(agentId: string, sessionId: string): ArchivedSessionsNode | undefined {
    return this.source?.isArchived(agentId, sessionId) ? this.nodes.archivedSessions(agentId) : undefined;
  }

  item(node: ArchivedSessionsNode, sessionIds: readonly string[]): vscode.TreeItem {
    const count = this.children(node, sessionIds).length;
    const t = new vscode.TreeItem(vscode.l10n.t('Archived'), vscode.TreeItemCollapsibleState.Collapsed);
    t.id = node.id;
    t.description = count === 1 ? vscode.l10n.t('1 session') : vscode.l10n.t('{0} sessions', count);
    t.tooltip = vscode.l10n.t('Archived sessions: resume one to work in it again, or unarchive it.');
    t.iconPath = new vscode.ThemeIcon('archive');
    t.contextValue = 'archivedSessions';
    return t;
  }

  /** A session row: what its menu offers, and "archived" where it is. */
  decorate(t: vscode.TreeItem, node: PlanTreeNode & { agentId: string; sessionId: string }): void {
    const src = this.source;
    if (!src) return;
    const facets = src.facets(node.agentId, node.sessionId);
    if (facets.length) t.contextValue = [t.contextValue ?? 'session', ...facets].join(':');
    if (src.isArchived(node.agentId, node.sessionId)) t.description = [t.description, vscode.l10n.t('archived')].filter(Boolean).join(' · ');
  }
}
