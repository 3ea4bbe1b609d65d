// Apply Worktree Changes… and Remove Worktree…. Apply: the worktree's changes are committed on its
// branch, then merged or squashed (a pick) into the main tree after a confirmation listing the
// files (a quick pick that stays open, as the registry's confirmations: confirmPick.ts); a main
// tree with uncommitted changes is explained and left alone; a conflict opens each conflicted file
// in the merge editor with one notification offering Abort Merge (mergeConflicts.ts): nothing is
// reset or lost unless asked (the worktree and its branch stay). Remove: asks when the worktree has
// uncommitted or unapplied work; deletes the branch only on request.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorktreeRecord } from '../../app/team/worktreeSessions';
import { applyBranch, assertClean, commitWorktree, filesToApply, type ApplyMode } from '../../worktrees/apply';
import { removeWorktree as gitRemove } from '../../worktrees/apply';
import { uncommittedFiles, unappliedCommits } from '../../worktrees/repo';
import { confirmPick } from './confirmPick';
import { showConflicts } from './mergeConflicts';
import type { TeamCommandDeps } from './teamCommands';

type Target = { path?: string; mode?: ApplyMode };

async function worktreeOf(deps: TeamCommandDeps, arg: unknown, placeHolder: string): Promise<WorktreeRecord | undefined> {
  const wanted = (arg as Target | undefined)?.path;
  const list = deps.sessions.worktrees();
  if (wanted) {
    const r = list.find((x) => x.path === wanted);
    if (!r) throw new Error(vscode.l10n.t('{0} is not a worktree of an ACP session (or it was removed already).', wanted));
    return r;
  }
  if (!list.length) throw new Error(vscode.l10n.t('No session works in a worktree: start one with New Session in Worktree… or Run Prompt on Several Agents….'));
  const items = list.map((r) => ({ label: r.branch, description: r.path, r }));
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.r;
}

export async function applyWorktree(deps: TeamCommandDeps, arg?: unknown): Promise<string | undefined> {
  const r = await worktreeOf(deps, arg, vscode.l10n.t('Apply the changes of which worktree to the main tree?'));
  if (!r) return undefined;
  await assertClean(r.repo);
  if (existsSync(r.path)) await commitWorktree(r.path, `Work of the ACP session ${r.sessionId} (${r.branch})`);
  else
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The worktree folder {0} was deleted outside VS Code: its uncommitted work is gone; what was committed on {1} can still be applied.',
        r.path,
        r.branch,
      ),
    );
  const files = await filesToApply(r.repo, r.branch);
  if (!files.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} has no changes the main tree lacks: nothing to apply.', r.branch));
    return 'nothing';
  }
  const mode =
    (arg as Target | undefined)?.mode ??
    (
      await vscode.window.showQuickPick(
        [
          { label: vscode.l10n.t('Merge'), description: vscode.l10n.t('a merge commit in the main tree'), mode: 'merge' as const },
          { label: vscode.l10n.t('Squash'), description: vscode.l10n.t('the changes staged in the main tree, not committed'), mode: 'squash' as const },
        ],
        { placeHolder: vscode.l10n.t('Apply {0} to {1} as…', r.branch, r.repo) },
      )
    )?.mode;
  if (!mode) return undefined;
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
  const ok = await confirmPick(question, [{ label: verb, detail }], files, vscode.l10n.t('Files that change'));
  if (ok !== verb) return undefined;
  const result = await applyBranch(r.repo, r.branch, mode, `Apply ${r.branch} (ACP session ${r.sessionId})`);
  await deps.sessions.refresh(r.path);
  if (result.kind === 'applied') {
    void vscode.window.showInformationMessage(
      mode === 'merge'
        ? vscode.l10n.t('Merged {0} into the main tree: {1} file(s).', r.branch, files.length)
        : vscode.l10n.t('Squashed {0} into the main tree: {1} file(s).', r.branch, files.length),
    );
    return 'applied';
  }
  await showConflicts(deps.own, r, mode, result.files);
  return 'conflict';
}

export async function removeWorktree(deps: TeamCommandDeps, arg?: unknown): Promise<string | undefined> {
  const r = await worktreeOf(deps, arg, vscode.l10n.t('Remove which worktree?'));
  if (!r) return undefined;
  const gone = !existsSync(r.path);
  const uncommitted = gone ? [] : await uncommittedFiles(r.path);
  const commits = await unappliedCommits(r.repo, r.branch);
  const work = [
    ...(uncommitted.length ? [vscode.l10n.t('{0} uncommitted file(s)', uncommitted.length)] : []),
    ...(commits ? [vscode.l10n.t('{0} commit(s) not applied to the main tree', commits)] : []),
  ];
  const what = gone
    ? vscode.l10n.t('The folder {0} was already deleted outside VS Code. Forget the worktree?', r.path)
    : work.length
      ? vscode.l10n.t('{0} has {1}: removing the worktree loses what is uncommitted. Remove it?', r.branch, work.join(vscode.l10n.t(' and ')))
      : vscode.l10n.t('Remove the worktree {0}?', r.path);
  const keep = vscode.l10n.t('Remove, Keep Branch');
  const drop = vscode.l10n.t('Remove and Delete Branch');
  const choice = await confirmPick(
    what,
    [
      { label: keep, detail: vscode.l10n.t('{0} stays: its commits can still be applied', r.branch) },
      { label: drop, detail: `git branch -D ${r.branch}` },
    ],
    uncommitted,
    uncommitted.length ? vscode.l10n.t('Uncommitted files (lost on removal)') : vscode.l10n.t('No uncommitted file'),
  );
  if (choice !== keep && choice !== drop) return undefined;
  for (const s of deps.sessions.byPath(r.path)) if (deps.store.session(s.agentId, s.sessionId)?.live) await deps.closeSession(s).catch(() => undefined);
  await gitRemove(r.repo, r.path, r.branch, choice === drop);
  await deps.sessions.forget(r.path);
  return choice === drop ? 'removed-branch' : 'removed';
}
