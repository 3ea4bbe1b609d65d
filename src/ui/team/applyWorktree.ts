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
    if (!r) throw new Error(`${wanted} is not a worktree of an ACP session (or it was removed already).`);
    return r;
  }
  if (!list.length) throw new Error('No session works in a worktree: start one with New Session in Worktree… or Run Prompt on Several Agents….');
  const items = list.map((r) => ({ label: r.branch, description: r.path, r }));
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.r;
}

export async function applyWorktree(deps: TeamCommandDeps, arg?: unknown): Promise<string | undefined> {
  const r = await worktreeOf(deps, arg, 'Apply the changes of which worktree to the main tree?');
  if (!r) return undefined;
  await assertClean(r.repo);
  if (existsSync(r.path)) await commitWorktree(r.path, `Work of the ACP session ${r.sessionId} (${r.branch})`);
  else
    void vscode.window.showWarningMessage(
      `The worktree folder ${r.path} was deleted outside VS Code: its uncommitted work is gone; what was committed on ${r.branch} can still be applied.`,
    );
  const files = await filesToApply(r.repo, r.branch);
  if (!files.length) {
    void vscode.window.showInformationMessage(`${r.branch} has no changes the main tree lacks: nothing to apply.`);
    return 'nothing';
  }
  const mode =
    (arg as Target | undefined)?.mode ??
    (
      await vscode.window.showQuickPick(
        [
          { label: 'Merge', description: 'a merge commit in the main tree', mode: 'merge' as const },
          { label: 'Squash', description: 'the changes staged in the main tree, not committed', mode: 'squash' as const },
        ],
        { placeHolder: `Apply ${r.branch} to ${r.repo} as…` },
      )
    )?.mode;
  if (!mode) return undefined;
  const verb = mode === 'merge' ? 'Merge' : 'Squash';
  const count = files.length === 1 ? '1 file changes' : `${files.length} files change`;
  const detail = mode === 'merge' ? `A merge commit in ${r.repo}` : `The changes staged in ${r.repo}, not committed`;
  const ok = await confirmPick(`${verb} ${r.branch} into ${path.basename(r.repo)}? ${count}.`, [{ label: verb, detail }], files, 'Files that change');
  if (ok !== verb) return undefined;
  const result = await applyBranch(r.repo, r.branch, mode, `Apply ${r.branch} (ACP session ${r.sessionId})`);
  await deps.sessions.refresh(r.path);
  if (result.kind === 'applied') {
    void vscode.window.showInformationMessage(`${verb}d ${r.branch} into the main tree: ${files.length} file(s).`);
    return 'applied';
  }
  await showConflicts(deps.own, r, mode, result.files);
  return 'conflict';
}

export async function removeWorktree(deps: TeamCommandDeps, arg?: unknown): Promise<string | undefined> {
  const r = await worktreeOf(deps, arg, 'Remove which worktree?');
  if (!r) return undefined;
  const gone = !existsSync(r.path);
  const uncommitted = gone ? [] : await uncommittedFiles(r.path);
  const commits = await unappliedCommits(r.repo, r.branch);
  const work = [
    ...(uncommitted.length ? [`${uncommitted.length} uncommitted file(s)`] : []),
    ...(commits ? [`${commits} commit(s) not applied to the main tree`] : []),
  ];
  const what = gone
    ? `The folder ${r.path} was already deleted outside VS Code. Forget the worktree?`
    : work.length
      ? `${r.branch} has ${work.join(' and ')}: removing the worktree loses what is uncommitted. Remove it?`
      : `Remove the worktree ${r.path}?`;
  const keep = 'Remove, Keep Branch';
  const drop = 'Remove and Delete Branch';
  const choice = await confirmPick(
    what,
    [
      { label: keep, detail: `${r.branch} stays: its commits can still be applied` },
      { label: drop, detail: `git branch -D ${r.branch}` },
    ],
    uncommitted,
    uncommitted.length ? 'Uncommitted files (lost on removal)' : 'No uncommitted file',
  );
  if (choice !== keep && choice !== drop) return undefined;
  for (const s of deps.sessions.byPath(r.path)) if (deps.store.session(s.agentId, s.sessionId)?.live) await deps.closeSession(s).catch(() => undefined);
  await gitRemove(r.repo, r.path, r.branch, choice === drop);
  await deps.sessions.forget(r.path);
  return choice === drop ? 'removed-branch' : 'removed';
}
