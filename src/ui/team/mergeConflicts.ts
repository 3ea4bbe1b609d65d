// What Apply Worktree Changes… does when the merge or squash stops on conflicts: each conflicted
// file opens in VS Code's merge editor (base, the main tree's side, the worktree branch's side,
// the file on disk as the result; the sides served read-only from git's index stages), and one
// notification lists the files with "Abort Merge", which puts the main tree back as it was
// (`git merge --abort`, or `git reset --merge` after a squash). Nothing is resolved or reset
// unless the user does it; the worktree and its branch are never touched.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorktreeRecord } from '../../app/team/worktreeSessions';
import { abortApply, type ApplyMode } from '../../worktrees/apply';
import { BASE_SCHEME, ensureProviders } from './compareSessions';

/** A conflict stage of `file` (1: the common base, 2: the main tree, 3: the branch), read-only. */
function stageUri(repo: string, file: string, stage: 1 | 2 | 3, nonce: string): vscode.Uri {
  const query = new URLSearchParams({ repo, rev: `:${stage}`, n: nonce }).toString();
  return vscode.Uri.from({ scheme: BASE_SCHEME, path: `/${file}`, query });
}

/** Opens `file`'s conflict in the merge editor; a VS Code without it shows the file with git's markers. */
async function openMergeEditor(r: WorktreeRecord, file: string, nonce: string): Promise<void> {
  const output = vscode.Uri.file(path.join(r.repo, file));
  try {
    await vscode.commands.executeCommand('_open.mergeEditor', {
      base: stageUri(r.repo, file, 1, nonce),
      input1: { uri: stageUri(r.repo, file, 2, nonce), title: vscode.l10n.t('Main tree'), description: 'HEAD' },
      input2: { uri: stageUri(r.repo, file, 3, nonce), title: r.branch, description: vscode.l10n.t('the worktree’s branch') },
      output,
    });
  } catch {
    await vscode.window.showTextDocument(output, { preview: false });
  }
}

/** A merge editor's tab input (its class is a proposed API: recognised by its shape). */
export interface MergeTabInput {
  readonly base: vscode.Uri;
  readonly input1: vscode.Uri;
  readonly input2: vscode.Uri;
  readonly result: vscode.Uri;
}

export function mergeInput(input: unknown): MergeTabInput | undefined {
  const i = input as Partial<MergeTabInput> | undefined;
  return i && typeof i === 'object' && i.result instanceof vscode.Uri && i.input1 instanceof vscode.Uri && i.input2 instanceof vscode.Uri
    ? (i as MergeTabInput)
    : undefined;
}

/** Closes the merge editors whose result is one of `files` (after an abort: their conflict is gone). */
async function closeMergeEditors(files: readonly vscode.Uri[]): Promise<void> {
  const wanted = new Set(files.map((u) => u.toString()));
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => wanted.has(mergeInput(t.input)?.result.toString() ?? ''));
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}

/**
 * Opens every conflicted file in the merge editor and shows the notification; resolves once the
 * editors are open (the notification's answer is handled when it comes).
 */
export async function showConflicts(own: (d: vscode.Disposable) => void, r: WorktreeRecord, mode: ApplyMode, files: readonly string[]): Promise<void> {
  ensureProviders(own);
  const nonce = Date.now().toString(36);
  for (const f of files) await openMergeEditor(r, f, nonce);
  const abort = vscode.l10n.t('Abort Merge');
  const finish = mode === 'merge' ? vscode.l10n.t('then commit the merge') : vscode.l10n.t('then commit (the squashed changes are staged)');
  const conflicts =
    files.length === 1
      ? vscode.l10n.t('{0} conflicts with the main tree in 1 file: {1}.', r.branch, files.join(', '))
      : vscode.l10n.t('{0} conflicts with the main tree in {1} files: {2}.', r.branch, files.length, files.join(', '));
  const message = [
    conflicts,
    vscode.l10n.t(
      'Each is open in the merge editor: resolve it and press Complete Merge, {0}. Nothing was lost: {1} and its worktree are unchanged.',
      finish,
      r.branch,
    ),
    vscode.l10n.t('{0} puts the main tree back as it was.', abort),
  ].join(' ');
  void vscode.window.showWarningMessage(message, abort).then(async (pick) => {
    if (pick !== abort) return;
    try {
      // The editors first: a result saved later (files that auto-save) would write over the restored file.
      await closeMergeEditors(files.map((f) => vscode.Uri.file(path.join(r.repo, f))));
      await abortApply(r.repo, mode);
      void vscode.window.showInformationMessage(
        mode === 'merge'
          ? vscode.l10n.t('The merge of {0} was undone: the main tree is as it was before.', r.branch)
          : vscode.l10n.t('The squash of {0} was undone: the main tree is as it was before.', r.branch),
      );
    } catch (e) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          '{0} The conflicts are still in the main tree: resolve them, or run "{1}" in {2}.',
          e instanceof Error ? e.message : String(e),
          mode === 'merge' ? 'git merge --abort' : 'git reset --merge',
          r.repo,
        ),
      );
    }
  });
}
