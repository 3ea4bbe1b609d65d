// Child processes started by a small helper process instead of the extension host: runs go to the
// spawn helper (helper.ts, dist/spawn-helper.js beside the bundle that uses this), which forks and
// streams the output back. The helper starts with the first run and ends after a while without
// runs, so an idle extension host holds none. Where the helper file is missing (a test bundle) or
// the helper cannot start, processes start from this process as before. A listener is never called
// from inside start() or kill() (its caller may not have finished setting up); when the helper's
// channel closes or the helper dies, its runs fail with a HelperLostError saying why, the helper is
// killed, and the next run starts a new one. No `vscode`.
import { fork, spawn, type ChildProcess } from 'child_process';
import { existsSync } from 'fs';
import * as path from 'path';
import type { HelperMessage, HostMessage, ProcessRun } from './protocol';

export type { ProcessRun } from './protocol';

export interface ProcessListener {
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
  /** The process could not be started (errno code such as ENOENT), or its helper was lost (HelperLostError). */
  onError(e: NodeJS.ErrnoException): void;
  onClose(code: number | null, signal: string | null): void;
}

export interface RunningProcess {
  kill(): void;
}

/** The spawn helper went away under a run (its channel closed, it exited, or it was stopped); the message says which. */
export class HelperLostError extends Error {
  override readonly name = 'HelperLostError';
}

/** Where the helper is at run time: beside the bundle that holds this module. */
export const DEFAULT_SPAWN_HELPER = path.join(__dirname, 'spawn-helper.js');
/** A helper without runs for this long ends (a new run starts another). */
const IDLE_MS = 30_000;
const CHANNEL_CLOSED = "the spawn helper's channel closed";

export class Spawner {
  private helper: ChildProcess | undefined;
  private readonly runs = new Map<number, ProcessListener>();
  private nextId = 1;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly usable: boolean;

  constructor(
    private readonly helperFile = DEFAULT_SPAWN_HELPER,
    private readonly idleMs = IDLE_MS,
  ) {
    this.usable = existsSync(helperFile);
  }

  /** Whether runs go to the spawn helper (else they start from this process). */
  get usesHelper(): boolean {
    return this.usable;
  }

  /** Called when an idle helper has ended. */
  onIdleEnd: (() => void) | undefined;

  /** Whether the spawn helper is up now (it ends after `idleMs` without runs). */
  get helperRunning(): boolean {
    return !!this.helper;
  }

  /** Starts a run; the listener hears of it only after this returns. */
  start(run: ProcessRun, listener: ProcessListener): RunningProcess {
    const helper = this.usable ? this.ensureHelper() : undefined;
    if (!helper) return startHere(run, listener);
    const id = this.nextId++;
    this.runs.set(id, listener);
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const input = run.input;
    this.post({ kind: 'run', id, file: run.file, args: run.args, cwd: run.cwd, env: run.env, ...(input !== undefined ? { input } : {}) });
    return { kill: () => this.runs.has(id) && this.post({ kind: 'kill', id }) };
  }

  /** Ends the helper; runs still going are told they failed. */
  dispose(): void {
    const w = this.helper;
    this.helper = undefined;
    if (this.idle) clearTimeout(this.idle);
    this.failAll(new HelperLostError('the spawn helper was stopped'));
    w?.kill();
  }

  /** Starts the helper process (a test may watch what it forks). */
  protected forkHelper(): ChildProcess {
    return fork(this.helperFile, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      execArgv: ['--max-old-space-size=64'],
    });
  }

  private post(m: HostMessage): void {
    const w = this.helper;
    if (w?.connected) w.send(m);
    else if (w) this.lost(w, new HelperLostError(CHANNEL_CLOSED));
  }

  private ensureHelper(): ChildProcess | undefined {
    // A channel that closed before its 'disconnect' event was heard: that helper is lost already.
    if (this.helper && !this.helper.connected) this.lost(this.helper, new HelperLostError(CHANNEL_CLOSED));
    if (this.helper) return this.helper;
    let w: ChildProcess;
    try {
      w = this.forkHelper();
    } catch {
      return undefined;
    }
    // Neither the helper nor its channel keeps the extension host's process alive.
    w.unref();
    (w.channel as { unref?: () => void } | undefined)?.unref?.();
    w.on('message', (m: HelperMessage) => this.onMessage(m));
    w.on('error', (e: Error) => this.lost(w, new HelperLostError(`the spawn helper failed (${e.message})`)));
    // The channel can close while the process lives on (it would then never answer again).
    w.on('disconnect', () => this.lost(w, new HelperLostError(CHANNEL_CLOSED)));
    w.on('exit', (code, signal) => this.lost(w, new HelperLostError(`the spawn helper exited (${signal ?? `code ${code}`})`)));
    this.helper = w;
    return w;
  }

  private onMessage(m: HelperMessage): void {
    const l = this.runs.get(m.id);
    if (!l) return;
    switch (m.kind) {
      case 'stdout':
        return l.onStdout(toBuffer(m.chunk));
      case 'stderr':
        return l.onStderr(toBuffer(m.chunk));
      case 'error':
        this.finished(m.id);
        return l.onError(Object.assign(new Error(m.message), m.code ? { code: m.code } : {}));
      case 'close':
        this.finished(m.id);
        return l.onClose(m.code, m.signal);
    }
  }

  private finished(id: number): void {
    this.runs.delete(id);
    if (this.runs.size > 0 || !this.helper) return;
    const w = this.helper;
    this.idle = setTimeout(() => {
      if (this.helper !== w || this.runs.size > 0) return;
      this.helper = undefined;
      w.once('exit', () => this.onIdleEnd?.());
      w.kill();
    }, this.idleMs);
    this.idle.unref?.();
  }

  /** The helper went away under its runs: they fail, and it is killed (it kills their processes as it goes). */
  private lost(w: ChildProcess, e: HelperLostError): void {
    if (this.helper !== w) return;
    this.helper = undefined;
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    this.failAll(e);
    w.kill();
  }

  /** Every run fails, each in a microtask of its own: never inside start() or kill(), and one listener's throw stops no other. */
  private failAll(e: HelperLostError): void {
    const runs = [...this.runs.values()];
    this.runs.clear();
    for (const l of runs) queueMicrotask(() => l.onError(e));
  }
}

function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** A process started from this process (no helper file, or the helper could not start). */
function startHere(run: ProcessRun, l: ProcessListener): RunningProcess {
  let done = false;
  let child;
  try {
    child = spawn(run.file, [...run.args], { cwd: run.cwd, env: run.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, shell: false });
  } catch (e) {
    queueMicrotask(() => l.onError(e as NodeJS.ErrnoException));
    return { kill: () => undefined };
  }
  child.stdout.on('data', (b: Buffer) => l.onStdout(b));
  child.stderr.on('data', (b: Buffer) => l.onStderr(b));
  child.stdin.on('error', () => undefined);
  child.stdin.end(run.input ?? '');
  child.on('error', (e: NodeJS.ErrnoException) => {
    if (done) return;
    done = true;
    l.onError(e);
  });
  child.on('close', (code, signal) => {
    if (done) return;
    done = true;
    l.onClose(code, signal);
  });
  return { kill: () => child.kill('SIGKILL') };
}

let shared: Spawner | undefined;
/** The spawner of this bundle (one helper for all its runs). */
export function spawner(): Spawner {
  shared ??= new Spawner();
  return shared;
}

/** Puts `s` in place of this bundle's spawner (a test's helper of its own); returns the one it replaced. */
export function replaceSpawner(s: Spawner | undefined): Spawner | undefined {
  const old = shared;
  shared = s;
  return old;
}
