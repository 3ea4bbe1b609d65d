// Shared by the transport tests: an RpcConnection over in-memory pipes, with what we write to the
// agent collected line by line.
import { PassThrough } from 'node:stream';
import type { LogLevel, ProtocolLogger } from '../../../src/protocol/api';
import { RpcConnection } from '../../../src/protocol/transport/rpcConnection';

/** Collects the lines we write to the agent and hands them out parsed, in order. */
export class SentLines {
  private buf = '';
  private readonly lines: string[] = [];
  private waiters: ((line: string) => void)[] = [];
  constructor(stream: NodeJS.ReadableStream) {
    stream.setEncoding('utf8');
    stream.on('data', (s: string) => {
      this.buf += s;
      let nl: number;
      while ((nl = this.buf.indexOf('\n')) !== -1) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        const w = this.waiters.shift();
        if (w) w(line);
        else this.lines.push(line);
      }
    });
  }
  nextLine(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  async next(): Promise<Record<string, unknown>> {
    return JSON.parse(await this.nextLine()) as Record<string, unknown>;
  }
}

export interface LogEntry {
  level: LogLevel;
  message: string;
}

export function setup(options: { maxLineBytes?: number } = {}) {
  const agentOut = new PassThrough();
  const agentIn = new PassThrough();
  const logs: LogEntry[] = [];
  const wire: { direction: 'send' | 'receive'; message: unknown }[] = [];
  const logger: ProtocolLogger = {
    log: (level, message) => {
      logs.push({ level, message });
    },
    wire: (direction, message) => {
      wire.push({ direction, message });
    },
  };
  const rpc = new RpcConnection({ readable: agentOut, writable: agentIn }, { logger, maxLineBytes: options.maxLineBytes });
  const sent = new SentLines(agentIn);
  const send = (m: unknown): void => {
    agentOut.write(typeof m === 'string' ? m : `${JSON.stringify(m)}\n`);
  };
  return { agentOut, agentIn, rpc, sent, send, logs, wire };
}

export function closedPromise(rpc: RpcConnection): Promise<{ error?: Error }> {
  return new Promise((resolve) => rpc.onClose(resolve));
}
