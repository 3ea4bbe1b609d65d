// The team's status bar item: "Team: 2 running, 1 done" while sessions started by Run Prompt on
// Several Agents exist; hidden otherwise. Updated on the worktree sessions' events (a turn starting
// or ending in a worktree session), never polled.
import * as vscode from 'vscode';
import { Disposable } from '../../common/lifecycle';
import type { WorktreeSessions } from '../../app/team/worktreeSessions';

export class TeamStatus extends Disposable {
  readonly item = this._register(vscode.window.createStatusBarItem('acp.team.status', vscode.StatusBarAlignment.Left, 99));

  constructor(private readonly sessions: WorktreeSessions) {
    super();
    this.item.name = vscode.l10n.t('ACP Team');
    this.item.command = 'acp.compareSessions';
    this._register(sessions.onDidChange(() => this.update()));
    this.update();
  }

  /** The text as shown (empty while hidden). */
  get text(): string {
    return this.item.text;
  }

  private update(): void {
    const s = this.sessions.teamSummary();
    if (!s.total) {
      this.item.text = '';
      this.item.hide();
      return;
    }
    this.item.text = `$(git-branch) ${vscode.l10n.t('Team: {0} running, {1} done', s.running, s.done)}`;
    this.item.tooltip = vscode.l10n.t('{0} team session(s) in their own worktrees. Click to compare two of them.', s.total);
    this.item.show();
  }
}
