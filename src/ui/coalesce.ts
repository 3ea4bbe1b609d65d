// UI-side coalescing of store changes: keys collected during a frame are flushed together, at most
// once per `frameMs` (16 ms by default). The stores are never delayed; only the views that read
// them refresh less often. No vscode import, so it is unit tested in plain Node.
import type { Disposable } from '../protocol/api';
import type { RenderPace } from './renderPace';

export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};

export class FrameCoalescer<K> implements Disposable {
  private keys = new Set<K>();
  private timer: unknown;
  private lastFlush = -Infinity;
  private idle: (() => void)[] = [];
  private disposed = false;
  private _flushes = 0;

  /** With a `pace`, flushes run at its ticks (with the other surfaces' updates) instead of on a timer of their own. */
  constructor(
    private readonly flush: (keys: ReadonlySet<K>) => void,
    private readonly frameMs = 16,
    private readonly scheduler: Scheduler = realScheduler,
    private readonly pace?: RenderPace,
  ) {}

  private readonly onTick = (): void => this.run();

  /** Number of flushes so far. */
  get flushes(): number {
    return this._flushes;
  }
  get pending(): boolean {
    return this.timer !== undefined;
  }

  add(key: K): void {
    if (this.disposed) return;
    this.keys.add(key);
    if (this.timer === undefined) this.arm();
  }

  private arm(): void {
    if (this.pace) {
      this.timer = true;
      this.pace.request(this.onTick);
      return;
    }
    const wait = Math.max(0, this.lastFlush + this.frameMs - this.scheduler.now());
    this.timer = this.scheduler.setTimeout(() => this.onTimer(), wait);
  }

  /** Node's timers count from the event loop's cached millisecond clock: one may fire early. */
  private onTimer(): void {
    if (this.scheduler.now() < this.lastFlush + this.frameMs) this.arm();
    else this.run();
  }

  /** Flushes what is pending right away (e.g. before a reveal). */
  flushNow(): void {
    if (this.timer === undefined) return;
    this.stopTimer();
    this.run();
  }

  /** Resolves once nothing is pending (immediately when nothing is). */
  whenIdle(): Promise<void> {
    if (this.timer === undefined) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  dispose(): void {
    this.disposed = true;
    this.stopTimer();
    this.timer = undefined;
    this.keys.clear();
    this.releaseIdle();
  }

  private run(): void {
    this.timer = undefined;
    const keys = this.keys;
    this.keys = new Set();
    this._flushes++;
    this.lastFlush = this.scheduler.now(); // as the flush starts (the allocation above may collect garbage)
    try {
      if (keys.size) this.flush(keys);
    } finally {
      if (this.timer === undefined) this.releaseIdle();
    }
  }

  private stopTimer(): void {
    if (this.timer === undefined) return;
    if (this.pace) this.pace.cancel(this.onTick);
    else this.scheduler.clearTimeout(this.timer);
  }

  private releaseIdle(): void {
    const waiters = this.idle;
    this.idle = [];
    for (const w of waiters) w();
  }
}
