// git as a child process, and nothing else of the workspace: every run gets a clean environment
// (no inherited GIT_* variable, no system or global configuration, HOME an empty folder of ours)
// and our own configuration on the command line, so no hook, filter, diff driver, fsmonitor,
// pager or credential helper the workspace or the user configured can run. Output is bounded,
// each run has a time limit, and paths go through stdin, never through a shell.
import * as os from 'node:os';
import { spawner, type RunningProcess } from '../common/spawn/spawner';
import { CheckpointError, GitMissingError } from './errors';
import { IDENTITY } from './looseWrite';

/** The longest a single git run may take before it is stopped. */
export const GIT_TIMEOUT_MS = 120_000;
/** The most standard output a git run may produce unless the caller says otherwise. */
export const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
const MAX_STDERR_CHARS = 16 * 1024;

export interface GitRunOptions {
  readonly input?: Buffer | string;
  readonly maxOutputBytes?: number;
  readonly timeoutMs?: number;
  /** Exit codes that are answers rather than failures (git merge-file: the number of conflicts). */
  readonly okCodes?: (code: number) => boolean;
  /** Sees each chunk of standard output; returning false stops git (the output read so far is kept). */
  readonly onStdout?: (chunk: Buffer) => boolean;
}

export interface GitResult {
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly code: number;
  /** onStdout asked to stop. */
  readonly stopped: boolean;
}

/**
 * The configuration every run gets on its command line, over anything in a configuration file:
 * hooks from an empty folder of ours, no fsmonitor, no untracked cache, no line-ending or
 * attribute conversion, no automatic gc, no signing, no transport, no renames.
 */
export function safeConfig(emptyDir: string): string[] {
  const pairs: [string, string][] = [
    ['core.hooksPath', emptyDir],
    ['core.fsmonitor', 'false'],
    ['core.untrackedCache', 'false'],
    ['core.autocrlf', 'false'],
    ['core.safecrlf', 'false'],
    ['core.attributesFile', os.devNull],
    ['core.excludesFile', os.devNull],
    ['core.logAllRefUpdates', 'false'],
    ['core.sparseCheckout', 'false'],
    ['core.quotePath', 'false'],
    ['gc.auto', '0'],
    ['maintenance.auto', 'false'],
    ['commit.gpgSign', 'false'],
    ['protocol.allow', 'never'],
    ['submodule.recurse', 'false'],
    ['diff.renames', 'false'],
    ['repack.writeBitmaps', 'false'],
    ['init.defaultBranch', 'checkpoints'],
  ];
  return pairs.flatMap(([k, v]) => ['-c', `${k}=${v}`]);
}

/**
 * The environment of every run: the given one without any GIT_* variable (case-insensitively:
 * Windows), with HOME and XDG_CONFIG_HOME pointing to an empty folder of ours, no system or global
 * configuration or attributes, no prompts, no optional locks, literal pathspecs, and our identity.
 */
export function cleanEnv(base: NodeJS.ProcessEnv, emptyDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!/^GIT_/i.test(k) && v !== undefined) env[k] = v;
  return {
    ...env,
    HOME: emptyDir,
    XDG_CONFIG_HOME: emptyDir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_PAGER: 'cat',
    GIT_AUTHOR_NAME: IDENTITY.name,
    GIT_AUTHOR_EMAIL: IDENTITY.email,
    GIT_COMMITTER_NAME: IDENTITY.name,
    GIT_COMMITTER_EMAIL: IDENTITY.email,
    ...extra,
  };
}

/** Runs git with one environment, configuration and folder; kills what it started when told to. */
export class GitRunner {
  private readonly running = new Set<RunningProcess>();
  private closed = false;

  constructor(
    readonly git: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly cwd: string,
    private readonly config: readonly string[],
  ) {}

  run(args: readonly string[], opts: GitRunOptions = {}): Promise<GitResult> {
    if (this.closed) return Promise.reject(new CheckpointError('Checkpoints were closed.'));
    const max = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const what = `git ${args.find((a) => !a.startsWith('-')) ?? ''}`.trim();
    return new Promise<GitResult>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let stderr = '';
      let failure: Error | undefined;
      let stopped = false;
      const stop = (err?: Error): void => {
        if (err && !failure) failure = err;
        child.kill();
      };
      const settle = (): void => {
        clearTimeout(timer);
        this.running.delete(child);
      };
      const child = spawner().start(
        { file: this.git, args: ['--no-pager', ...this.config, ...args], cwd: this.cwd, env: this.env, input: opts.input ?? '' },
        {
          onStdout: (b) => {
            if (stopped || failure) return;
            size += b.length;
            if (size > max) {
              stop(new CheckpointError(`${what} printed more than ${max.toLocaleString('en-US')} bytes and was stopped.`));
              return;
            }
            chunks.push(b);
            if (opts.onStdout && !opts.onStdout(b)) {
              stopped = true;
              child.kill();
            }
          },
          onStderr: (b) => {
            if (stderr.length < MAX_STDERR_CHARS) stderr += b.toString('utf8').slice(0, MAX_STDERR_CHARS - stderr.length);
          },
          onError: (e) => {
            settle();
            reject(failure ?? this.spawnError(e));
          },
          onClose: (code, signal) => {
            settle();
            if (failure) return reject(failure);
            if (this.closed) return reject(new CheckpointError('Checkpoints were closed.'));
            const result: GitResult = { stdout: Buffer.concat(chunks), stderr, code: code ?? -1, stopped };
            if (stopped || code === 0 || (code !== null && opts.okCodes?.(code))) return resolve(result);
            const first = stderr.trim().split('\n')[0] ?? '';
            const how = code === null ? `was killed (${signal ?? 'signal'})` : `exited with code ${code}`;
            reject(new CheckpointError(`${what} ${how}${first ? `: ${first}` : ''}.`));
          },
        },
      );
      this.running.add(child);
      const timer = setTimeout(
        () => stop(new CheckpointError(`${what} took longer than ${GIT_TIMEOUT_MS / 1000} s and was stopped.`)),
        opts.timeoutMs ?? GIT_TIMEOUT_MS,
      );
    });
  }

  /** Kills every git this runner started; later runs reject. */
  close(): void {
    this.closed = true;
    for (const child of this.running) child.kill();
  }

  private spawnError(e: unknown): Error {
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR' || code === 'EISDIR')
      return new GitMissingError(
        `git was not found (${this.git}: ${code}): checkpoints are off; install git (or put it on the PATH) to have the workspace checkpointed.`,
      );
    return new CheckpointError(`git could not be started (${this.git}): ${e instanceof Error ? e.message : String(e)}.`);
  }
}
