// The vscode side of the worktree sessions' owner (src/app/team/worktreeSessions.ts, free of
// vscode): a file watcher per worktree folder and the warning when one is deleted outside VS Code.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorktreeHost, WorktreeRecord } from '../../app/team/worktreeSessions';

export const worktreeHost: WorktreeHost = {
  /**
   * The watcher sees every entry of the parent folder, where the other worktrees of a team live
   * too: only this folder's own events count (five worktrees made at once were five reads each,
   * during their streams).
   */
  watch(folder, changed) {
    const parent = vscode.Uri.file(folder.replace(/[\\/][^\\/]+$/, '') || folder);
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(parent, '*'), false, true, false);
    const self = path.resolve(folder);
    const again = (uri: vscode.Uri): void => {
      if (path.resolve(uri.fsPath) === self) changed();
    };
    return vscode.Disposable.from(w, w.onDidDelete(again), w.onDidCreate(again));
  },
  gone(r: WorktreeRecord) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        "The worktree {0} was deleted outside VS Code. Nothing else was lost: what was committed on {1} is kept (Apply Worktree Changes… can still bring it into the main tree), and its sessions' conversations and plans stay in the history. Remove Worktree… forgets the worktree.",
        r.path,
        r.branch,
      ),
    );
  },
};
