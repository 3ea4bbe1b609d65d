// Why a worktree operation or a team command was refused or failed, as data: a code and its values.
// The views word each one (src/ui/team/teamWords.ts, through vscode.l10n), so a German window shows
// German; the English message of the WorktreeError stays for the logs. And the git steps that fail
// with such a reason: git's own first line is kept as it is (git speaks English, LC_ALL=C).
import { GitRunError } from '../common/git/runGit';
import { git, firstLine, WorktreeError, type GitOutput } from './git';

export type ApplyMode = 'merge' | 'squash';

/** A rule of `git check-ref-format --branch` that a worktree's name breaks (branchName.ts). */
export type BranchNameRule =
  'empty' | 'too-long' | 'bad-character' | 'double-dot' | 'at-brace' | 'slash' | 'leading-dash' | 'bad-ending' | 'dot-component' | 'at-alone';

/** A git step that may fail; `target` (a folder or branch) names what it worked on where the step has one. */
export type GitStep =
  | 'stage'
  | 'commit'
  | 'list-changes'
  | 'list-branches'
  | 'read-head'
  | 'add-worktree'
  | 'list-worktrees'
  | 'read-status'
  | 'compare-base'
  | 'list-new-files'
  | 'remove-worktree'
  | 'prune'
  | 'delete-branch'
  | 'run';

export type WorktreeReason =
  // The repository, its worktrees and git.
  | { readonly code: 'folder-missing'; readonly folder: string }
  | { readonly code: 'not-a-repository'; readonly folder: string }
  | { readonly code: 'no-commit'; readonly repo: string }
  | { readonly code: 'branch-exists'; readonly branch: string }
  | { readonly code: 'folder-exists'; readonly folder: string }
  | { readonly code: 'bad-base'; readonly base: string; readonly repo: string }
  | { readonly code: 'worktree-gone'; readonly folder: string }
  | { readonly code: 'dirty-main-tree'; readonly files: readonly string[] }
  | { readonly code: 'apply-failed'; readonly branch: string; readonly gitLine: string; readonly exitCode: number }
  | { readonly code: 'abort-failed'; readonly mode: ApplyMode; readonly repo: string; readonly gitLine: string; readonly exitCode?: number }
  | { readonly code: 'git-failed'; readonly what: GitStep; readonly target?: string; readonly gitLine: string; readonly exitCode?: number }
  | { readonly code: 'git-missing' }
  | { readonly code: 'git-cannot-start'; readonly detail: string }
  | { readonly code: 'git-timeout'; readonly command: string; readonly seconds: number }
  | { readonly code: 'git-too-much-output'; readonly command: string; readonly mib: number }
  | { readonly code: 'git-helper-lost'; readonly command: string; readonly detail: string }
  // What the team commands were given.
  | { readonly code: 'bad-name'; readonly name: string; readonly rule: BranchNameRule }
  | { readonly code: 'bad-branch'; readonly branch: string }
  | { readonly code: 'agent-count'; readonly picked: number }
  | { readonly code: 'too-many-agents'; readonly max: number; readonly running: number; readonly asked: number }
  | { readonly code: 'no-prompt' }
  | { readonly code: 'not-a-worktree'; readonly path: string }
  | { readonly code: 'no-worktrees' }
  | { readonly code: 'compare-needs-two' }
  | { readonly code: 'compare-folder-gone'; readonly path: string };

export type WorktreeReasonCode = WorktreeReason['code'];

/** The reason an error carries (a WorktreeError, from this bundle or another), or undefined. */
export function reasonOf(err: unknown): WorktreeReason | undefined {
  const r = (err as { reason?: { code?: unknown } } | null | undefined)?.reason;
  return r && typeof r.code === 'string' ? (r as WorktreeReason) : undefined;
}

const STEPS: Record<GitStep, string> = {
  stage: 'Staging the worktree changes',
  commit: 'Committing the worktree changes',
  'list-changes': 'Listing the changes',
  'list-branches': 'Listing the branches',
  'read-head': 'Reading HEAD',
  'add-worktree': 'Creating the worktree',
  'list-worktrees': 'Listing the worktrees',
  'read-status': 'Reading the status',
  'compare-base': 'Comparing with the base',
  'list-new-files': 'Listing new files',
  'remove-worktree': 'Removing the worktree',
  prune: 'Forgetting the deleted worktree',
  'delete-branch': 'Deleting the branch',
  run: 'Running git',
};

/**
 * Runs git; git that cannot run to its end rejects with a reason: the runner's (common/git/runGit.ts,
 * the WorktreeError's cause) as one of ours, so every caller of this layer gets a reason to word.
 */
export async function gitRun(cwd: string, args: readonly string[]): Promise<GitOutput> {
  try {
    return await git(cwd, args);
  } catch (e) {
    const known = reasonOf(e);
    if (known && !(known.code === 'git-failed' && known.what === 'run')) throw e;
    const message = e instanceof Error ? e.message : String(e);
    throw new WorktreeError(message, runFailure((e as { cause?: unknown }).cause, message));
  }
}

/** Our reason for why git could not run (its runner's reason, when it gave one). */
function runFailure(cause: unknown, message: string): WorktreeReason {
  const r = cause instanceof GitRunError ? cause.reason : undefined;
  if (!r) return /not found on the PATH/.test(message) ? { code: 'git-missing' } : { code: 'git-failed', what: 'run', gitLine: firstLine(message) };
  switch (r.code) {
    case 'not-found':
      return r.data.errno === 'ENOENT' ? { code: 'git-missing' } : { code: 'git-cannot-start', detail: r.data.errno };
    case 'cannot-start':
      return { code: 'git-cannot-start', detail: r.data.errno ?? r.data.detail };
    case 'timeout':
      return { code: 'git-timeout', command: r.data.command, seconds: Math.round(r.data.limitMs / 1000) };
    case 'too-much-output':
      return { code: 'git-too-much-output', command: r.data.command, mib: Math.round(r.data.limitBytes / 1024 / 1024) };
    case 'helper-lost':
      return { code: 'git-helper-lost', command: r.data.command, detail: r.data.detail };
    case 'aborted':
      return { code: 'git-failed', what: 'run', gitLine: firstLine(message) };
  }
  return r satisfies never;
}

/** Runs a git step and returns its standard output, or rejects with a 'git-failed' reason naming the step. */
export async function gitStep(cwd: string, args: readonly string[], what: GitStep, target?: string): Promise<string> {
  const r = await gitRun(cwd, args);
  if (r.code === 0) return r.stdout;
  const gitLine = firstLine(r.stderr);
  const english = `${STEPS[what]}${target ? ` ${target}` : ''} failed: ${gitLine || `git exited with code ${r.code}`}.`;
  throw new WorktreeError(english, { code: 'git-failed', what, ...(target ? { target } : {}), gitLine, exitCode: r.code });
}
