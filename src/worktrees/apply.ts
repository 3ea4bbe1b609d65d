// Bringing a worktree's work into the main tree, and removing a worktree. The worktree's changes
// are first committed on its own branch (so nothing of it can be lost), then merged (a merge
// commit) or squashed (staged in the main tree, not committed) into the main tree. A conflict
// leaves git's conflict markers in the main tree and reports the files: nothing is reset unless
// the user asks (abortApply). Every refusal is a WorktreeError with a reason (reasons.ts).
import { existsSync } from 'node:fs';
import { firstLine, identityArgs, WorktreeError } from './git';
import { gitRun as git, gitStep, type ApplyMode } from './reasons';
import { uncommittedFiles } from './repo';

export type { ApplyMode };

export type ApplyResult = { readonly kind: 'applied'; readonly files: readonly string[] } | { readonly kind: 'conflict'; readonly files: readonly string[] };

/** Commits everything changed in the worktree on its branch; false when there was nothing to commit. */
export async function commitWorktree(folder: string, message: string): Promise<boolean> {
  if (!existsSync(folder))
    throw new WorktreeError(`The worktree folder ${folder} is gone (deleted outside VS Code): its uncommitted work cannot be read.`, {
      code: 'worktree-gone',
      folder,
    });
  await gitStep(folder, ['add', '-A'], 'stage');
  if ((await git(folder, ['diff', '--cached', '--quiet'])).code === 0) return false;
  await gitStep(folder, [...(await identityArgs(folder)), 'commit', '--no-verify', '-q', '-m', message], 'commit');
  return true;
}

/** The files `branch` changes against the main tree's HEAD (what an apply would bring). */
export async function filesToApply(repo: string, branch: string): Promise<string[]> {
  const out = await gitStep(repo, ['diff', '--no-renames', '--name-only', '-z', `HEAD...refs/heads/${branch}`, '--'], 'list-changes');
  return out.split('\0').filter(Boolean).sort();
}

/** Refuses a main tree with uncommitted changes to tracked files (an apply must not mix with them). */
export async function assertClean(repo: string): Promise<void> {
  const dirty = await uncommittedFiles(repo, false);
  if (dirty.length)
    throw new WorktreeError(
      `The main tree has uncommitted changes (${dirty.slice(0, 5).join(', ')}${dirty.length > 5 ? ', …' : ''}): commit or stash them first, then apply again. Nothing was changed.`,
      { code: 'dirty-main-tree', files: dirty },
    );
}

/** Merges or squashes `branch` into the main tree; a conflict is reported with its files, never undone. */
export async function applyBranch(repo: string, branch: string, mode: ApplyMode, message: string): Promise<ApplyResult> {
  await assertClean(repo);
  const files = await filesToApply(repo, branch);
  const id = await identityArgs(repo);
  const args = mode === 'merge' ? ['merge', '--no-ff', '--no-verify', '-m', message, `refs/heads/${branch}`] : ['merge', '--squash', `refs/heads/${branch}`];
  const r = await git(repo, [...id, ...args]);
  if (r.code === 0) return { kind: 'applied', files };
  const conflicts = (await git(repo, ['diff', '--name-only', '-z', '--diff-filter=U'])).stdout.split('\0').filter(Boolean);
  if (conflicts.length) return { kind: 'conflict', files: conflicts };
  const gitLine = firstLine(r.stderr) || firstLine(r.stdout);
  throw new WorktreeError(`Applying ${branch} failed: ${gitLine || `git exited with code ${r.code}`}. Nothing was applied.`, {
    code: 'apply-failed',
    branch,
    gitLine,
    exitCode: r.code,
  });
}

/**
 * Undoes an apply that stopped on conflicts: `git merge --abort` after a merge, `git reset --merge`
 * after a squash (no merge in progress to abort). The main tree returns to its HEAD as it was.
 */
export async function abortApply(repo: string, mode: ApplyMode): Promise<void> {
  const args = mode === 'merge' ? ['merge', '--abort'] : ['reset', '--merge'];
  const r = await git(repo, args);
  if (r.code === 0) return;
  const gitLine = firstLine(r.stderr);
  throw new WorktreeError(`${mode === 'merge' ? 'Aborting the merge' : 'Undoing the squash'} failed: ${gitLine || `git exited with code ${r.code}`}.`, {
    code: 'abort-failed',
    mode,
    repo,
    gitLine,
    exitCode: r.code,
  });
}

/** Removes the worktree (its folder, forced: the caller asked the user) and, when asked, its branch. */
export async function removeWorktree(repo: string, folder: string, branch: string, deleteBranch: boolean): Promise<void> {
  if (existsSync(folder)) await gitStep(repo, ['worktree', 'remove', '--force', folder], 'remove-worktree', folder);
  else await gitStep(repo, ['worktree', 'prune'], 'prune');
  if (deleteBranch && (await git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).code === 0)
    await gitStep(repo, ['branch', '-D', branch], 'delete-branch', branch);
}
