// When the Plans tree tells VS Code that rows changed. No vscode import: unit tested in plain Node.
//
// VS Code's extension host debounces a tree's onDidChangeTreeData with `Event.debounce(…, 200,
// leading = true)` (src/vs/workbench/api/common/extHostTreeViews.ts): an event that finds no timer
// running is passed on at once (the leading edge), and EVERY event, passed on or not, clears the
// timer and starts a new 200 ms one. An event that lands inside that window is held until 200 ms
// after the last event, so a tree that fires often, or that fires once a little too early, shows
// nothing new for a while. The refresh itself (getTreeItem / getChildren of the changed rows, then
// the round trip to the workbench) runs later, queued behind the previous refresh.
//
// So the pacer fires (1) never while VS Code's window after our last fire may still be open: its
// own window timer is started right after each fire, in the same tick and with the same length as
// VS Code's, so Node runs it after VS Code's (equal expiry, first in first out) whatever the load;
// (2) never while the last fire has not been fetched yet (VS Code has not called getTreeItem or
// getChildren since), as one more fire would only queue a refresh showing the same state; a fetch
// that does not come within `fetchWaitMs` (rows VS Code does not hold) is not waited for longer;
// (3) otherwise at once (on the next turn, so a batch of updates is fired together). Changes met
// in between are coalesced and fired together, so the last fire always carries the final state.
import type { Disposable } from '../../protocol/api';
import type { Scheduler } from '../coalesce';

/** VS Code's debounce of a tree's change events (extHostTreeViews.ts). */
export const VIEW_DEBOUNCE_MS = 200;
/** The longest the pacer waits for VS Code to fetch what was fired. */
export const FETCH_WAIT_MS = 1000;

/** What a flush did: fired nothing, fired rows VS Code will fetch, or fired rows it may not. */
export type FlushResult = 'none' | 'fetch' | 'noFetch';

export interface PacerOptions {
  /** The window after a fire during which no other fire is made (VIEW_DEBOUNCE_MS for a view). */
  windowMs: number;
  /** How long a fire that expects a fetch waits for it (0: never waits). */
  fetchWaitMs?: number;
  scheduler?: Scheduler;
}

const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};

export class RefreshPacer<K> implements Disposable {
  private keys = new Set<K>();
  /** Running while the window after the last fire is open. */
  private windowTimer: unknown;
  /** Running while the last fire waits for its fetch. */
  private fetchTimer: unknown;
  /** A fire due on the next turn. */
  private soonTimer: unknown;
  private idle: (() => void)[] = [];
  private disposed = false;
  private _fires = 0;
  private _lastFireAt = -Infinity;
  private readonly windowMs: number;
  private readonly fetchWaitMs: number;
  private readonly scheduler: Scheduler;

  constructor(
    private readonly flush: (keys: ReadonlySet<K>) => FlushResult,
    options: PacerOptions,
  ) {
    this.windowMs = options.windowMs;
    this.fetchWaitMs = options.fetchWaitMs ?? 0;
    this.scheduler = options.scheduler ?? realScheduler;
  }

  /** Flushes that fired something. */
  get fires(): number {
    return this._fires;
  }
  /** Changes are waiting to be fired. */
  get pending(): boolean {
    return this.keys.size > 0;
  }
  /** The last fire waits for VS Code to fetch it. */
  get awaitingFetch(): boolean {
    return this.fetchTimer !== undefined;
  }

  add(key: K): void {
    if (this.disposed) return;
    this.keys.add(key);
    this.kick();
  }

  /** VS Code fetched rows (getTreeItem / getChildren): the last fire has reached it. */
  fetched(): void {
    if (this.fetchTimer === undefined) return;
    this.scheduler.clearTimeout(this.fetchTimer);
    this.fetchTimer = undefined;
    this.kick();
  }

  /** Fires what is pending right away (e.g. before a reveal), window or not. */
  flushNow(): void {
    if (!this.keys.size) return;
    this.cancel('soonTimer');
    this.run();
  }

  /** Resolves once nothing is waiting to be fired (immediately when nothing is). */
  whenIdle(): Promise<void> {
    if (!this.keys.size) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  dispose(): void {
    this.disposed = true;
    this.cancel('windowTimer');
    this.cancel('fetchTimer');
    this.cancel('soonTimer');
    this.keys.clear();
    this.releaseIdle();
  }

  private kick(): void {
    if (this.disposed || !this.keys.size || this.blocked() || this.soonTimer !== undefined) return;
    this.soonTimer = this.scheduler.setTimeout(() => {
      this.soonTimer = undefined;
      if (!this.blocked() && this.keys.size) this.run();
    }, 0);
  }

  private blocked(): boolean {
    return this.windowTimer !== undefined || this.fetchTimer !== undefined;
  }

  private onWindowClosed(): void {
    this.windowTimer = undefined;
    // Runs right after VS Code's own timer: a fire now is on its leading edge.
    if (this.fetchTimer === undefined && this.keys.size && this.soonTimer === undefined) this.run();
  }

  private run(): void {
    const keys = this.keys;
    this.keys = new Set();
    let result: FlushResult = 'none';
    try {
      result = this.flush(keys);
    } finally {
      if (result !== 'none') this.fired(result);
      if (!this.keys.size) this.releaseIdle();
    }
  }

  private fired(result: FlushResult): void {
    this._fires++;
    this._lastFireAt = this.scheduler.now();
    // Started in the tick of the fire, as VS Code's timer is: it expires after VS Code's.
    this.cancel('windowTimer');
    if (this.windowMs > 0) this.windowTimer = this.scheduler.setTimeout(() => this.onWindowClosed(), this.windowMs);
    this.cancel('fetchTimer');
    if (result === 'fetch' && this.fetchWaitMs > 0)
      this.fetchTimer = this.scheduler.setTimeout(() => {
        this.fetchTimer = undefined;
        this.kick();
      }, this.fetchWaitMs);
    if (this.windowTimer === undefined) this.kick();
  }

  /** When the last fire was made (scheduler clock). */
  get lastFireAt(): number {
    return this._lastFireAt;
  }

  private cancel(which: 'windowTimer' | 'fetchTimer' | 'soonTimer'): void {
    if (this[which] !== undefined) this.scheduler.clearTimeout(this[which]);
    this[which] = undefined;
  }

  private releaseIdle(): void {
    const waiters = this.idle;
    this.idle = [];
    for (const w of waiters) w();
  }
}
