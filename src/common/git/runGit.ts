// One git run as a child process, for every part of ours that runs git (checkpoints, worktrees):
// started through the spawn helper (common/spawn, off the extension host's thread), standard output
// collected up to a cap, standard error kept up to a bound, a time limit, and a way for the caller
// to stop it (onStdout, an AbortSignal). It resolves with the outcome whatever the exit code; it
// rejects only when git could not run to its end, with a GitRunError whose reason is data (the
// callers word it for people; the message is English, for logs). The policy (environment,
// configuration, which exit codes are failures) is the caller's. No `vscode`.
import { hasBrand } from '../brand';
import { HelperLostError, spawner, type ProcessListener, type RunningProcess, type Spawner } from '../spawn/spawner';

export interface GitRun {
  /** The git executable ('git' or a path). */
  readonly file: string;
  /** Every argument, the configuration (`-c k=v`) included. */
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Written to standard input, which is then closed (none: closed at once). */
  readonly input?: Buffer | string;
  /** More standard output than this stops git: a GitRunError 'too-much-output'. */
  readonly maxOutputBytes: number;
  /** A run that takes longer is stopped: a GitRunError 'timeout'. */
  readonly timeoutMs: number;
  /** The most of standard error kept (characters); default 16 KiB. */
  readonly maxStderrChars?: number;
  /** Sees each chunk of standard output; returning false stops git (the output read so far is kept). */
  readonly onStdout?: (chunk: Buffer) => boolean;
  /** Aborted: git is stopped, a GitRunError 'aborted'. */
  readonly signal?: AbortSignal;
  /** What starts the process; default this bundle's spawner. */
  readonly spawner?: Pick<Spawner, 'start'>;
}

export interface GitOutcome {
  readonly stdout: Buffer;
  /** At most `maxStderrChars`. */
  readonly stderr: string;
  /** null when a signal ended git. */
  readonly code: number | null;
  readonly signal: string | null;
  /** onStdout asked to stop. */
  readonly stopped: boolean;
}

/** Why git could not run to its end: a code and its data. */
export type GitRunReason =
  /** The executable is missing or not executable (ENOENT, EACCES, ENOTDIR, EISDIR). */
  | { readonly code: 'not-found'; readonly data: { readonly file: string; readonly errno: string } }
  | { readonly code: 'cannot-start'; readonly data: { readonly file: string; readonly errno?: string; readonly detail: string } }
  | { readonly code: 'timeout'; readonly data: { readonly command: string; readonly limitMs: number } }
  | { readonly code: 'too-much-output'; readonly data: { readonly command: string; readonly limitBytes: number } }
  /** The spawn helper went away under the run (its channel closed, it exited); the next run starts another. */
  | { readonly code: 'helper-lost'; readonly data: { readonly command: string; readonly detail: string } }
  | { readonly code: 'aborted'; readonly data: { readonly command: string } };

const GIT_RUN_ERROR: unique symbol = Symbol.for('acp-plans.GitRunError');

/** git could not run to its end; `reason` says why. Branded (common/brand.ts): recognised across bundles. */
export class GitRunError extends Error {
  override readonly name = 'GitRunError';
  readonly [GIT_RUN_ERROR] = true;
  constructor(readonly reason: GitRunReason) {
    super(gitRunMessage(reason));
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, GIT_RUN_ERROR);
  }
}

/** The English sentence of a reason (logs). */
export function gitRunMessage(r: GitRunReason): string {
  switch (r.code) {
    case 'not-found':
      return `git was not found (${r.data.file}: ${r.data.errno}).`;
    case 'cannot-start':
      return `git could not be started (${r.data.file}): ${r.data.detail}.`;
    case 'timeout':
      return `${r.data.command} took longer than ${r.data.limitMs / 1000} s and was stopped.`;
    case 'too-much-output':
      return `${r.data.command} printed more than ${r.data.limitBytes.toLocaleString('en-US')} bytes and was stopped.`;
    case 'helper-lost':
      return `${r.data.command} could not finish: ${r.data.detail}.`;
    case 'aborted':
      return `${r.data.command} was stopped.`;
  }
  return r satisfies never;
}

const MAX_STDERR_CHARS = 16 * 1024;
const NOT_FOUND = new Set(['ENOENT', 'EACCES', 'ENOTDIR', 'EISDIR']);

/** Runs git once; see the file's comment. */
export function runGit(run: GitRun): Promise<GitOutcome> {
  const command = subcommand(run.args);
  const maxStderr = run.maxStderrChars ?? MAX_STDERR_CHARS;
  return new Promise<GitOutcome>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let stopped = false;
    let failure: GitRunReason | undefined;
    let child: RunningProcess | undefined = undefined;
    let done = false;
    const stop = (why?: GitRunReason): void => {
      if (why && !failure) failure = why;
      child?.kill();
    };
    // Set before the process starts: a spawner may report the end of the run at any time after.
    const timer = setTimeout(() => stop({ code: 'timeout', data: { command, limitMs: run.timeoutMs } }), run.timeoutMs);
    const onAbort = (): void => stop({ code: 'aborted', data: { command } });
    const settle = (): void => {
      done = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
    };
    const listener: ProcessListener = {
      onStdout: (b) => {
        if (stopped || failure) return;
        size += b.length;
        if (size > run.maxOutputBytes) return stop({ code: 'too-much-output', data: { command, limitBytes: run.maxOutputBytes } });
        chunks.push(b);
        if (run.onStdout && !run.onStdout(b)) {
          stopped = true;
          stop();
        }
      },
      onStderr: (b) => {
        if (stderr.length < maxStderr) stderr += b.toString('utf8').slice(0, maxStderr - stderr.length);
      },
      onError: (e) => {
        settle();
        reject(new GitRunError(failure ?? startFailure(run.file, command, e)));
      },
      onClose: (code, signal) => {
        settle();
        if (failure) reject(new GitRunError(failure));
        else resolve({ stdout: Buffer.concat(chunks), stderr, code, signal, stopped });
      },
    };
    child = (run.spawner ?? spawner()).start({ file: run.file, args: run.args, cwd: run.cwd, env: run.env, input: run.input ?? '' }, listener);
    if (done) return; // a spawner that reported the end already (ours never does so from inside start())
    if (failure || stopped) child.kill();
    if (run.signal?.aborted) onAbort();
    else run.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function startFailure(file: string, command: string, e: NodeJS.ErrnoException): GitRunReason {
  if (e instanceof HelperLostError) return { code: 'helper-lost', data: { command, detail: e.message } };
  if (e.code && NOT_FOUND.has(e.code)) return { code: 'not-found', data: { file, errno: e.code } };
  return { code: 'cannot-start', data: { file, ...(e.code ? { errno: e.code } : {}), detail: e.message } };
}

/** `git <subcommand>` of the arguments (options and `-c`/`-C` values skipped), for messages. */
export function subcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '-C') i++;
    else if (!a.startsWith('-')) return `git ${a}`;
  }
  return 'git';
}
