// A tiny ACP client for tests: spawns dist/demo-agent.js over real pipes, speaks NDJSON JSON-RPC,
// records every message the agent sends and validates each one against the official schema.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { agentJs } from './paths';
import type { Message, SchemaCheck, SchemaName } from './schemaCheck';

export type AgentRequestHandler = (message: Message) => unknown;

export interface ClientOptions {
  env?: Record<string, string>;
  args?: string[];
  /** Schemas every agent message is checked against, once the version is known. */
  schemas?: (version: 1 | 2) => SchemaName[];
}

interface Waiter {
  from: number;
  pred(m: Message): boolean;
  resolve(m: Message): void;
  reject(e: Error): void;
}

export class AgentError extends Error {
  constructor(readonly error: { code: number; message: string; data?: unknown }) {
    super(`agent error ${error.code}: ${error.message}`);
  }
}

export class DemoClient {
  /** Every message the agent sent, in order. */
  readonly received: Message[] = [];
  /** Schema problems found so far (message index, schema, problems). */
  readonly problems: string[] = [];
  stderr = '';
  version: 1 | 2 | undefined;
  onAgentRequest: AgentRequestHandler = (m) => {
    throw new Error(`unexpected agent request ${m.method}`);
  };
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly sent = new Map<string | number, { method: string; resolve(r: unknown): void; reject(e: Error): void }>();
  private readonly waiters: Waiter[] = [];
  private nextId = 1;
  private buffer: Buffer[] = [];
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(
    private readonly check: SchemaCheck,
    private readonly options: ClientOptions = {},
  ) {
    this.proc = spawn(process.execPath, [agentJs(), ...(options.args ?? [])], {
      env: { ...process.env, ACP_DEMO_DELAY_MS: '0', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.proc.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.proc.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.proc.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.proc.on('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        const err = new Error(`agent exited (code ${code}, signal ${signal}); stderr:\n${this.stderr}`);
        for (const w of this.waiters.splice(0)) w.reject(err);
        for (const s of this.sent.values()) s.reject(err);
        this.sent.clear();
        resolve({ code, signal });
      });
    });
  }

  request(method: string, params: object): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.sent.set(id, { method, resolve, reject });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: object): void {
    this.write({ jsonrpc: '2.0', method, params });
  }

  writeRaw(text: string): void {
    this.proc.stdin.write(text);
  }

  /** Resolves with the first message (at index ≥ from) that matches. */
  waitFor(pred: (m: Message) => boolean, from = 0): Promise<Message> {
    const hit = this.received.slice(from).find(pred);
    if (hit) return Promise.resolve(hit);
    if (this.exitInfo) return Promise.reject(new Error(`agent already exited; stderr:\n${this.stderr}`));
    return new Promise((resolve, reject) => this.waiters.push({ from, pred, resolve, reject }));
  }

  /** The `update` objects of the `session/update`s received, optionally from index `from`. */
  updates(from = 0): Record<string, unknown>[] {
    return this.received
      .slice(from)
      .filter((m) => m.method === 'session/update')
      .map((m) => (m.params as { update: Record<string, unknown> }).update);
  }

  async close(): Promise<void> {
    if (!this.exitInfo) {
      this.proc.stdin.end();
      const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5000);
      await this.exited;
      clearTimeout(timer);
    }
  }

  private write(message: object): void {
    this.proc.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    let nl = chunk.indexOf(0x0a);
    while (nl !== -1) {
      this.buffer.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this.buffer).toString('utf8');
      this.buffer = [];
      if (line.trim()) this.onMessage(JSON.parse(line) as Message);
      start = nl + 1;
      nl = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) this.buffer.push(chunk.subarray(start));
  }

  private onMessage(message: Message): void {
    const index = this.received.length;
    this.received.push(message);
    const pending = message.method === undefined && message.id !== undefined && message.id !== null ? this.sent.get(message.id) : undefined;
    if (pending?.method === 'initialize' && message.result) {
      this.version = (message.result as { protocolVersion: 1 | 2 }).protocolVersion;
    }
    this.validate(index, message, pending?.method);
    if (pending) {
      this.sent.delete(message.id as string | number);
      if (message.error) pending.reject(new AgentError(message.error as AgentError['error']));
      else pending.resolve(message.result);
    }
    for (const w of [...this.waiters]) {
      if (index >= w.from && w.pred(message)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
    if (typeof message.method === 'string' && message.id !== undefined) void this.answer(message);
  }

  private validate(index: number, message: Message, requestMethod: string | undefined): void {
    if (!this.version) {
      this.problems.push(`#${index} arrived before the initialize answer: ${JSON.stringify(message)}`);
      return;
    }
    const schemas = this.options.schemas?.(this.version) ?? [this.version === 1 ? 'v1.unstable' : 'v2.unstable'];
    for (const schema of schemas) {
      const problems = this.check.check(schema, message, requestMethod);
      if (problems.length > 0) this.problems.push(`#${index} (${schema}) ${JSON.stringify(message).slice(0, 400)}\n    ${problems.join('\n    ')}`);
    }
  }

  private async answer(message: Message): Promise<void> {
    try {
      const result = await this.onAgentRequest(message);
      this.write({ jsonrpc: '2.0', id: message.id, result });
    } catch (err) {
      const error = err instanceof AgentError ? err.error : { code: -32603, message: err instanceof Error ? err.message : String(err) };
      this.write({ jsonrpc: '2.0', id: message.id, error });
    }
  }
}

/** Client capabilities / info for initialize requests. */
export const CLIENT_INFO = { name: 'demo-agent-test', title: 'Demo Agent test', version: '0.0.0' };

export function initV2(): object {
  return { protocolVersion: 2, info: CLIENT_INFO, capabilities: {} };
}

export function initV1(clientCapabilities: object = {}): object {
  return { protocolVersion: 1, clientCapabilities, clientInfo: CLIENT_INFO };
}

export function text(t: string): { type: 'text'; text: string } {
  return { type: 'text', text: t };
}
