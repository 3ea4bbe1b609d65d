// One repository's worktrees through git: find the repository of a folder, add a worktree on a new
// branch, list them, read a worktree's state against its base, and the files it changed. Free of
// vscode; every failure is a WorktreeError with a reason (reasons.ts) and an English message.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { firstLine, WorktreeError } from './git';
import { parseAheadBehind, parseNameStatus, parseStatusPaths, parseWorktreeList, type WorktreeEntry } from './parse';
import { gitRun as git, gitStep } from './reasons';

export interface AddedWorktree {
  readonly path: string;
  readonly branch: string;
  /** What the branch was made from, as the user chose it (a branch name, or HEAD's branch). */
  readonly baseRef: string;
  /** The commit the branch started at. */
  readonly baseCommit: string;
}

export interface WorktreeState {
  /** The folder is still there. */
  readonly exists: boolean;
  readonly ahead: number;
  readonly behind: number;
  /** Files changed in the worktree against its base commit (committed or not, untracked included). */
  readonly changed: number;
  /** Files changed and not committed yet. */
  readonly uncommitted: number;
}

/** The top folder of the repository holding `folder`; a folder outside one, or one without a commit, is explained. */
export async function repositoryOf(folder: string): Promise<string> {
  if (!existsSync(folder)) throw new WorktreeError(`${folder} does not exist.`, { code: 'folder-missing', folder });
  const r = await git(folder, ['rev-parse', '--show-toplevel']);
  if (r.code !== 0)
    throw new WorktreeError(`${folder} is not in a git repository: worktrees need one. Run "git init" and commit, or open a repository.`, {
      code: 'not-a-repository',
      folder,
    });
  const top = r.stdout.trim();
  if ((await git(top, ['rev-parse', '--verify', '--quiet', 'HEAD'])).code !== 0)
    throw new WorktreeError(`The repository ${top} has no commit yet: commit once, then create a worktree from it.`, { code: 'no-commit', repo: top });
  return path.normalize(top);
}

/** The local branches, the current one first. */
export async function branches(repo: string): Promise<string[]> {
  const out = await gitStep(repo, ['for-each-ref', '--format=%(HEAD) %(refname:short)', 'refs/heads'], 'list-branches');
  const rows = out.split('\n').filter((l) => l.length > 2);
  return [...rows.filter((l) => l.startsWith('*')), ...rows.filter((l) => !l.startsWith('*'))].map((l) => l.slice(2));
}

export async function branchExists(repo: string, branch: string): Promise<boolean> {
  return (await git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).code === 0;
}

/** `base` as a ref to compare with later: HEAD becomes the current branch (or its commit when detached). */
async function baseRefOf(repo: string, base: string): Promise<string> {
  if (base !== 'HEAD') return base;
  const r = await git(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return r.code === 0 ? r.stdout.trim() : (await gitStep(repo, ['rev-parse', 'HEAD'], 'read-head')).trim();
}

/** `git worktree add -b <branch> <folder> <base>`; an existing branch or folder is refused first. */
export async function addWorktree(repo: string, branch: string, folder: string, base: string): Promise<AddedWorktree> {
  if (await branchExists(repo, branch))
    throw new WorktreeError(`A branch named ${branch} already exists: choose another name (nothing was changed).`, { code: 'branch-exists', branch });
  if (existsSync(folder))
    throw new WorktreeError(`The folder ${folder} already exists: choose another name, or move that folder away.`, { code: 'folder-exists', folder });
  const baseCommit = (await git(repo, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`])).stdout.trim();
  if (!baseCommit) throw new WorktreeError(`The base ${base} is not a commit or branch of ${repo}.`, { code: 'bad-base', base, repo });
  const baseRef = await baseRefOf(repo, base);
  await gitStep(repo, ['worktree', 'add', '-b', branch, folder, baseCommit], 'add-worktree', folder);
  return { path: folder, branch, baseRef, baseCommit };
}

export async function listWorktrees(repo: string): Promise<WorktreeEntry[]> {
  return parseWorktreeList(await gitStep(repo, ['worktree', 'list', '--porcelain'], 'list-worktrees'));
}

/** Paths changed and not committed in a tree (`untracked`: whether new files count). */
export async function uncommittedFiles(tree: string, untracked = true): Promise<string[]> {
  const out = await gitStep(tree, ['status', '--porcelain=v1', '-z', `--untracked-files=${untracked ? 'all' : 'no'}`], 'read-status');
  return parseStatusPaths(out);
}

/** Files of the worktree (as on disk) that differ from `baseCommit`: status letter and path. */
export async function changesSince(tree: string, baseCommit: string): Promise<{ status: string; path: string }[]> {
  const diff = parseNameStatus(await gitStep(tree, ['diff', '--no-renames', '--name-status', '-z', baseCommit, '--'], 'compare-base'));
  const untracked = (await gitStep(tree, ['ls-files', '--others', '--exclude-standard', '-z'], 'list-new-files')).split('\0').filter(Boolean);
  const seen = new Set(diff.map((d) => d.path));
  return [...diff, ...untracked.filter((p) => !seen.has(p)).map((p) => ({ status: 'A', path: p }))].sort((a, b) => a.path.localeCompare(b.path));
}

/** The worktree's state against its base ref and commit; a folder gone is `exists: false`. */
export async function worktreeState(folder: string, baseRef: string, baseCommit: string): Promise<WorktreeState> {
  if (!existsSync(folder)) return { exists: false, ahead: 0, behind: 0, changed: 0, uncommitted: 0 };
  const counts = await git(folder, ['rev-list', '--left-right', '--count', `${baseRef}...HEAD`]);
  const ab = (counts.code === 0 ? parseAheadBehind(counts.stdout) : undefined) ?? { ahead: 0, behind: 0 };
  const [changes, uncommitted] = await Promise.all([changesSince(folder, baseCommit), uncommittedFiles(folder)]);
  return { exists: true, ...ab, changed: changes.length, uncommitted: uncommitted.length };
}

/** The text of `file` at `rev` ('' when it does not exist there). */
export async function showFile(repo: string, rev: string, file: string): Promise<string> {
  const r = await git(repo, ['show', `${rev}:${file.replace(/\\/g, '/')}`]);
  return r.code === 0 ? r.stdout : '';
}

/** Commits on `branch` that the main tree's HEAD does not have. */
export async function unappliedCommits(repo: string, branch: string): Promise<number> {
  const r = await git(repo, ['rev-list', '--count', `HEAD..refs/heads/${branch}`]);
  return r.code === 0 ? Number(r.stdout.trim()) || 0 : 0;
}

export { firstLine };
