// git as a child process for the worktree commands: execFile (no shell), an environment without any
// inherited GIT_* variable, no prompts, no optional locks, and hooks read from an empty folder of
// ours (`-c core.hooksPath=<empty>`), so no hook of the repository runs. The user's own
// configuration (identity, merge settings) still applies: merges and commits are the user's.
// Output is bounded and each run has a time limit.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A git operation failed; the message is a sentence for a person. */
export class WorktreeError extends Error {
  override readonly name = 'WorktreeError';
}

export interface GitOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

const TIMEOUT_MS = 60_000;
const MAX_BUFFER = 32 * 1024 * 1024;
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

let lastStart: Promise<void> = Promise.resolve();
/**
 * Starting a process holds the event loop (fork and exec are synchronous), 10–30 ms on a busy
 * machine: git runs start one per event-loop turn, so the worktree rows of a team reading their
 * state together do not stall the extension host for all their processes at once.
 */
function startTurn(): Promise<void> {
  lastStart = lastStart.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  return lastStart;
}

/** Runs `git <args>` in `cwd`; resolves with its output whatever the exit code (a missing git rejects). */
export async function git(cwd: string, args: readonly string[]): Promise<GitOutput> {
  const full = ['--no-pager', '-c', `core.hooksPath=${emptyHooks()}`, '-c', 'core.fsmonitor=false', '-c', 'core.quotePath=false', ...args];
  await startTurn();
  return new Promise((resolve, reject) => {
    execFile('git', full, { cwd, env: env(), timeout: TIMEOUT_MS, maxBuffer: MAX_BUFFER, windowsHide: true }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
      if (e && typeof e.code === 'string') {
        const why = e.code === 'ENOENT' ? 'git was not found on the PATH; install git to use worktrees' : `git could not be started (${e.code})`;
        reject(new WorktreeError(`${why}.`));
        return;
      }
      resolve({ stdout: String(stdout), stderr: String(stderr), code: e ? (typeof e.code === 'number' ? e.code : 1) : 0 });
    });
  });
}

/** Runs git and returns its standard output, or rejects with `what` and git's first error line. */
export async function gitOk(cwd: string, args: readonly string[], what: string): Promise<string> {
  const r = await git(cwd, args);
  if (r.code !== 0) throw new WorktreeError(`${what} failed: ${firstLine(r.stderr) || `git exited with code ${r.code}`}.`);
  return r.stdout;
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
