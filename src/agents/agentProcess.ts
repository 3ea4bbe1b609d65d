// One agent child process: spawned with piped stdio, stderr kept (last lines) for error messages,
// stopped gracefully (close stdin → wait → SIGTERM → wait → SIGKILL).
import { spawn, type ChildProcessWithoutNullStreams } from 'child_process';
import type { Readable, Writable } from 'stream';

export interface SpawnSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderrTail: string[];
  spawnError?: Error;
}

const STDERR_LINES = 40;

export class AgentProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly tail: string[] = [];
  private partial = '';
  private exitInfo: ExitInfo | undefined;
  private spawnError: Error | undefined;
  readonly exited: Promise<ExitInfo>;

  constructor(spec: SpawnSpec, onStderrLine: (line: string) => void) {
    this.child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      // Own process group: some agents leave helper processes behind; signals go to the group.
      detached: process.platform !== 'win32',
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      const lines = (this.partial + chunk).split(/\r?\n/);
      this.partial = lines.pop() ?? '';
      for (const l of lines) this.pushLine(l, onStderrLine);
      // An agent that never ends its stderr line must not grow memory without bound.
      if (this.partial.length > 64 * 1024) {
        this.pushLine(this.partial, onStderrLine);
        this.partial = '';
      }
    });
    // EPIPE on a dead agent's stdin must not crash the extension host; the exit is reported instead.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.once('error', (err) => {
        this.spawnError = err;
        if (this.child.pid === undefined) this.finish({ code: null, signal: null }, resolve, onStderrLine);
      });
      this.child.once('close', (code, signal) => this.finish({ code, signal }, resolve, onStderrLine));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
  get stdout(): Readable {
    return this.child.stdout;
  }
  get stdin(): Writable {
    return this.child.stdin;
  }
  get exitedInfo(): ExitInfo | undefined {
    return this.exitInfo;
  }
  get stderrTail(): string[] {
    return [...this.tail];
  }

  /** Graceful stop: close stdin, wait `graceMs`; SIGTERM, wait; SIGKILL. Resolves on exit. */
  async stop(graceMs = 2000): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.child.stdin.end();
    if (await this.waitExit(graceMs)) return this.exitInfo!;
    this.signal('SIGTERM');
    if (await this.waitExit(graceMs)) {
      this.signal('SIGKILL', true);
      return this.exitInfo!;
    }
    this.signal('SIGKILL');
    return this.exited;
  }

  /** Immediate kill (used when the extension is deactivated). */
  kill(): void {
    this.signal('SIGKILL');
  }

  /** Signals the agent's whole process group (its helpers too); falls back to the process. */
  private signal(sig: NodeJS.Signals, groupOnly = false): void {
    const pid = this.child.pid;
    if (pid !== undefined && process.platform !== 'win32') {
      try {
        process.kill(-pid, sig);
        return;
      } catch {
        /* group already gone */
      }
    }
    if (!groupOnly && !this.exitInfo) this.child.kill(sig);
  }

  private waitExit(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  private pushLine(line: string, onLine: (l: string) => void): void {
    this.tail.push(line);
    if (this.tail.length > STDERR_LINES) this.tail.shift();
    onLine(line);
  }

  private finish(r: { code: number | null; signal: NodeJS.Signals | null }, resolve: (i: ExitInfo) => void, onLine: (l: string) => void): void {
    if (this.exitInfo) return;
    if (this.partial) {
      this.pushLine(this.partial, onLine);
      this.partial = '';
    }
    this.exitInfo = { ...r, stderrTail: [...this.tail], spawnError: this.spawnError };
    resolve(this.exitInfo);
  }
}
