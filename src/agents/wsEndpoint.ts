// The agent endpoint of a remote agent over a WebSocket (the Remote Transports RFD: one JSON-RPC
// message per text frame, binary frames ignored), with `ws` doing the framing. It turns the socket
// into the same MessageStream a process gives, so the connection reads it through the same NDJSON
// reader (line size and depth limits) and the supervisor drives it like a process: a dropped
// connection is a crash (restart with backoff, resume).
//   - limits: a frame larger than `maxMessageBytes` is refused by `ws` from its header, before it
//     is buffered, and the socket is destroyed at once (the connection ends, said so); raw line breaks in a frame (pretty-printed JSON) become spaces;
//   - back-pressure: when the connection stops reading, the socket is paused (TCP pushes back on
//     the server); what waits to be sent is bounded (`sendBufferBytes`): a server that stops
//     reading ends the connection instead of growing memory;
//   - heartbeats: a ping every `pingIntervalMs`; nothing heard for `deadAfterMs` (pongs, messages)
//     ends the connection, so a dead peer is noticed within deadAfterMs + tick (≤ 25 s by default: two pings unanswered);
//   - cookies set by the server are sent back on reconnects (RFD: session affinity), per agent.
// Part of dist/remote-agent.js (loaded on first use, see remoteAgent.ts). Free of `vscode`.
import { english, type L10n } from '../common/l10n';
import { Readable, Writable } from 'node:stream';
import WebSocket from 'ws';
import type { AgentEndpoint, EndpointExit } from './agentEndpoint';
import type { MessageStream } from '../protocol/transport/messageStream';
import { describeConnectError, describeDrop, originOf, type DropCause } from './remoteErrors';
import { CookieJar } from './cookieJar';

export { CookieJar };

/** What the endpoint needs before it connects, from its opener: headers, or why it must not connect. */
export type Preparation = { headers: Record<string, string> } | { refused: EndpointExit };

export interface WebSocketEndpointOptions {
  readonly url: string;
  /** The words of what a person reads (`vscode.l10n` in the product); English when absent. */
  readonly l10n?: L10n;
  /** Runs first (confirmation, secrets); the connection opens only with its headers. */
  prepare(): Promise<Preparation>;
  /** The largest message accepted (acp.maxLineBytes, as over stdio). */
  readonly maxMessageBytes: number;
  /** The most bytes that may wait to be sent (default 32 MiB, at least one largest message). */
  readonly sendBufferBytes?: number;
  readonly pingIntervalMs?: number;
  readonly deadAfterMs?: number;
  /** How often liveness and the send backlog are checked (default 5 s). */
  readonly tickMs?: number;
  readonly handshakeTimeoutMs?: number;
  readonly cookies?: CookieJar;
  /** How much the connection may leave unread before the socket is paused (default 1 MiB). */
  readonly readBufferBytes?: number;
  log?(level: 'info' | 'warn', message: string): void;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

export class WebSocketEndpoint implements AgentEndpoint {
  readonly stream: MessageStream;
  readonly closed: Promise<EndpointExit>;
  readonly connected: Promise<void>;
  private resolveConnected!: () => void;
  private socket: WebSocket | undefined;
  private readonly incoming: Readable;
  private readonly outgoing: Writable;
  private resolveClosed!: (exit: EndpointExit) => void;
  private ended = false;
  private opened = false;
  private openWaiter: (() => void) | undefined;
  /** Why it ended, when this side knows better than the close code (set once). */
  private cause: DropCause | undefined;
  private lastHeard = 0;
  private lastPing = 0;
  private timer: NodeJS.Timeout | undefined;
  private partial: Buffer[] = [];
  private binaryIgnored = 0;
  private readonly sendLimit: number;

  private get l10n(): L10n {
    return this.o.l10n ?? english;
  }

  constructor(private readonly o: WebSocketEndpointOptions) {
    this.sendLimit = Math.max(o.sendBufferBytes ?? 32 * 1024 * 1024, o.maxMessageBytes + 1024);
    this.incoming = new Readable({
      highWaterMark: o.readBufferBytes ?? 1024 * 1024,
      read: () => {
        if (this.socket?.isPaused) {
          this.lastHeard = Date.now(); // it was us not reading: the peer's silence meanwhile says nothing
          this.socket.resume();
        }
      },
    });
    this.outgoing = new Writable({
      highWaterMark: 1024 * 1024,
      write: (chunk: Buffer, _enc, cb) => this.write(chunk, cb),
      final: (cb) => {
        this.socket?.close(1000, 'client stopping');
        cb();
      },
    });
    this.outgoing.on('error', () => undefined); // reported through the connection's writer
    this.stream = { readable: this.incoming, writable: this.outgoing };
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.connected = new Promise((resolve) => (this.resolveConnected = resolve));
    void this.open();
  }

  /** Bytes accepted but not yet handed to the OS. */
  get backlog(): number {
    return this.outgoing.writableLength + (this.socket?.bufferedAmount ?? 0);
  }

  async stop(graceMs = 2000): Promise<EndpointExit> {
    if (!this.opened) this.finish({ description: this.l10n.t('was stopped before it connected'), detail: '' });
    else this.outgoing.end();
    const timer = setTimeout(() => this.socket?.terminate(), graceMs);
    const exit = await this.closed;
    clearTimeout(timer);
    return exit;
  }

  kill(): void {
    this.socket?.terminate();
    this.finish({ description: this.l10n.t('was disconnected'), detail: '' });
  }

  private async open(): Promise<void> {
    let prep: Preparation;
    try {
      prep = await this.o.prepare();
    } catch (err) {
      prep = {
        refused: { description: this.l10n.t('could not connect: {0}', err instanceof Error ? err.message : String(err)), detail: '', failedToOpen: true },
      };
    }
    if (this.ended) return;
    if ('refused' in prep) return this.finish(prep.refused);
    const cookie = this.o.cookies?.header();
    const timeout = this.o.handshakeTimeoutMs ?? 15000;
    const ws = new WebSocket(this.o.url, {
      headers: { ...prep.headers, ...(cookie ? { Cookie: cookie } : {}) },
      maxPayload: this.o.maxMessageBytes,
      handshakeTimeout: timeout,
      perMessageDeflate: false,
      followRedirects: false,
    });
    this.socket = ws;
    ws.on('upgrade', (res) => this.o.cookies?.take(res.headers['set-cookie']));
    ws.on('open', () => {
      this.opened = true;
      this.lastHeard = this.lastPing = Date.now();
      this.timer = setInterval(() => this.tick(), this.o.tickMs ?? 5000);
      this.timer.unref?.();
      const w = this.openWaiter;
      this.openWaiter = undefined;
      w?.();
      this.resolveConnected();
    });
    ws.on('message', (data: Buffer, isBinary: boolean) => this.receive(data, isBinary));
    ws.on('pong', () => (this.lastHeard = Date.now()));
    ws.on('ping', () => (this.lastHeard = Date.now()));
    ws.on('error', (err: Error & { code?: string }) => {
      if (!this.opened) return this.finish(describeConnectError(err, this.o.url, timeout, this.l10n));
      // Too large: ends now (`ws` would read the rest of the frame through while it closes politely).
      if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return this.drop({ kind: 'oversize', limit: this.o.maxMessageBytes });
      this.cause ??= { kind: 'error', message: err.message };
    });
    ws.on('close', (code: number, reason: Buffer) => {
      if (!this.opened)
        return this.finish({
          description: this.l10n.t('could not connect to {0}: the connection closed during the handshake', originOf(this.o.url)),
          detail: '',
          failedToOpen: true,
        });
      this.finish(describeDrop(this.cause ?? { kind: 'closed', code, reason: reason.toString('utf8') }, this.o.url, this.l10n));
    });
  }

  private receive(data: Buffer, isBinary: boolean): void {
    this.lastHeard = Date.now();
    if (this.ended) return;
    if (isBinary) {
      if (this.binaryIgnored++ === 0) this.o.log?.('warn', `ignored a binary WebSocket frame from ${this.o.url} (ACP messages are text frames)`);
      return;
    }
    // One message per frame: a raw line break can only be whitespace between JSON tokens.
    let line = data;
    if (line.includes(NEWLINE) || line.includes(CR)) {
      line = Buffer.from(line);
      for (let i = 0; i < line.length; i++) if (line[i] === NEWLINE || line[i] === CR) line[i] = 0x20;
    }
    const more = this.incoming.push(Buffer.concat([line, Buffer.of(NEWLINE)]));
    if (!more) this.socket?.pause();
  }

  private write(chunk: Buffer, cb: (err?: Error | null) => void): void {
    if (this.ended) return cb(new Error('The connection to the agent is closed.'));
    if (!this.opened) {
      this.openWaiter = () => this.write(chunk, cb);
      return;
    }
    if (this.backlog > this.sendLimit) {
      this.drop({ kind: 'backlog', bytes: this.backlog });
      return cb(new Error('The connection to the agent is closed.'));
    }
    // The writer writes whole lines; a line split over writes is joined first.
    let start = 0;
    const frames: Buffer[] = [];
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl);
      frames.push(this.partial.length ? Buffer.concat([...this.partial, piece]) : piece);
      this.partial = [];
      start = nl + 1;
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
    const ws = this.socket!;
    if (frames.length === 0) return cb();
    let done = false;
    const settle = (err?: Error | null): void => {
      if (done) return;
      done = true;
      cb(err ?? null);
    };
    frames.forEach((f, i) => ws.send(f, { binary: false }, i === frames.length - 1 ? settle : undefined));
    // Wait for the socket only when it holds much already: what waits stays bounded by `sendLimit`.
    if (ws.bufferedAmount <= 1024 * 1024) settle();
  }

  private tick(): void {
    if (this.ended || !this.socket) return;
    const now = Date.now();
    const dead = this.o.deadAfterMs ?? 20000;
    if (!this.socket.isPaused && now - this.lastHeard > dead) return this.drop({ kind: 'silent', afterMs: now - this.lastHeard });
    if (this.backlog > this.sendLimit) return this.drop({ kind: 'backlog', bytes: this.backlog });
    if (now - this.lastPing >= (this.o.pingIntervalMs ?? 10000)) {
      this.lastPing = now;
      this.socket.ping();
    }
  }

  /** This side ends an open connection, for `cause`. */
  private drop(cause: DropCause): void {
    this.cause ??= cause;
    this.socket?.terminate();
    this.finish(describeDrop(this.cause, this.o.url, this.l10n));
  }

  private finish(exit: EndpointExit): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer) clearInterval(this.timer);
    if (this.socket && this.socket.readyState !== WebSocket.CLOSED) this.socket.terminate();
    this.incoming.push(null);
    this.outgoing.destroy();
    this.resolveClosed(exit);
  }
}
