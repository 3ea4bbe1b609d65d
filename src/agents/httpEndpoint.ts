// The agent endpoint of a remote agent over streamable HTTP (the Remote Transports RFD: `initialize`
// POSTed and answered 200 with an `Acp-Connection-Id`; every other message POSTed, answered 202;
// what the agent sends arrives on long-lived SSE GET streams, one for the connection and one per
// session; DELETE ends it). The official ACP SDK's HTTP client (`@agentclientprotocol/sdk`
// experimental/http-client, over the runtime's fetch) does the HTTP and SSE framing and the
// routing by connection and session; this turns its message stream into the same MessageStream a
// process gives, so the connection reads it through the same NDJSON reader (line size and depth
// limits) and the supervisor drives it like a process: a dropped connection is a crash.
//   - limits: an SSE event or response larger than `maxMessageBytes` ends the connection (the SDK
//     refuses it before it is whole), said so;
//   - back-pressure: every SSE body goes through a gate that reads on only while the connection
//     has taken what came before (at most `readBufferBytes` unread), so a slow client pauses the
//     server's streams (TCP pushes back) instead of buffering; what waits to be sent is bounded
//     (`sendBufferBytes`) as over a WebSocket;
//   - heartbeats: servers built on the SDK send an SSE comment every 15 s on an idle stream; once
//     one has been seen, nothing heard for `deadAfterMs` (25 s) ends the connection (a dead peer
//     is noticed within deadAfterMs + tick ≤ 30 s). A server that never sends them is not timed;
//   - cookies set by the server are sent back on every request and on reconnects (session
//     affinity), per agent.
// Part of dist/remote-agent.js (loaded on first use, see remoteAgent.ts). Free of `vscode`.
import { english, type L10n } from '../common/l10n';
import { Readable, Writable } from 'node:stream';
import { createHttpStream, MemoryAcpCookieStore, type AcpCookieStore } from '@agentclientprotocol/sdk/experimental/http-client';
import type { AgentEndpoint, EndpointExit } from './agentEndpoint';
import type { MessageStream } from '../protocol/transport/messageStream';
import type { Preparation } from './wsEndpoint';
import { describeConnectError, describeDrop, type DropCause } from './remoteErrors';

export { MemoryAcpCookieStore, type AcpCookieStore };

type AnyMessage = ReturnType<typeof createHttpStream> extends { writable: WritableStream<infer M> } ? M : never;

export interface HttpEndpointOptions {
  readonly url: string;
  /** The words of what a person reads (`vscode.l10n` in the product); English when absent. */
  readonly l10n?: L10n;
  /** Runs first (confirmation, secrets); nothing is sent without its headers. */
  prepare(): Promise<Preparation>;
  /** The largest message accepted (acp.maxLineBytes, as over stdio). */
  readonly maxMessageBytes: number;
  readonly sendBufferBytes?: number;
  readonly readBufferBytes?: number;
  readonly deadAfterMs?: number;
  readonly tickMs?: number;
  readonly cookies?: AcpCookieStore;
  /** The runtime's fetch unless given (tests). */
  readonly fetch?: typeof globalThis.fetch;
  log?(level: 'info' | 'warn', message: string): void;
}

const NEWLINE = 0x0a;

export class HttpEndpoint implements AgentEndpoint {
  readonly stream: MessageStream;
  readonly closed: Promise<EndpointExit>;
  /** After the confirmation and secrets (the connection itself is made by the `initialize` POST). */
  readonly connected: Promise<void>;
  private readonly incoming: Readable;
  private readonly outgoing: Writable;
  private resolveClosed!: (exit: EndpointExit) => void;
  private writer: WritableStreamDefaultWriter<AnyMessage> | undefined;
  private ready: Promise<boolean>;
  private ended = false;
  /** Answered `initialize` (the connection exists on the server). */
  private opened = false;
  private partial: Buffer[] = [];
  private queued = 0;
  private readonly sendLimit: number;
  private gateWaiters: (() => void)[] = [];
  private lastHeard = 0;
  private keepAlives = false;
  private timer: NodeJS.Timeout | undefined;

  private get l10n(): L10n {
    return this.o.l10n ?? english;
  }

  constructor(private readonly o: HttpEndpointOptions) {
    this.sendLimit = Math.max(o.sendBufferBytes ?? 32 * 1024 * 1024, o.maxMessageBytes + 1024);
    this.incoming = new Readable({
      highWaterMark: o.readBufferBytes ?? 1024 * 1024,
      read: () => this.openGate(),
    });
    this.outgoing = new Writable({
      highWaterMark: 1024 * 1024,
      write: (chunk: Buffer, _enc, cb) =>
        void this.write(chunk).then(
          () => cb(),
          (err: Error) => cb(err),
        ),
      final: (cb) => {
        void this.writer?.close().catch(() => undefined);
        cb();
      },
    });
    this.outgoing.on('error', () => undefined); // reported through the connection's writer
    this.stream = { readable: this.incoming, writable: this.outgoing };
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.ready = this.open();
    this.connected = this.ready.then((ok) => (ok ? undefined : new Promise<void>(() => undefined)));
  }

  async stop(graceMs = 2000): Promise<EndpointExit> {
    if (!this.opened) this.finish({ description: this.l10n.t('was stopped before it connected'), detail: '' });
    else this.outgoing.end();
    const timer = setTimeout(() => this.kill(), graceMs);
    const exit = await this.closed;
    clearTimeout(timer);
    return exit;
  }

  kill(): void {
    void this.writer?.abort().catch(() => undefined);
    this.finish({ description: this.l10n.t('was disconnected'), detail: '' });
  }

  private async open(): Promise<boolean> {
    let prep: Preparation;
    try {
      prep = await this.o.prepare();
    } catch (err) {
      prep = {
        refused: { description: this.l10n.t('could not connect: {0}', err instanceof Error ? err.message : String(err)), detail: '', failedToOpen: true },
      };
    }
    if (this.ended) return false;
    if ('refused' in prep) {
      this.finish(prep.refused);
      return false;
    }
    const sdk = createHttpStream(this.o.url, {
      headers: prep.headers,
      maxMessageBytes: this.o.maxMessageBytes,
      fetch: (input, init) => this.fetch(input, init),
      ...(this.o.cookies ? { cookieStore: this.o.cookies } : {}),
    });
    this.writer = sdk.writable.getWriter();
    void this.writer.closed.catch(() => undefined);
    void this.pump(sdk.readable.getReader());
    return true;
  }

  /** The runtime's fetch, with every SSE body behind the gate (back-pressure) and heard (liveness). */
  private async fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const res = await (this.o.fetch ?? globalThis.fetch)(input, init);
    if (init?.method !== 'GET' || !res.body || !res.ok) return res;
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        pull: async (c) => {
          await this.gate();
          const r = await reader.read();
          if (r.done) return c.close();
          this.heard(r.value);
          c.enqueue(r.value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  }

  private heard(chunk: Uint8Array): void {
    this.lastHeard = Date.now();
    if (!this.keepAlives && chunk[0] === 0x3a /* ':' an SSE comment, the SDK server's keep-alive */) {
      this.keepAlives = true;
      this.timer ??= setInterval(() => this.tick(), this.o.tickMs ?? 5000);
      this.timer.unref?.();
    }
  }

  private tick(): void {
    if (this.ended || this.incoming.readableLength >= this.incoming.readableHighWaterMark) return;
    const silent = Date.now() - this.lastHeard;
    if (silent > (this.o.deadAfterMs ?? 25000)) this.drop({ kind: 'silent', afterMs: silent });
  }

  /** Resolves once the connection has taken what it was given (the socket reads on). */
  private gate(): Promise<void> {
    if (this.incoming.readableLength < this.incoming.readableHighWaterMark) return Promise.resolve();
    return new Promise((resolve) => this.gateWaiters.push(resolve));
  }

  private openGate(): void {
    this.lastHeard = Date.now(); // it was us not reading: the peer's silence meanwhile says nothing
    const w = this.gateWaiters;
    this.gateWaiters = [];
    for (const f of w) f();
  }

  private async pump(reader: ReadableStreamDefaultReader<AnyMessage>): Promise<void> {
    try {
      for (;;) {
        const r = await reader.read();
        if (r.done) return this.finish(describeDrop({ kind: 'closed', code: 1000, reason: '' }, this.o.url, this.l10n));
        if (!this.opened) {
          this.opened = true;
          this.lastHeard = Date.now();
        }
        if (this.ended) return;
        this.incoming.push(Buffer.from(`${JSON.stringify(r.value)}\n`));
      }
    } catch (err) {
      this.failed(err);
    }
  }

  private async write(chunk: Buffer): Promise<void> {
    if (this.ended || !(await this.ready) || !this.writer) throw new Error('The connection to the agent is closed.');
    // The writer writes whole lines; a line split over writes is joined first.
    let start = 0;
    const lines: Buffer[] = [];
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl);
      lines.push(this.partial.length ? Buffer.concat([...this.partial, piece]) : piece);
      this.partial = [];
      start = nl + 1;
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
    for (const line of lines) {
      if (line.length === 0) continue;
      if (this.queued + line.length > this.sendLimit) {
        this.drop({ kind: 'backlog', bytes: this.queued + line.length });
        throw new Error('The connection to the agent is closed.');
      }
      this.queued += line.length;
      // Each POST is sent in order; it is answered at once (202) except `initialize`.
      const sent = this.writer.write(JSON.parse(line.toString('utf8')) as AnyMessage);
      void sent.then(
        () => (this.queued -= line.length),
        (err: unknown) => this.failed(err),
      );
      if (!this.opened) await sent.catch(() => undefined); // initialize: nothing else goes before its answer
    }
  }

  /** The SDK's stream failed: before `initialize` was answered it never opened. */
  private failed(err: unknown): void {
    if (this.ended) return;
    const e = err instanceof Error ? err : new Error(String(err));
    if (e.name === 'MessageTooLargeError') return this.drop({ kind: 'oversize', limit: this.o.maxMessageBytes });
    const cause = (e as { cause?: Error & { code?: string } }).cause;
    const status = /failed: (\d{3})\b/.exec(e.message)?.[1];
    if (!this.opened) {
      const shaped: Error & { code?: string } = status ? new Error(`Unexpected server response: ${status}`) : (cause ?? e);
      return this.finish(describeConnectError(shaped, this.o.url, 0, this.l10n, true));
    }
    const message = /SSE stream closed/.test(e.message) ? this.l10n.t('the server closed its event stream') : (cause?.message ?? e.message);
    this.drop({ kind: 'error', message });
  }

  private drop(cause: DropCause): void {
    void this.writer?.abort().catch(() => undefined);
    this.finish(describeDrop(cause, this.o.url, this.l10n));
  }

  private finish(exit: EndpointExit): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer) clearInterval(this.timer);
    this.openGate();
    this.incoming.push(null);
    this.outgoing.destroy();
    this.resolveClosed(exit);
  }
}
