// Dispatch order and flow control between the NDJSON reader and vscode-jsonrpc.
//
// vscode-jsonrpc queues every message it is handed and dispatches one per event-loop turn (a
// `setImmediate` each), while the reader keeps reading: a fast agent is capped at the library's
// pace, and its queue grows until the whole stream sits in memory. This gate takes every message
// from the reader first:
//   - a notification is dispatched at once, synchronously, when nothing read before it is still
//     waiting; a turn's stream of `session/update`s never queues;
//   - requests, responses, `$/…` notifications (the end-of-stream marker…) go to the library as
//     before. While the library holds such a message, everything read after it waits here, in
//     order, and moves on on the turn after the library dispatched it (so the promise
//     continuations of a response run before the next message, as they did);
//   - cancellations never come here: the connection acts on them when they are read
//     (cancellation.ts), whether their request waits here, in the library, or runs;
//   - when many messages wait, the readable is paused until they have been dispatched; they are
//     dispatched within the event loop turn's budget that every connection shares (turnBudget.ts).
// Messages are dispatched exactly in arrival order.
import type { DataCallback, Message, MessageStrategy, NotificationMessage } from 'vscode-jsonrpc/node';
import { budgetSpent, later } from './turnBudget';

export interface OrderedDispatchTarget {
  /** Handles a notification (not a `$/…` one) read from the agent. */
  notify(method: string, params: unknown): void;
  /** Stop and restart reading the agent's output. */
  pause(): void;
  resume(): void;
}

const DEFAULT_HIGH_WATER = 1024;

export class OrderedDispatch {
  private waiting: (Message | undefined)[] = [];
  private head = 0;
  /** Handed to the library and not dispatched by it yet. */
  private readonly inLibrary = new Set<Message>();
  private toLibrary: DataCallback | undefined;
  private scheduled = false;
  private paused = false;
  private disposed = false;

  constructor(
    private readonly target: OrderedDispatchTarget,
    private readonly highWater = DEFAULT_HIGH_WATER,
  ) {}

  /** The connection's `messageStrategy`: tells the gate when the library dispatches a message. */
  readonly strategy: MessageStrategy = {
    handleMessage: (message, next) => {
      const result = next(message);
      if (this.inLibrary.delete(message) && this.inLibrary.size === 0) this.schedule();
      return result;
    },
  };

  /** Messages waiting (for tests and diagnostics). */
  get waitingCount(): number {
    return this.waiting.length - this.head;
  }

  /** Takes a message from the reader; `toLibrary` is vscode-jsonrpc's reader callback. */
  route(message: Message, toLibrary: DataCallback): void {
    if (this.disposed) return;
    this.toLibrary = toLibrary;
    if (this.inLibrary.size === 0 && this.waitingCount === 0) {
      this.dispatch(message);
      return;
    }
    this.waiting.push(message);
    if (!this.paused && this.waitingCount >= this.highWater) {
      this.paused = true;
      this.target.pause();
    }
  }

  dispose(): void {
    this.disposed = true;
    this.waiting = [];
    this.head = 0;
    this.inLibrary.clear();
    if (this.paused) {
      this.paused = false;
      this.target.resume();
    }
  }

  private dispatch(message: Message): void {
    const n = message as NotificationMessage & { id?: unknown };
    if (typeof n.method === 'string' && n.id === undefined && !n.method.startsWith('$/')) {
      this.target.notify(n.method, n.params);
      return;
    }
    this.inLibrary.add(message);
    this.toLibrary?.(message);
  }

  private schedule(): void {
    if (this.scheduled || this.waitingCount === 0) return;
    this.scheduled = true;
    later(() => this.drain());
  }

  private drain(): void {
    this.scheduled = false;
    while (!this.disposed && this.inLibrary.size === 0 && this.head < this.waiting.length) {
      if (budgetSpent()) {
        this.scheduled = true;
        later(() => this.drain());
        break;
      }
      const message = this.waiting[this.head] as Message;
      this.waiting[this.head++] = undefined;
      this.dispatch(message);
    }
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    if (this.paused && this.waitingCount <= this.highWater / 2) {
      this.paused = false;
      this.target.resume();
    }
  }
}
