// The agent endpoint of a remote agent over a WebSocket (the Remote Transports RFD: one JSON-RPC
// message per text frame, binary frames ignored), with `ws` doing the framing. It turns the socket
// into the same MessageStream a process gives, so the connection reads it through the same NDJSON
// reader (line size and depth limits) and the supervisor drives it like a process: a dropped
// connection is a crash (restart with backoff, resume). Opening and closing are shared with the
// HTTP endpoint (remoteEndpoint.ts); what is the WebSocket's:
//   - limits: a frame larger than `maxMessageBytes` is refused by `ws` from its header, before it
//     is buffered, and the socket is destroyed at once (the connection ends, said so); raw line breaks in a frame (pretty-printed JSON) become spaces;
//   - back-pressure: when the connection stops reading, the socket is paused (TCP pushes back on
//     the server); what waits to be sent is bounded (`sendBufferBytes`, checked on every write):
//     a server that stops reading ends the connection instead of growing memory;
//   - where: the socket connects to the addresses the endpoint checked (remoteResolve.ts), through
//     a `lookup` that answers with them only;
//   - heartbeats: a ping every `pingIntervalMs`; nothing heard for `deadAfterMs` (pongs, messages)
//     ends the connection, so a dead peer is noticed within deadAfterMs + tick (≤ 25 s by default: two pings unanswered);
//   - cookies set by the server are sent back on reconnects (RFD: session affinity), per agent.
// Part of dist/remote-agent.js (loaded on first use, see remoteAgent.ts). Free of `vscode`.
import type { TcpNetConnectOpts } from 'node:net';
import WebSocket from 'ws';
import { connectFailure, handshakeClosed, lost } from './remoteErrors';
import { CookieJar } from './cookieJar';
import { CLOSED, RemoteEndpoint, type RemoteTransportOptions } from './remoteEndpoint';
import { pinnedLookup, type ResolvedAddress } from './remoteResolve';

export { CookieJar };

export interface WebSocketEndpointOptions extends RemoteTransportOptions {
  readonly pingIntervalMs?: number;
  readonly handshakeTimeoutMs?: number;
  readonly cookies?: CookieJar;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

export class WebSocketEndpoint extends RemoteEndpoint<WebSocketEndpointOptions> {
  private socket: WebSocket | undefined;
  private openWaiter: (() => void) | undefined;
  private lastPing = 0;
  private binaryIgnored = 0;
  /** A chunk handed to the socket whose write waits for it: counted by the socket, not twice. */
  private inFlight = 0;

  /** Bytes accepted but not yet handed to the OS. */
  override get backlog(): number {
    return this.outgoing.writableLength - this.inFlight + (this.socket?.bufferedAmount ?? 0);
  }

  protected override readMore(): void {
    if (this.socket?.isPaused) {
      this.lastHeard = Date.now(); // it was us not reading: the peer's silence meanwhile says nothing
      this.socket.resume();
    }
  }

  protected override endGracefully(): void {
    this.socket?.close(1000, 'client stopping');
  }

  protected override abort(): void {
    this.socket?.terminate();
  }

  protected override release(): void {
    this.abort();
  }

  /** The socket's `close` says how it ended once terminated. */
  protected override forceStop(): void {
    this.abort();
  }

  protected override connect(headers: Record<string, string>, addresses: readonly ResolvedAddress[]): void {
    const cookie = this.o.cookies?.header();
    const timeout = this.o.handshakeTimeoutMs ?? 15000;
    const options: WebSocket.ClientOptions & Pick<TcpNetConnectOpts, 'lookup'> = {
      headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) },
      maxPayload: this.o.maxMessageBytes,
      handshakeTimeout: timeout,
      perMessageDeflate: false,
      followRedirects: false,
      lookup: pinnedLookup(addresses), // passed on to net.connect
    };
    const ws = new WebSocket(this.o.url, options);
    this.socket = ws;
    ws.on('upgrade', (res) => this.o.cookies?.take(res.headers['set-cookie']));
    ws.on('open', () => {
      this.opened = true;
      this.lastHeard = this.lastPing = Date.now();
      this.startTicking();
      const w = this.openWaiter;
      this.openWaiter = undefined;
      w?.();
      this.markConnected();
    });
    ws.on('message', (data: Buffer, isBinary: boolean) => this.receive(data, isBinary));
    ws.on('pong', () => (this.lastHeard = Date.now()));
    ws.on('ping', () => (this.lastHeard = Date.now()));
    ws.on('error', (err: Error & { code?: string }) => {
      if (!this.opened) return this.finish(this.exit(connectFailure(err, this.o.url, timeout)));
      // Too large: ends now (`ws` would read the rest of the frame through while it closes politely).
      if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return this.drop({ kind: 'oversize', limit: this.o.maxMessageBytes });
      this.cause ??= { kind: 'error', message: err.message };
    });
    ws.on('close', (code: number, reason: Buffer) => {
      if (!this.opened) return this.finish(this.exit(handshakeClosed(this.o.url)));
      this.finish(this.exit(lost(this.cause ?? { kind: 'closed', code, reason: reason.toString('utf8') }, this.o.url)));
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

  protected override send(chunk: Buffer, cb: (err?: Error | null) => void): void {
    if (this.ended) return cb(new Error(CLOSED));
    if (!this.opened) {
      this.openWaiter = () => this.send(chunk, cb);
      return;
    }
    const frames = this.lines(chunk);
    const ws = this.socket!;
    if (frames.length === 0) return cb();
    let done = false;
    const settle = (err?: Error | null): void => {
      if (done) return;
      done = true;
      this.inFlight = 0;
      cb(err ?? null);
    };
    frames.forEach((f, i) => ws.send(f, { binary: false }, i === frames.length - 1 ? settle : undefined));
    // Wait for the socket only when it holds much already: what waits stays bounded by `sendLimit`.
    if (ws.bufferedAmount <= 1024 * 1024) settle();
    else if (!done) this.inFlight = chunk.length;
  }

  protected override tick(): void {
    if (this.ended || !this.socket) return;
    const now = Date.now();
    const dead = this.o.deadAfterMs ?? 20000;
    if (!this.socket.isPaused && now - this.lastHeard > dead) return this.drop({ kind: 'silent', afterMs: now - this.lastHeard });
    if (this.backlogStuck()) return this.drop({ kind: 'backlog', bytes: this.backlog });
    if (now - this.lastPing >= (this.o.pingIntervalMs ?? 10000)) {
      this.lastPing = now;
      this.socket.ping();
    }
  }
}
