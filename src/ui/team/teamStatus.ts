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
    this.item.name = 'ACP Team';
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
    this.item.text = `$(git-branch) Team: ${s.running} running, ${s.done} done`;
    this.item.tooltip = `${s.total} team session(s) in their own worktrees. Click to compare two of them.`;
    this.item.show();
  }
}
