// A JSON-RPC 2.0 connection over a MessageStream (an agent's stdio, a socket, an in-memory pair):
// vscode-jsonrpc with our NDJSON reader/writer
// and ACP's `$/cancel_request`. Version-agnostic: it knows no ACP method but the cancel one.
//
// - Requests from the agent go to the handler registered for their method; an unknown method is
//   answered `-32601`. Notifications go to their handler synchronously, in arrival order; an
//   unknown notification is ignored and logged at debug.
// - When the stream's readable side ends (or `dispose()`), every pending request is rejected with
//   `ConnectionClosedError`, after every message read before the end has been dispatched, and
//   `onClose` fires once.
import {
  Emitter,
  ResponseError,
  createMessageConnection,
  type CancellationToken,
  type Event,
  type Logger,
  type Message,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { CancelToken, Disposable, ProtocolLogger } from '../api';
import { InboundCancellation } from './cancellation';
import { ConnectionClosedError, ErrorCodes, toRpcFailure } from './errors';
import type { MessageStream } from './messageStream';
import { END_OF_STREAM_METHOD, NdjsonMessageReader, type ReaderStats } from './ndjsonReader';
import { NdjsonMessageWriter } from './ndjsonWriter';
import { OrderedDispatch } from './orderedDispatch';

export interface RpcConnectionOptions {
  /** Discard (and report) lines longer than this. Default 64 MiB. */
  maxLineBytes?: number;
  logger?: ProtocolLogger;
}

/** Handles one agent → client request; may return a value, a promise, or throw. */
export type RpcRequestHandler = (params: unknown, token: CancellationToken) => unknown;
export type RpcNotificationHandler = (params: unknown) => void;

export class RpcConnection implements Disposable {
  private readonly reader: NdjsonMessageReader;
  private readonly writer: NdjsonMessageWriter;
  private readonly conn: MessageConnection;
  private readonly gate: OrderedDispatch;
  private readonly cancellation: InboundCancellation;
  private readonly requestHandlers = new Map<string, RpcRequestHandler>();
  private readonly notificationHandlers = new Map<string, RpcNotificationHandler>();
  private readonly closeEmitter = new Emitter<{ error?: Error }>();
  private readonly errorEmitter = new Emitter<Error>();
  private readonly logger: ProtocolLogger | undefined;
  private listening = false;
  private closed = false;

  constructor(stream: MessageStream, options: RpcConnectionOptions = {}) {
    const { readable, writable } = stream;
    this.logger = options.logger;
    // Notifications skip the library's one-message-per-turn queue; order is kept (orderedDispatch.ts).
    this.gate = new OrderedDispatch({
      notify: (method, params) => this.dispatchNotification(method, params),
      pause: () => readable.pause(),
      resume: () => readable.resume(),
    });
    this.cancellation = new InboundCancellation((m) => this.logger?.log('debug', m));
    this.reader = new NdjsonMessageReader(readable, {
      maxLineBytes: options.maxLineBytes,
      logger: options.logger,
      route: (m, deliver) => {
        if (!this.cancellation.read(m)) this.gate.route(m, deliver);
      },
      answerInvalid: (id, message) => this.answerInvalid(id, message),
    });
    this.writer = new NdjsonMessageWriter(writable, options.logger);
    this.conn = createMessageConnection(this.reader, this.writer, libraryLogger(options.logger), {
      cancellationStrategy: this.cancellation.strategy,
      messageStrategy: this.gate.strategy,
    });
    this.conn.onRequest((method, params, token) => this.dispatchRequest(method, params, token));
    this.conn.onNotification((method, params) => this.dispatchNotification(method, params));
    this.conn.onError(([err]) => this.errorEmitter.fire(err));
  }

  /** Fires once, when the stream's readable side ends or the connection is disposed. */
  get onClose(): Event<{ error?: Error }> {
    return this.closeEmitter.event;
  }
  /** Transport problems that do not close the connection (over-long lines, write errors). */
  get onError(): Event<Error> {
    return this.errorEmitter.event;
  }
  get stats(): Readonly<ReaderStats> {
    return this.reader.stats;
  }
  get isClosed(): boolean {
    return this.closed;
  }

  onRequest(method: string, handler: RpcRequestHandler): Disposable {
    this.requestHandlers.set(method, handler);
    return {
      dispose: () => {
        if (this.requestHandlers.get(method) === handler) this.requestHandlers.delete(method);
      },
    };
  }

  onNotification(method: string, handler: RpcNotificationHandler): Disposable {
    this.notificationHandlers.set(method, handler);
    return {
      dispose: () => {
        if (this.notificationHandlers.get(method) === handler) this.notificationHandlers.delete(method);
      },
    };
  }

  /** Starts reading. Register handlers first. */
  listen(): void {
    if (this.listening || this.closed) return;
    this.listening = true;
    this.conn.listen();
  }

  /**
   * Sends a request. Rejects with `RpcError` when the agent answers an error, with
   * `ConnectionClosedError` when the connection closes first. Cancelling `token` sends
   * `$/cancel_request`; the agent then answers (typically `-32800`).
   */
  sendRequest(method: string, params: object, token?: CancelToken): Promise<unknown> {
    if (this.closed) return Promise.reject(new ConnectionClosedError(undefined, method));
    try {
      const pending: Promise<unknown> = token ? this.conn.sendRequest(method, params, token as CancellationToken) : this.conn.sendRequest(method, params);
      return pending.then(undefined, (err: unknown) => {
        throw toRpcFailure(err, method);
      });
    } catch (err) {
      return Promise.reject(toRpcFailure(err, method));
    }
  }

  /** Sends a notification; a failure (closed pipe) is logged, never thrown. */
  sendNotification(method: string, params: object): void {
    if (this.closed) {
      this.logger?.log('debug', `Not sending ${method}: the connection is closed.`);
      return;
    }
    try {
      this.conn.sendNotification(method, params).catch((err: unknown) => {
        this.logger?.log('warn', `Sending ${method} failed: ${String(err)}`);
      });
    } catch (err) {
      this.logger?.log('debug', `Not sending ${method}: ${String(err)}`);
    }
  }

  dispose(): void {
    this.close(undefined);
  }

  private close(error: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.gate.dispose();
    this.cancellation.dispose();
    this.conn.dispose(); // rejects every pending request (mapped to ConnectionClosedError)
    this.writer.end();
    this.closeEmitter.fire(error ? { error } : {});
    this.closeEmitter.dispose();
    this.errorEmitter.dispose();
  }

  private dispatchRequest(method: string, params: unknown, token: CancellationToken): unknown {
    const handler = this.requestHandlers.get(method);
    if (!handler) {
      this.cancellation.finished(token);
      this.logger?.log('debug', `Agent called an unknown method: ${method}`);
      throw new ResponseError(ErrorCodes.MethodNotFound, `Method not found: ${method}`);
    }
    let result: unknown;
    try {
      result = handler(params, token);
    } catch (err) {
      this.cancellation.finished(token);
      throw err;
    }
    if (!isThenable(result)) {
      this.cancellation.finished(token);
      return result;
    }
    const done = (): void => this.cancellation.finished(token);
    return Promise.resolve(result).finally(done);
  }

  /** A request the reader refused (unusable id, nested too deep): `-32600`, never silence. */
  private answerInvalid(id: string | number | null, message: string): void {
    if (this.closed) return;
    this.writer
      .write({ jsonrpc: '2.0', id, error: { code: ErrorCodes.InvalidRequest, message } } as Message)
      .catch((err: unknown) => this.logger?.log('debug', `Answering an invalid request failed: ${String(err)}`));
  }

  private dispatchNotification(method: string, params: unknown): void {
    if (this.closed) return;
    if (method === END_OF_STREAM_METHOD) {
      this.close(this.reader.streamError);
      return;
    }
    const handler = this.notificationHandlers.get(method);
    if (!handler) {
      this.logger?.log('debug', `Ignored a notification from the agent: ${method}`);
      return;
    }
    try {
      handler(params);
    } catch (err) {
      this.logger?.log('error', `Handling ${method} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

function libraryLogger(logger: ProtocolLogger | undefined): Logger {
  return {
    error: (m) => logger?.log('error', m),
    warn: (m) => logger?.log('warn', m),
    info: (m) => logger?.log('info', m),
    log: (m) => logger?.log('debug', m),
  };
}
