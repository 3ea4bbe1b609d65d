// What the two remote agent endpoints share (wsEndpoint.ts over a WebSocket, httpEndpoint.ts over
// streamable HTTP), so each keeps only its transport: the MessageStream the connection reads and
// writes (NDJSON lines, with a read buffer the transport honours), opening (the opener's
// confirmation and secrets first; a refusal or a throw ends it before anything is sent), closing
// (`closed` resolves once; stop ends the stream gracefully and forces after a grace; kill and
// drop end it now), where it connects (the host resolved once, plain ws/http only to loopback:
// remoteResolve.ts), how it ended as an EndpointExit (its reason masked as the logs are, then
// worded by `describe`, the views' words: src/ui/remoteWords.ts), whole lines out of split
// writes, the send limit (checked on every write, when the backlog grows, and on the tick) and the
// liveness tick. Part of dist/remote-agent.js. Free of `vscode`.
import { Readable, Writable } from 'node:stream';
import type { AgentEndpoint, EndpointExit } from './agentEndpoint';
import type { MessageStream } from '../protocol/transport/messageStream';
import { lost, masked, neverOpened, type DropCause, type RemoteReason } from './remoteErrors';
import { resolveTarget, systemResolver, type ResolvedAddress, type Resolver } from './remoteResolve';
import { redactText } from './redaction';

/** What the endpoint needs before it connects, from its opener: headers, or why it must not connect. */
export type Preparation = { headers: Record<string, string> } | { refused: RemoteReason };

/** A reason for people: the predicate of a sentence whose subject is the agent's name, and what to do ("" when nothing). */
export type DescribeReason = (reason: RemoteReason) => { readonly description: string; readonly detail: string };

/** The options both transports take. */
export interface RemoteTransportOptions {
  readonly url: string;
  /** Words a reason for people (the views' words, src/ui/remoteWords.ts). */
  readonly describe: DescribeReason;
  /** Runs first (confirmation, secrets); nothing is sent without its headers. */
  prepare(): Promise<Preparation>;
  /** The largest message accepted (acp.maxLineBytes, as over stdio). */
  readonly maxMessageBytes: number;
  /**
   * The most bytes that may wait to be sent (default 32 MiB): a write finding more waiting ends the
   * connection (so one message larger than this may still go when less waits before it).
   */
  readonly sendBufferBytes?: number;
  /** How much the connection may leave unread before the transport stops reading (default 1 MiB). */
  readonly readBufferBytes?: number;
  readonly deadAfterMs?: number;
  /** How often liveness and the send backlog are checked (default 5 s). */
  readonly tickMs?: number;
  /** Resolves the url's host name (the system's resolver unless given). */
  readonly resolve?: Resolver;
  log?(level: 'info' | 'warn', message: string): void;
}

/** Reasons a retry cannot cure (the user must change a setting or a secret first). */
const PERMANENT = new Set<RemoteReason['code']>(['credentials-refused', 'secret-missing', 'host-declined']);

/** What a write is answered with once the connection has ended. */
export const CLOSED = 'The connection to the agent is closed.';

const NEWLINE = 0x0a;

/** A remote agent's endpoint; a transport fills in how it connects, sends, reads on and ends. */
export abstract class RemoteEndpoint<O extends RemoteTransportOptions> implements AgentEndpoint {
  readonly stream: MessageStream;
  readonly closed: Promise<EndpointExit>;
  readonly connected: Promise<void>;
  protected readonly incoming: Readable;
  protected readonly outgoing: Writable;
  protected readonly sendLimit: number;
  /** True once prepared and connecting; false when refused or ended first. */
  protected readonly ready: Promise<boolean>;
  protected ended = false;
  /** The transport is open (the WebSocket handshake done; `initialize` answered over HTTP). */
  protected opened = false;
  /** Why it ended, when this side knows better than the transport's own end (set once). */
  protected cause: DropCause | undefined;
  protected lastHeard = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The backlog at the last tick, to tell a server that stopped reading from a slow one. */
  private backlogAtTick = 0;
  private partial: Buffer[] = [];
  private resolveClosed!: (exit: EndpointExit) => void;
  private resolveConnected!: () => void;

  constructor(protected readonly o: O) {
    this.sendLimit = o.sendBufferBytes ?? 32 * 1024 * 1024;
    this.incoming = new Readable({ highWaterMark: o.readBufferBytes ?? 1024 * 1024, read: () => this.readMore() });
    this.outgoing = new Outgoing(
      {
        highWaterMark: 1024 * 1024,
        write: (chunk: Buffer, _enc, cb) => this.send(chunk, cb),
        final: (cb) => {
          this.endGracefully();
          cb();
        },
      },
      (bytes) => this.grows(bytes),
    );
    this.outgoing.on('error', () => undefined); // reported through the connection's writer
    this.stream = { readable: this.incoming, writable: this.outgoing };
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.connected = new Promise((resolve) => (this.resolveConnected = resolve));
    // The transport connects only after `prepare` resolved, so after its own fields are set.
    this.ready = this.open();
  }

  /** Bytes written and not yet handed to the OS (over HTTP: not yet answered). */
  abstract get backlog(): number;
  /** Connects with the prepared headers to the checked addresses (called once, after `prepare`). */
  protected abstract connect(headers: Record<string, string>, addresses: readonly ResolvedAddress[]): void;
  /** The connection reads again: let the transport read on. */
  protected abstract readMore(): void;
  /** Sends what the connection wrote (NDJSON; `lines` cuts it). */
  protected abstract send(chunk: Buffer, cb: (err?: Error | null) => void): void;
  /** The connection ended its stream: close the transport politely. */
  protected abstract endGracefully(): void;
  /** Ends the transport now. */
  protected abstract abort(): void;
  /** Lets go of what the transport holds once it has ended. */
  protected abstract release(): void;
  /** The liveness and backlog check, every `tickMs` once `startTicking` was called. */
  protected abstract tick(): void;

  async stop(graceMs = 2000): Promise<EndpointExit> {
    if (!this.opened) this.finish(this.exit({ code: 'stopped-before-connected', data: {} }));
    else this.outgoing.end();
    const timer = setTimeout(() => this.forceStop(), graceMs);
    const exit = await this.closed;
    clearTimeout(timer);
    return exit;
  }

  kill(): void {
    this.abort();
    this.finish(this.exit({ code: 'disconnected', data: {} }));
  }

  /** A stop whose grace ran out (a transport that reports its own end may only abort). */
  protected forceStop(): void {
    this.kill();
  }

  protected markConnected(): void {
    this.resolveConnected();
  }

  protected startTicking(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.o.tickMs ?? 5000);
    this.timer.unref?.();
  }

  /**
   * Another write is coming (`bytes`): a connection with more than the limit waiting already ends
   * here, so what waits never grows past the limit and one message, however fast the writes come.
   */
  private grows(bytes: number): void {
    if (this.ended || !this.opened) return;
    const waiting = this.backlog;
    if (waiting > this.sendLimit) this.drop({ kind: 'backlog', bytes: waiting + bytes });
  }

  /** For the tick: over the limit and nothing went out since the last tick (a slow server still takes some). */
  protected backlogStuck(): boolean {
    const waiting = this.backlog;
    const stuck = waiting > this.sendLimit && waiting >= this.backlogAtTick;
    this.backlogAtTick = waiting;
    return stuck;
  }

  /** The whole lines of what was written (a line split over writes is joined first). */
  protected lines(chunk: Buffer): Buffer[] {
    let start = 0;
    const out: Buffer[] = [];
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl);
      out.push(this.partial.length ? Buffer.concat([...this.partial, piece]) : piece);
      this.partial = [];
      start = nl + 1;
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
    return out;
  }

  /** This side ends an open connection, for `cause`. */
  protected drop(cause: DropCause): void {
    this.cause ??= cause;
    this.abort();
    this.finish(this.exit(lost(this.cause, this.o.url)));
  }

  /** How it ended, for people. */
  protected exit(reason: RemoteReason): EndpointExit {
    const { description, detail } = this.o.describe(masked(reason, redactText));
    return {
      description,
      detail: detail && ` ${detail}`,
      ...(neverOpened(reason) ? { failedToOpen: true } : {}),
      ...(PERMANENT.has(reason.code) ? { permanent: true } : {}),
    };
  }

  protected finish(exit: EndpointExit): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer) clearInterval(this.timer);
    this.release();
    this.incoming.push(null);
    this.outgoing.destroy();
    this.resolveClosed(exit);
  }

  private async open(): Promise<boolean> {
    let prep: Preparation;
    try {
      prep = await this.o.prepare();
    } catch (err) {
      prep = { refused: { code: 'prepare-failed', data: { detail: err instanceof Error ? err.message : String(err) } } };
    }
    if (this.ended) return false;
    if ('refused' in prep) {
      this.finish(this.exit(prep.refused));
      return false;
    }
    // After the confirmation: not even a name lookup goes out before it.
    const target = await resolveTarget(this.o.url, this.o.resolve ?? systemResolver);
    if (this.ended) return false;
    if ('refused' in target) {
      this.finish(this.exit(target.refused));
      return false;
    }
    this.connect(prep.headers, target.addresses);
    return true;
  }
}

/** The outgoing stream, telling the endpoint of each write before it is taken (`grows`). */
class Outgoing extends Writable {
  constructor(
    options: ConstructorParameters<typeof Writable>[0],
    private readonly grows: (bytes: number) => void,
  ) {
    super(options);
  }

  override write(chunk: unknown, encoding?: BufferEncoding | WriteCallback, cb?: WriteCallback): boolean {
    this.grows(typeof chunk === 'string' || Buffer.isBuffer(chunk) ? Buffer.byteLength(chunk) : 0);
    return typeof encoding === 'function' ? super.write(chunk, encoding) : super.write(chunk, encoding ?? 'utf8', cb);
  }
}

type WriteCallback = (error: Error | null | undefined) => void;
