// The team's UI port (src/app/team/teamPorts.ts) in VS Code: the Team service asks, this shows.
// Quick picks for a worktree, a session and merge or squash; the confirmations listing every file
// (confirmPick.ts: a quick pick that stays open, Cancel its default); the merge editor and the
// conflict notice (mergeConflicts.ts); the comparison (compareSessions.ts); messages worded in
// teamWords.ts. Nothing here decides or runs git.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApplyConflict, ApplyMode, Comparison, RemoveLoss, SessionChoice, TeamNews, TeamUi, WorktreeReason } from '../../app/team/teamPorts';
import type { WorktreeRecord } from '../../app/team/worktreeSessions';
import { showComparison, type ReadRevision } from './compareSessions';
import { confirmPick } from './confirmPick';
import { closeConflicts, showConflicts } from './mergeConflicts';
import { deleteBranchDetail, newsText, reasonText, removeQuestion } from './teamWords';

export class TeamView implements TeamUi {
  constructor(
    /** Owns what is registered on first use (the read-only document providers). */
    private readonly own: (d: vscode.Disposable) => void,
    private readonly read: ReadRevision,
  ) {}

  async pickWorktree(list: readonly WorktreeRecord[], purpose: 'apply' | 'remove'): Promise<WorktreeRecord | undefined> {
    const placeHolder = purpose === 'apply' ? vscode.l10n.t('Apply the changes of which worktree to the main tree?') : vscode.l10n.t('Remove which worktree?');
    const items = list.map((r) => ({ label: r.branch, description: r.path, r }));
    return (await vscode.window.showQuickPick(items, { placeHolder }))?.r;
  }

  async pickMode(r: WorktreeRecord): Promise<ApplyMode | undefined> {
    const items = [
      { label: vscode.l10n.t('Merge'), description: vscode.l10n.t('a merge commit in the main tree'), mode: 'merge' as const },
      { label: vscode.l10n.t('Squash'), description: vscode.l10n.t('the changes staged in the main tree, not committed'), mode: 'squash' as const },
    ];
    return (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Apply {0} to {1} as…', r.branch, r.repo) }))?.mode;
  }

  async confirmApply(r: WorktreeRecord, mode: ApplyMode, files: readonly string[]): Promise<boolean> {
    const verb = mode === 'merge' ? vscode.l10n.t('Merge') : vscode.l10n.t('Squash');
    const into = path.basename(r.repo);
    const question =
      mode === 'merge'
        ? files.length === 1
          ? vscode.l10n.t('Merge {0} into {1}? 1 file changes.', r.branch, into)
          : vscode.l10n.t('Merge {0} into {1}? {2} files change.', r.branch, into, files.length)
        : files.length === 1
          ? vscode.l10n.t('Squash {0} into {1}? 1 file changes.', r.branch, into)
          : vscode.l10n.t('Squash {0} into {1}? {2} files change.', r.branch, into, files.length);
    const detail = mode === 'merge' ? vscode.l10n.t('A merge commit in {0}', r.repo) : vscode.l10n.t('The changes staged in {0}, not committed', r.repo);
    return (await confirmPick(question, [{ label: verb, detail }], files, vscode.l10n.t('Files that change'))) === verb;
  }

  showConflicts(c: ApplyConflict): Promise<{ abort: Promise<boolean> }> {
    return showConflicts(this.own, this.read, c);
  }

  closeConflicts(c: ApplyConflict): Promise<void> {
    return closeConflicts(c);
  }

  async confirmRemove(r: WorktreeRecord, loss: RemoveLoss): Promise<'keep-branch' | 'delete-branch' | undefined> {
    const what = removeQuestion(r.branch, r.path, loss, vscode.l10n);
    const keep = vscode.l10n.t('Remove, Keep Branch');
    const drop = vscode.l10n.t('Remove and Delete Branch');
    const choice = await confirmPick(
      what,
      [
        { label: keep, detail: vscode.l10n.t('{0} stays: its commits can still be applied', r.branch) },
        { label: drop, detail: deleteBranchDetail(r.branch, loss, vscode.l10n) },
      ],
      loss.uncommitted,
      loss.uncommitted.length ? vscode.l10n.t('Uncommitted files (lost on removal)') : vscode.l10n.t('No uncommitted file'),
    );
    return choice === keep ? 'keep-branch' : choice === drop ? 'delete-branch' : undefined;
  }

  async pickSession(list: readonly SessionChoice[], purpose: 'first' | 'second'): Promise<SessionChoice | undefined> {
    const placeHolder = purpose === 'first' ? vscode.l10n.t('First session') : vscode.l10n.t('Compare with');
    const items = list.map((c) => ({ label: c.label, description: c.record.path, c }));
    return (await vscode.window.showQuickPick(items, { placeHolder }))?.c;
  }

  showComparison(c: Comparison): Promise<void> {
    return showComparison(this.own, this.read, c);
  }

  tell(news: TeamNews): void {
    const text = newsText(news, vscode.l10n);
    if (news.kind === 'applying-without-folder') void vscode.window.showWarningMessage(text);
    else void vscode.window.showInformationMessage(text);
  }

  problem(reason: WorktreeReason): void {
    void vscode.window.showErrorMessage(reasonText(reason, vscode.l10n));
  }
}
