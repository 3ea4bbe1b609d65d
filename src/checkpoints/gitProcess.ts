// git as a child process, and nothing else of the workspace: every run gets a clean environment
// (no inherited GIT_* variable, no system or global configuration, HOME an empty folder of ours)
// and our own configuration on the command line, so no hook, filter, diff driver, fsmonitor,
// pager or credential helper the workspace or the user configured can run. Output is bounded,
// each run has a time limit, and paths go through stdin, never through a shell (the run itself is
// common/git/runGit.ts; this adds the policy: environment, configuration, closing, failing codes).
import * as os from 'node:os';
import { GitRunError, runGit, subcommand, type GitOutcome, type GitRun } from '../common/git/runGit';
import { CheckpointError, checkpointReason, GitMissingError } from './errors';
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
  private readonly closing = new AbortController();

  constructor(
    readonly git: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly cwd: string,
    private readonly config: readonly string[],
    /** What starts git; default the bundle's spawner (common/spawn). */
    private readonly spawner?: GitRun['spawner'],
  ) {}

  /** Resolves when git exits with 0 (or an ok code, or onStdout stopped it); rejects with a CheckpointError saying why otherwise. */
  async run(args: readonly string[], opts: GitRunOptions = {}): Promise<GitResult> {
    if (this.closing.signal.aborted) throw new CheckpointError({ code: 'closed', data: {} });
    let out: GitOutcome;
    try {
      out = await runGit({
        file: this.git,
        args: ['--no-pager', ...this.config, ...args],
        cwd: this.cwd,
        env: this.env,
        input: opts.input ?? '',
        maxOutputBytes: opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
        timeoutMs: opts.timeoutMs ?? GIT_TIMEOUT_MS,
        maxStderrChars: MAX_STDERR_CHARS,
        signal: this.closing.signal,
        ...(opts.onStdout ? { onStdout: opts.onStdout } : {}),
        ...(this.spawner ? { spawner: this.spawner } : {}),
      });
    } catch (e) {
      throw this.failure(e);
    }
    if (this.closing.signal.aborted) throw new CheckpointError({ code: 'closed', data: {} });
    const { code, signal, stopped } = out;
    const result: GitResult = { stdout: out.stdout, stderr: out.stderr, code: code ?? -1, stopped };
    if (stopped || code === 0 || (code !== null && opts.okCodes?.(code))) return result;
    const stderr = out.stderr.trim().split('\n')[0] ?? '';
    throw new CheckpointError({ code: 'git-failed', data: { command: subcommand(args), exitCode: code, signal, stderr } });
  }

  /** Kills every git this runner started; later runs reject. */
  close(): void {
    this.closing.abort();
  }

  private failure(e: unknown): CheckpointError {
    if (!(e instanceof GitRunError)) return new CheckpointError(checkpointReason(e));
    const r = e.reason;
    switch (r.code) {
      case 'not-found':
        return new GitMissingError({ git: this.git, errno: r.data.errno });
      case 'cannot-start':
        return new CheckpointError({ code: 'git-cannot-start', data: { git: this.git, detail: r.data.detail } });
      case 'timeout':
        return new CheckpointError({ code: 'git-timeout', data: { command: r.data.command, seconds: r.data.limitMs / 1000 } });
      case 'too-much-output':
        return new CheckpointError({ code: 'git-output-over', data: { command: r.data.command, maxBytes: r.data.limitBytes } });
      case 'helper-lost':
        return new CheckpointError({ code: 'git-helper-lost', data: r.data });
      case 'aborted':
        return new CheckpointError({ code: 'closed', data: {} });
    }
    return r satisfies never;
  }
}
