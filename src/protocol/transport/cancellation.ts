// ACP cancels a request with `$/cancel_request {requestId}` (both versions, WIRE.md §1), where
// LSP uses `$/cancelRequest {id}`.
//   - sending: the strategy's sender writes `$/cancel_request {requestId}` when the
//     token of one of our requests is cancelled;
//   - receiving: `InboundCancellation` (one per connection) creates the token of every request
//     the agent sends us, and cancels it when a `$/cancel_request` names that request. vscode-
//     jsonrpc's own bookkeeping is not used for this: it keeps one token per id, so a request that
//     reuses the id of one still running took the other's place, and once the first finished, a
//     cancel for the id found nothing (the second prompt stayed open).
// A cancel targets every request with that id the agent has sent and we have not answered yet,
// whether it is running or still queued; a cancel for an id with nothing in flight is logged and
// forgotten (it never cancels a later request that reuses the id).
import {
  CancellationTokenSource,
  type CancellationStrategy,
  type CancellationToken,
  type Message,
  type MessageConnection,
  type NotificationMessage,
} from 'vscode-jsonrpc/node';

export const CANCEL_REQUEST_METHOD = '$/cancel_request';
/** LSP's cancellation method: not ACP; an agent sending it is ignored. */
export const LSP_CANCEL_METHOD = '$/cancelRequest';

const sender: CancellationStrategy['sender'] = {
  sendCancellation(conn: MessageConnection, id: number | string): Promise<void> {
    try {
      return conn.sendNotification(CANCEL_REQUEST_METHOD, { requestId: id });
    } catch (err) {
      // The connection is closed: there is nobody left to tell.
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  },
  cleanup(): void {
    /* no per-request state */
  },
};

/** The requests the agent sent us that are not answered yet, by id, and their cancellation. */
export class InboundCancellation {
  /** Read and not started yet (waiting in a queue), per id. */
  private readonly queued = new Map<string, number>();
  /** How many of the queued ones were cancelled before they started. */
  private readonly cancelledQueued = new Map<string, number>();
  /** Started and not finished, per id. */
  private readonly running = new Map<string, Set<CancellationTokenSource>>();
  private readonly byToken = new WeakMap<CancellationToken, { key: string; source: CancellationTokenSource }>();

  constructor(private readonly log: (message: string) => void = () => undefined) {}

  /** The connection's `cancellationStrategy`. */
  readonly strategy: CancellationStrategy = {
    receiver: { kind: 'id', createCancellationTokenSource: (id) => this.start(id) },
    sender,
  };

  /**
   * Sees every message read from the agent, in arrival order, before it is queued. Returns true
   * when the message was a `$/cancel_request` (or LSP's `$/cancelRequest`), consumed here.
   */
  read(message: Message): boolean {
    const m = message as NotificationMessage & { id?: unknown };
    if (m.method === CANCEL_REQUEST_METHOD) {
      this.cancel((m.params as { requestId?: unknown } | undefined)?.requestId);
      return true;
    }
    if (m.method === LSP_CANCEL_METHOD) {
      this.log(`Ignored ${LSP_CANCEL_METHOD} from the agent: ACP cancels with ${CANCEL_REQUEST_METHOD}.`);
      return true;
    }
    const key = typeof m.method === 'string' ? idKey(m.id) : undefined;
    if (key !== undefined) this.queued.set(key, (this.queued.get(key) ?? 0) + 1);
    return false;
  }

  /** The request's handler finished (its answer is being written). */
  finished(token: CancellationToken): void {
    const entry = this.byToken.get(token);
    if (!entry) return;
    this.byToken.delete(token);
    const set = this.running.get(entry.key);
    set?.delete(entry.source);
    if (set?.size === 0) this.running.delete(entry.key);
    entry.source.dispose();
  }

  dispose(): void {
    for (const set of this.running.values()) for (const s of set) s.dispose();
    this.running.clear();
    this.queued.clear();
    this.cancelledQueued.clear();
  }

  private start(id: number | string): CancellationTokenSource {
    const source = new CancellationTokenSource();
    const key = idKey(id) as string;
    decrement(this.queued, key);
    if (decrement(this.cancelledQueued, key)) source.cancel();
    let set = this.running.get(key);
    if (!set) this.running.set(key, (set = new Set()));
    set.add(source);
    this.byToken.set(source.token, { key, source });
    return source;
  }

  private cancel(requestId: unknown): void {
    const key = idKey(requestId);
    if (key === undefined) {
      this.log(`Ignored a ${CANCEL_REQUEST_METHOD} without a usable requestId.`);
      return;
    }
    const running = this.running.get(key);
    const queued = this.queued.get(key) ?? 0;
    if (running) for (const s of running) s.cancel();
    if (queued > 0) this.cancelledQueued.set(key, queued);
    if (!running && queued === 0) this.log(`Ignored ${CANCEL_REQUEST_METHOD} for ${JSON.stringify(requestId)}: no such request in flight.`);
  }
}

function idKey(id: unknown): string | undefined {
  if (typeof id === 'number') return `n${id}`;
  if (typeof id === 'string') return `s${id}`;
  return undefined;
}

/** Decrements a positive count (deleting it at zero); false when there was none. */
function decrement(map: Map<string, number>, key: string): boolean {
  const n = map.get(key) ?? 0;
  if (n <= 0) return false;
  if (n === 1) map.delete(key);
  else map.set(key, n - 1);
  return true;
}
