// The rows of git worktrees in the Plans tree: under an agent, its sessions that work in a worktree
// are grouped under a row per worktree (branch, ahead/behind its base, changed files, or a folder
// deleted outside VS Code); its other sessions stay where they were. The facts come from the
// worktree sessions' owner (src/app/team/worktreeSessions.ts); this only draws them.
import * as vscode from 'vscode';
import type { WorktreeState } from '../../app/team/teamPorts';
import type { NodeIndex, PlanTreeNode, SessionNode, WorktreeNode } from './nodes';

export interface WorktreeSource {
  of(agentId: string, sessionId: string): { readonly path: string; readonly branch: string; readonly baseRef: string } | undefined;
  state(folder: string): WorktreeState | undefined;
  readonly onDidChange: vscode.Event<void>;
}

export class WorktreeRows {
  constructor(
    private readonly src: WorktreeSource,
    private readonly nodes: NodeIndex,
  ) {}

  /** An agent's rows: its sessions outside worktrees, then one row per worktree (in the order of their first session). */
  agentChildren(agentId: string, sessionIds: readonly string[]): PlanTreeNode[] {
    const out: PlanTreeNode[] = [];
    const seen = new Set<string>();
    for (const s of sessionIds) {
      const w = this.src.of(agentId, s);
      if (!w) out.push(this.nodes.session(agentId, s));
      else if (!seen.has(w.path)) {
        seen.add(w.path);
        out.push(this.nodes.worktree(agentId, w.path));
      }
    }
    return out;
  }

  children(node: WorktreeNode, sessionIds: readonly string[]): SessionNode[] {
    return sessionIds.filter((s) => this.src.of(node.agentId, s)?.path === node.path).map((s) => this.nodes.session(node.agentId, s));
  }

  parentOfSession(agentId: string, sessionId: string): WorktreeNode | undefined {
    const w = this.src.of(agentId, sessionId);
    return w && this.nodes.worktree(agentId, w.path);
  }

  item(node: WorktreeNode, sessionIds: readonly string[]): vscode.TreeItem {
    const first = sessionIds.map((s) => this.src.of(node.agentId, s)).find((w) => w?.path === node.path);
    const t = new vscode.TreeItem(first?.branch ?? node.path, vscode.TreeItemCollapsibleState.Expanded);
    t.id = node.id;
    const st = this.src.state(node.path);
    t.description = describe(st, first?.baseRef);
    t.iconPath = new vscode.ThemeIcon(
      st && !st.exists ? 'warning' : 'git-branch',
      st && !st.exists ? new vscode.ThemeColor('list.warningForeground') : undefined,
    );
    t.tooltip =
      st && !st.exists ? vscode.l10n.t('{0} was deleted outside VS Code. Remove Worktree… forgets it (and can delete its branch).', node.path) : node.path;
    t.contextValue = st && !st.exists ? 'worktree:gone' : 'worktree';
    t.resourceUri = vscode.Uri.file(node.path);
    return t;
  }
}

/** "↑2 ↓0 on main · 3 files changed", or what is known so far. */
export function describe(st: WorktreeState | undefined, baseRef: string | undefined): string {
  if (!st) return vscode.l10n.t('worktree');
  if (!st.exists) return vscode.l10n.t('folder deleted');
  const base = baseRef && !/^[0-9a-f]{40}$/.test(baseRef) ? ` ${vscode.l10n.t('on {0}', baseRef)}` : '';
  const files = st.changed === 1 ? vscode.l10n.t('1 file changed') : vscode.l10n.t('{0} files changed', st.changed);
  return `↑${st.ahead} ↓${st.behind}${base} · ${files}`;
}
