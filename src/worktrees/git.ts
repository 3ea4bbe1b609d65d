// git as a child process for the worktree commands: execFile (no shell), an environment without any
// inherited GIT_* variable, no prompts, no optional locks, and hooks read from an empty folder of
// ours (`-c core.hooksPath=<empty>`, removed when the process ends), so no hook of the repository
// runs. Nor does any other program the repository's own configuration names: each filter and merge
// driver it defines is emptied on the command line (read from its configuration before each run
// that could start one), and nothing is signed or verified with a signing program. The user's own
// configuration (identity, merge settings, the filters of the global configuration such as Git
// LFS) still applies: merges and commits are the user's. Output is bounded and each run has a time
// limit.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitRunError, runGit, subcommand } from '../common/git/runGit';

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
/** A folder of ours for this process (a fixed name in the shared temp folder could be someone else's), removed when it ends. */
function emptyHooks(): string {
  if (hooksDir) return hooksDir;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-no-hooks-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return (hooksDir = dir);
}

/** Signing and verifying never run a program: nothing of ours is signed, no signature is checked. */
const NO_SIGNING = [
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'merge.verifySignatures=false',
  'log.showSignature=false',
  'gpg.program=',
  'gpg.openpgp.program=',
  'gpg.x509.program=',
  'gpg.ssh.program=',
  'gpg.ssh.defaultKeyCommand=',
].flatMap((kv) => ['-c', kv]);

/** Subcommands that start no filter, merge driver or signing program whatever the configuration says. */
const NO_PROGRAMS = new Set(['git config', 'git rev-parse', 'git rev-list', 'git for-each-ref', 'git symbolic-ref', 'git ls-files']);

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
  const base = ['--no-pager', '-c', `core.hooksPath=${emptyHooks()}`, '-c', 'core.fsmonitor=false', '-c', 'core.quotePath=false', ...NO_SIGNING];
  try {
    const drivers = NO_PROGRAMS.has(subcommand(args)) ? [] : await repositoryDrivers(cwd, base);
    return await run(cwd, [...base, ...drivers, ...args]);
  } catch (e) {
    if (e instanceof WorktreeError) throw e;
    const err = new WorktreeError(cannotRun(e, args));
    err.cause = e;
    throw err;
  }
}

async function run(cwd: string, args: readonly string[]): Promise<GitOutput> {
  const r = await runGit({ file: 'git', args, cwd, env: env(), maxOutputBytes: MAX_BUFFER, timeoutMs: TIMEOUT_MS, maxStderrChars: MAX_STDERR_CHARS });
  return { stdout: r.stdout.toString('utf8'), stderr: r.stderr, code: r.code ?? 1 };
}

/**
 * `-c` that empties each filter and merge driver the repository's own configuration defines (a
 * `.gitattributes` in the tree picks the driver, `.git/config` says what it runs; the global and
 * system configuration are the user's): a filter runs nothing and is not required (the file is
 * taken as it is stored), a merge driver is `false` (the file is a conflict to resolve, nothing is
 * lost). Read before each run: the repository's configuration may have changed since the last.
 */
async function repositoryDrivers(cwd: string, base: readonly string[]): Promise<string[]> {
  const query = ['config', '-z', '--get-regexp', '^(filter|merge)\\.'];
  let r = await run(cwd, [...base, 'config', '--show-scope', ...query.slice(1)]);
  const scoped = r.code === 0 || r.code === 1;
  if (!scoped) r = await run(cwd, [...base, ...query]); // a git older than 2.26: every driver counts
  if (r.code === 1) return []; // none defined
  if (r.code !== 0) throw new WorktreeError(`The repository's git configuration cannot be read: ${firstLine(r.stderr) || `git exited with code ${r.code}`}.`);
  const fields = r.stdout.split('\0');
  const out = new Set<string>();
  for (let i = 0; i < fields.length - 1; i++) {
    const scope = scoped ? fields[i++] : 'local';
    const key = fields[i]!.split('\n', 1)[0]!;
    const dot = key.indexOf('.');
    const last = key.lastIndexOf('.');
    if (last <= dot || scope === 'global' || scope === 'system') continue; // `merge.ff` names no driver; the user's own drivers stay
    const [section, name] = [key.slice(0, dot), key.slice(dot + 1, last)];
    // `-c` splits at the first `=`: a driver so named cannot be emptied, so git does not run at all.
    if (name.includes('='))
      throw new WorktreeError(`The repository's git configuration names a ${section} driver "${name}" that cannot be turned off: git was not run.`);
    const keys = section === 'filter' ? ['smudge=', 'clean=', 'process=', 'required=false'] : ['driver=false'];
    for (const k of keys) out.add(`${section}.${name}.${k}`);
  }
  return [...out].flatMap((kv) => ['-c', kv]);
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
