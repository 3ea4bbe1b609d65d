// The vscode side of an apply that stopped on conflicts (the Team service decides, src/app/team):
// each conflicted file opens in VS Code's merge editor (base, the main tree's side, the worktree
// branch's side, the file on disk as the result; the sides served read-only from git's index
// stages), and one notification lists the files with "Abort Merge", the person's answer handed back
// to the service, which puts the main tree back. Before that, the merge editors are closed.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApplyConflict } from '../../app/team/teamPorts';
import { ensureProviders, revisionUri, type ReadRevision } from './compareSessions';
import { abortLabel, conflictNotice } from './teamWords';

/** A conflict stage of `file` (1: the common base, 2: the main tree, 3: the branch), read-only, under the file's own path. */
function stageUri(repo: string, file: string, stage: 1 | 2 | 3, nonce: string): vscode.Uri {
  return revisionUri(vscode.Uri.file(path.join(repo, file)), repo, `:${stage}`, file, { n: nonce });
}

/** Opens `file`'s conflict in the merge editor; a VS Code without it shows the file with git's markers. */
async function openMergeEditor(repo: string, branch: string, file: string, nonce: string): Promise<void> {
  const output = vscode.Uri.file(path.join(repo, file));
  try {
    await vscode.commands.executeCommand('_open.mergeEditor', {
      base: stageUri(repo, file, 1, nonce),
      input1: { uri: stageUri(repo, file, 2, nonce), title: vscode.l10n.t('Main tree'), description: 'HEAD' },
      input2: { uri: stageUri(repo, file, 3, nonce), title: branch, description: vscode.l10n.t('the worktree’s branch') },
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

/**
 * Closes the merge editors of the conflict's files without saving (before an abort: a result
 * saved later would write over the restored file). Closing a merge editor asks to save its result
 * "with conflicts" when it is dirty, and whether to close "with conflicts" when any is unhandled,
 * and waits for the answer: neither question may be asked. So each one is made active, every
 * conflict taken as handled (both sides accepted: only the editor's own state, the result is
 * reverted next), then its result reverted to the file on disk and the editor closed.
 */
export async function closeConflicts(c: ApplyConflict): Promise<void> {
  const wanted = new Set(c.files.map((f) => vscode.Uri.file(path.join(c.record.repo, f)).toString()));
  const open = (): MergeTabInput[] =>
    vscode.window.tabGroups.all.flatMap((g) => g.tabs.flatMap((t) => mergeInput(t.input) ?? [])).filter((i) => wanted.has(i.result.toString()));
  for (const input of open()) {
    await vscode.commands.executeCommand('_open.mergeEditor', {
      base: input.base,
      input1: { uri: input.input1 },
      input2: { uri: input.input2 },
      output: input.result,
    });
    const active = mergeInput(vscode.window.tabGroups.activeTabGroup.activeTab?.input);
    if (active?.result.toString() !== input.result.toString()) continue;
    for (const side of ['merge.acceptAllInput1', 'merge.acceptAllInput2']) await vscode.commands.executeCommand(side).then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  const left = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => wanted.has(mergeInput(t.input)?.result.toString() ?? ''));
  if (left.length) await vscode.window.tabGroups.close(left, true);
}

/**
 * Opens every conflicted file in the merge editor and shows the notification; resolves once the
 * editors are open, with the notification's answer to come (true: Abort Merge).
 */
export async function showConflicts(own: (d: vscode.Disposable) => void, read: ReadRevision, c: ApplyConflict): Promise<{ abort: Promise<boolean> }> {
  ensureProviders(own, read);
  const nonce = Date.now().toString(36);
  for (const f of c.files) await openMergeEditor(c.record.repo, c.record.branch, f, nonce);
  const abort = abortLabel(vscode.l10n);
  const answer = vscode.window.showWarningMessage(conflictNotice(c, vscode.l10n), abort);
  return { abort: Promise.resolve(answer).then((pick) => pick === abort) };
}
