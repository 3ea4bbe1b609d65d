// The agent endpoint of a remote agent over streamable HTTP (the Remote Transports RFD: `initialize`
// POSTed and answered 200 with an `Acp-Connection-Id`; every other message POSTed, answered 202;
// what the agent sends arrives on long-lived SSE GET streams, one for the connection and one per
// session; DELETE ends it). The official ACP SDK's HTTP client (`@agentclientprotocol/sdk`
// experimental/http-client, over the runtime's fetch) does the HTTP and SSE framing and the
// routing by connection and session; this turns its message stream into the same MessageStream a
// process gives, so the connection reads it through the same NDJSON reader (line size and depth
// limits) and the supervisor drives it like a process: a dropped connection is a crash. Opening
// and closing are shared with the WebSocket endpoint (remoteEndpoint.ts); what is HTTP's:
//   - limits: an SSE event or response larger than `maxMessageBytes` ends the connection (the SDK
//     refuses it before it is whole), said so;
//   - back-pressure: every SSE body goes through a gate that reads on only while the connection
//     has taken what came before (at most `readBufferBytes` unread), so a slow client pauses the
//     server's streams (TCP pushes back) instead of buffering; what waits to be sent (written and
//     not yet answered) is bounded (`sendBufferBytes`, checked on every write) as over a WebSocket;
//   - where: a plain `http://` name goes to the loopback address the endpoint checked
//     (remoteResolve.ts: the request names that address, so no second lookup can move it);
//     `https://` keeps the name for TLS, which checks the certificate against it;
//   - heartbeats: servers built on the SDK send an SSE comment every 15 s on an idle stream; once
//     one has been seen, nothing heard for `deadAfterMs` (25 s) ends the connection (a dead peer
//     is noticed within deadAfterMs + tick ≤ 30 s). A server that never sends them is not timed;
//   - cookies set by the server are sent back on every request and on reconnects (session
//     affinity), per agent.
// Part of dist/remote-agent.js (loaded on first use, see remoteAgent.ts). Free of `vscode`.
import { createHttpStream, MemoryAcpCookieStore, type AcpCookieStore } from '@agentclientprotocol/sdk/experimental/http-client';
import { connectFailure, lost } from './remoteErrors';
import { isIP } from 'node:net';
import { CLOSED, RemoteEndpoint, type RemoteTransportOptions } from './remoteEndpoint';
import type { ResolvedAddress } from './remoteResolve';

export { MemoryAcpCookieStore, type AcpCookieStore };

type AnyMessage = ReturnType<typeof createHttpStream> extends { writable: WritableStream<infer M> } ? M : never;

export interface HttpEndpointOptions extends RemoteTransportOptions {
  readonly cookies?: AcpCookieStore;
  /** The runtime's fetch unless given (tests). */
  readonly fetch?: typeof globalThis.fetch;
}

/** `connected`: after the confirmation and secrets (the connection itself is made by the `initialize` POST). */
export class HttpEndpoint extends RemoteEndpoint<HttpEndpointOptions> {
  private writer: WritableStreamDefaultWriter<AnyMessage> | undefined;
  private queued = 0;
  private gateWaiters: (() => void)[] = [];
  private keepAlives = false;
  /** `host:port` of the checked address a plain http:// name is sent to. */
  private pinnedHost: string | undefined;

  override get backlog(): number {
    return this.outgoing.writableLength + this.queued;
  }

  protected override readMore(): void {
    this.openGate();
  }

  protected override endGracefully(): void {
    void this.writer?.close().catch(() => undefined);
  }

  protected override abort(): void {
    void this.writer?.abort().catch(() => undefined);
  }

  protected override release(): void {
    this.openGate();
  }

  protected override connect(headers: Record<string, string>, addresses: readonly ResolvedAddress[]): void {
    const u = new URL(this.o.url);
    if (u.protocol === 'http:' && !isIP(u.hostname.replace(/^\[|\]$/g, ''))) {
      const a = addresses[0]!;
      u.hostname = a.family === 6 ? `[${a.address}]` : a.address;
      this.pinnedHost = u.host;
    }
    const sdk = createHttpStream(this.o.url, {
      headers,
      maxMessageBytes: this.o.maxMessageBytes,
      fetch: (input, init) => this.fetch(input, init),
      ...(this.o.cookies ? { cookieStore: this.o.cookies } : {}),
    });
    this.writer = sdk.writable.getWriter();
    void this.writer.closed.catch(() => undefined);
    void this.pump(sdk.readable.getReader());
    this.markConnected();
  }

  /** The runtime's fetch, with every SSE body behind the gate (back-pressure) and heard (liveness). */
  private async fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const res = await (this.o.fetch ?? globalThis.fetch)(this.pinned(input), init);
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

  /** The request's URL with a plain http:// name replaced by its checked address. */
  private pinned(input: string | URL | Request): string | URL | Request {
    if (!this.pinnedHost) return input;
    const u = new URL(input instanceof Request ? input.url : input);
    u.host = this.pinnedHost;
    return input instanceof Request ? new Request(u, input) : u;
  }

  private heard(chunk: Uint8Array): void {
    this.lastHeard = Date.now();
    if (!this.keepAlives && chunk[0] === 0x3a /* ':' an SSE comment, the SDK server's keep-alive */) {
      this.keepAlives = true;
      this.startTicking();
    }
  }

  protected override tick(): void {
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
        if (r.done) return this.finish(this.exit(lost({ kind: 'closed', code: 1000, reason: '' }, this.o.url)));
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

  protected override send(chunk: Buffer, cb: (err?: Error | null) => void): void {
    void this.post(chunk).then(
      () => cb(),
      (err: Error) => cb(err),
    );
  }

  private async post(chunk: Buffer): Promise<void> {
    if (this.ended || !(await this.ready) || !this.writer) throw new Error(CLOSED);
    for (const line of this.lines(chunk)) {
      if (line.length === 0) continue;
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
      return this.finish(this.exit(connectFailure(shaped, this.o.url, 0, true)));
    }
    this.drop(/SSE stream closed/.test(e.message) ? { kind: 'stream-closed' } : { kind: 'error', message: cause?.message ?? e.message });
  }
}
