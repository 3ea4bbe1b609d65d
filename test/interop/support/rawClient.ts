// A raw NDJSON JSON-RPC driver: spawns an agent and exchanges JSON lines with it, without our
// protocol layer. Used by the smoke tests that prove each real agent runs a turn offline, and to
// see exactly what real agents send. Every message both ways is kept in `traffic`.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Launch } from './agents';

export type Msg = {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};
export interface TrafficEntry {
  dir: 'send' | 'receive';
  at: number;
  msg: Msg;
}

/** Answers an agent → client request; throw `{code, message}` for an error response. */
export type RequestHandler = (method: string, params: unknown) => Promise<unknown> | unknown;

/** Ends what is left of the process group of an agent we started (its helper processes). */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export class RawClient {
  readonly traffic: TrafficEntry[] = [];
  readonly stderr: string[] = [];
  private readonly child: ChildProcess;
  private nextId = 1;
  private buf = '';
  private readonly pending = new Map<number | string, { resolve: (v: unknown) => void; reject: (e: Error) => void; method: string }>();
  private readonly listeners = new Set<(m: Msg) => void>();
  readonly exited: Promise<number | null>;

  constructor(
    launch: Launch,
    private readonly onRequest: RequestHandler,
  ) {
    this.child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (d: string) => this.onData(d));
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (d: string) => this.stderr.push(d));
    this.child.stdin!.on('error', () => {
      /* the agent went away; pending requests fail below */
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        for (const p of this.pending.values()) p.reject(new Error(`agent exited (${code}) during ${p.method}; stderr: ${this.stderr.join('').slice(-2000)}`));
        this.pending.clear();
        resolve(code);
      }),
    );
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private onData(d: string): void {
    this.buf += d;
    let nl: number;
    while ((nl = this.buf.indexOf('\n')) >= 0) {
      const line = this.buf.slice(0, nl).trim();
      this.buf = this.buf.slice(nl + 1);
      if (!line) continue;
      let msg: Msg;
      try {
        msg = JSON.parse(line) as Msg;
      } catch {
        this.stderr.push(`[non-JSON stdout] ${line}\n`);
        continue;
      }
      this.traffic.push({ dir: 'receive', at: Date.now(), msg });
      this.dispatch(msg);
    }
  }

  private dispatch(msg: Msg): void {
    for (const l of this.listeners) l(msg);
    if (msg.method && msg.id !== undefined && msg.id !== null) {
      const id = msg.id;
      Promise.resolve()
        .then(() => this.onRequest(msg.method!, msg.params))
        .then((result) => this.write({ jsonrpc: '2.0', id, result: result ?? {} }))
        .catch((e: unknown) => {
          const err = e instanceof RpcError ? e : new RpcError(-32603, e instanceof Error ? e.message : String(e));
          this.write({ jsonrpc: '2.0', id, error: { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) } });
        });
    } else if (!msg.method && msg.id !== undefined && msg.id !== null) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new RpcError(msg.error.code, `${p.method}: ${msg.error.message}`, msg.error.data));
      else p.resolve(msg.result);
    }
  }

  private write(msg: Msg): void {
    this.traffic.push({ dir: 'send', at: Date.now(), msg });
    if (this.child.stdin!.writable) this.child.stdin!.write(`${JSON.stringify(msg)}\n`);
  }

  request<T = unknown>(method: string, params: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, method });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** Resolves with the first received message matching `pred` (already received ones included). */
  waitFor(pred: (m: Msg) => boolean, what: string, timeoutMs = 60_000): Promise<Msg> {
    const hit = this.traffic.find((t) => t.dir === 'receive' && pred(t.msg));
    if (hit) return Promise.resolve(hit.msg);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(l);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const l = (m: Msg) => {
        if (pred(m)) {
          clearTimeout(timer);
          this.listeners.delete(l);
          resolve(m);
        }
      };
      this.listeners.add(l);
    });
  }

  received(): Msg[] {
    return this.traffic.filter((t) => t.dir === 'receive').map((t) => t.msg);
  }

  /** Session updates received so far (`params.update`). */
  updates(): Record<string, unknown>[] {
    return this.received()
      .filter((m) => m.method === 'session/update')
      .map((m) => (m.params as { update: Record<string, unknown> }).update);
  }

  /** Closes stdin, then terminates the process if it does not exit on its own. */
  async close(graceMs = 500): Promise<void> {
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGTERM'), graceMs);
    const killTimer = setTimeout(() => this.child.kill('SIGKILL'), graceMs * 2);
    await this.exited;
    clearTimeout(timer);
    clearTimeout(killTimer);
    killGroup(this.child.pid);
  }
}
