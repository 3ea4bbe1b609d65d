// A minimal JSON-RPC 2.0 peer over NDJSON lines: dispatches incoming requests and notifications,
// sends requests of its own and matches their responses.

import { frame } from './ndjson';

export type RequestId = string | number | null;

export const ErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  requestCancelled: -32800,
  resourceNotFound: -32002,
} as const;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** Answers one incoming request, exactly once. */
export interface Reply {
  ok(result: object): void;
  fail(error: RpcError): void;
}

export interface PeerHandler {
  onRequest(method: string, params: unknown, reply: Reply): void | Promise<void>;
  onNotification(method: string, params: unknown): void;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

type Incoming = { [k: string]: unknown };

export class Peer {
  private nextId = 1;
  private readonly pending = new Map<string | number, Pending>();
  private handler: PeerHandler | undefined;

  constructor(
    private readonly write: (line: string) => void,
    private readonly log: (text: string) => void,
  ) {}

  setHandler(handler: PeerHandler): void {
    this.handler = handler;
  }

  /** Feeds one received line. */
  receive(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.send({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.parseError, message: 'Parse error' } });
      return;
    }
    // A batch (v2 transports allow them): handle each entry on its own, answer each on its own line.
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    for (const message of messages) this.dispatch(message);
  }

  request(method: string, params: object): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: object): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Rejects every request still waiting for an answer (the client went away). */
  close(reason: Error): void {
    for (const p of this.pending.values()) p.reject(reason);
    this.pending.clear();
  }

  private send(message: object): void {
    this.write(frame(message));
  }

  private dispatch(message: unknown): void {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.send({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.invalidRequest, message: 'Invalid Request' } });
      return;
    }
    const msg = message as Incoming;
    const hasId = 'id' in msg;
    if (typeof msg.method === 'string') {
      if (hasId) this.dispatchRequest(msg.id as RequestId, msg.method, msg.params);
      else this.handler?.onNotification(msg.method, msg.params);
      return;
    }
    if (hasId && ('result' in msg || 'error' in msg)) {
      this.settle(msg);
      return;
    }
    this.send({ jsonrpc: '2.0', id: hasId ? (msg.id as RequestId) : null, error: { code: ErrorCodes.invalidRequest, message: 'Invalid Request' } });
  }

  private dispatchRequest(id: RequestId, method: string, params: unknown): void {
    let answered = false;
    const reply: Reply = {
      ok: (result) => {
        if (answered) return;
        answered = true;
        this.send({ jsonrpc: '2.0', id, result });
      },
      fail: (error) => {
        if (answered) return;
        answered = true;
        const body: { code: number; message: string; data?: unknown } = { code: error.code, message: error.message };
        if (error.data !== undefined) body.data = error.data;
        this.send({ jsonrpc: '2.0', id, error: body });
      },
    };
    const onError = (err: unknown): void => {
      if (err instanceof RpcError) reply.fail(err);
      else {
        this.log(`internal error in ${method}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        reply.fail(new RpcError(ErrorCodes.internalError, 'Internal error'));
      }
    };
    if (!this.handler) {
      reply.fail(new RpcError(ErrorCodes.internalError, 'Not ready'));
      return;
    }
    try {
      const done = this.handler.onRequest(method, params, reply);
      if (done) done.catch(onError);
    } catch (err) {
      onError(err);
    }
  }

  private settle(msg: Incoming): void {
    const id = msg.id as string | number;
    const pending = this.pending.get(id);
    if (!pending) {
      this.log(`response to unknown request id ${JSON.stringify(id)} ignored`);
      return;
    }
    this.pending.delete(id);
    if ('error' in msg && msg.error !== undefined) {
      const e = msg.error as { code?: unknown; message?: unknown; data?: unknown };
      pending.reject(new RpcError(typeof e.code === 'number' ? e.code : ErrorCodes.internalError, typeof e.message === 'string' ? e.message : 'error', e.data));
    } else {
      pending.resolve(msg.result);
    }
  }
}
