// git as a child process for the worktree commands: execFile (no shell), an environment without any
// inherited GIT_* variable, no prompts, no optional locks, and hooks read from an empty folder of
// ours (`-c core.hooksPath=<empty>`), so no hook of the repository runs. The user's own
// configuration (identity, merge settings) still applies: merges and commits are the user's.
// Output is bounded and each run has a time limit.
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitRunError, runGit } from '../common/git/runGit';

/**
 * A worktree operation failed: `reason` says why as data (a code and its values; the views word
 * it, src/ui/team/teamWords.ts); the message is the English sentence, for the logs. A throw
 * without a reason (the git runner's own) is a git failure with the message as git's line.
 */
export class WorktreeError extends Error {
  override readonly name = 'WorktreeError';
  readonly reason: import('./reasons').WorktreeReason;

  constructor(message: string, reason?: import('./reasons').WorktreeReason) {
    super(message);
    this.reason = reason ?? { code: 'git-failed', what: 'run', gitLine: message };
  }
}

export interface GitOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

const TIMEOUT_MS = 60_000;
const MAX_BUFFER = 32 * 1024 * 1024;
const MAX_STDERR_CHARS = 64 * 1024;
/** Used only when the repository has no identity of its own (a commit on the session's branch). */
const FALLBACK_IDENTITY = { name: 'ACP Plans', email: 'acp-plans@localhost' };

let hooksDir: string | undefined;
function emptyHooks(): string {
  hooksDir ??= mkdtempSync(path.join(os.tmpdir(), 'acp-no-hooks-'));
  return hooksDir;
}

let gitEnv: NodeJS.ProcessEnv | undefined;
/** The extension host's environment without GIT_* (made once: reading process.env is slow). */
function env(): NodeJS.ProcessEnv {
  if (gitEnv) return gitEnv;
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^GIT_/i.test(k) && v !== undefined) out[k] = v;
  gitEnv = { ...out, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', LC_ALL: 'C' };
  return gitEnv;
}

/**
 * Runs `git <args>` in `cwd`; resolves with its output whatever the exit code (git that cannot run
 * rejects). The process starts off this thread (common/git/runGit.ts, through the spawn helper): a
 * fork of the extension host holds its thread 5–30 ms, and a team's worktree rows read their state
 * while agents stream.
 */
export async function git(cwd: string, args: readonly string[]): Promise<GitOutput> {
  const full = ['--no-pager', '-c', `core.hooksPath=${emptyHooks()}`, '-c', 'core.fsmonitor=false', '-c', 'core.quotePath=false', ...args];
  try {
    const r = await runGit({ file: 'git', args: full, cwd, env: env(), maxOutputBytes: MAX_BUFFER, timeoutMs: TIMEOUT_MS, maxStderrChars: MAX_STDERR_CHARS });
    return { stdout: r.stdout.toString('utf8'), stderr: r.stderr, code: r.code ?? 1 };
  } catch (e) {
    const err = new WorktreeError(cannotRun(e, args));
    err.cause = e;
    throw err;
  }
}

/** Why git could not run, as a sentence (the GitRunError's reason is the cause). */
function cannotRun(e: unknown, args: readonly string[]): string {
  if (!(e instanceof GitRunError)) return `git could not be started (${e instanceof Error ? e.message : String(e)}).`;
  const r = e.reason;
  switch (r.code) {
    case 'not-found':
      return r.data.errno === 'ENOENT' ? 'git was not found on the PATH; install git to use worktrees.' : `git could not be started (${r.data.errno}).`;
    case 'cannot-start':
      return `git could not be started (${r.data.errno ?? r.data.detail}).`;
    case 'too-much-output':
      return `git ${args[0] ?? ''} printed more than ${MAX_BUFFER / 1024 / 1024} MiB and was stopped.`;
    case 'timeout':
    case 'helper-lost':
    case 'aborted':
      return e.message;
  }
  return r satisfies never;
}

export function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.replace(/\.$/, '') ?? '';
}

/** `-c user.name/email` for a commit when the repository has no identity configured. */
export async function identityArgs(cwd: string): Promise<string[]> {
  const email = (await git(cwd, ['config', 'user.email'])).stdout.trim();
  const name = (await git(cwd, ['config', 'user.name'])).stdout.trim();
  return [...(email ? [] : ['-c', `user.email=${FALLBACK_IDENTITY.email}`]), ...(name ? [] : ['-c', `user.name=${FALLBACK_IDENTITY.name}`])];
}
