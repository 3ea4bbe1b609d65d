// One pace for everything the extension sends the renderer while an agent streams (the status bar
// item, the conversation's deltas): their updates leave together, in one turn, so VS Code's
// protocol writer sends them as one message; and a tick waits until the renderer has taken the
// previous one. In a browser (code-server, VS Code for the Web) the workbench reads every message
// from the extension host through one FileReader, one message after another, between its frames;
// sent faster than it reads, they queue, and every surface falls behind together (the queue grew
// to seconds under two streams). So a tick that posted waits for the renderer's reply to that post
// (`held`: VS Code answers every postMessage once the workbench has read it), and now and then for
// the webview's own answer that it applied a delta (`posted`): that one only once it is late (its
// grace), as a webview that keeps up answers well within it; a webview that fell behind holds the
// pace until it catches up (or `answerTimeoutMs`, for one that went away). Every answer is a message
// each way, so asking for fewer of them is most of what a streamed update costs the extension
// host beyond the post itself. No `vscode`.
import { realScheduler, type Scheduler } from './coalesce';

export interface RenderPaceOptions {
  /** The shortest time between two ticks (a frame). Default 16 ms. */
  frameMs?: number;
  /** How long a tick waits for an answer that does not come. Default 250 ms. */
  answerTimeoutMs?: number;
  scheduler?: Scheduler;
}

export class RenderPace {
  private readonly due = new Set<() => void>();
  private timer: unknown;
  private timerAt = Infinity;
  private lastTick = -Infinity;
  /** Posts not yet answered: token → when posted, and how long before they are waited for. */
  private readonly unanswered = new Map<number, { sent: number; graceMs: number }>();
  private nextToken = 1;
  private readonly frameMs: number;
  private readonly answerTimeoutMs: number;
  private readonly clock: Scheduler;
  private _ticks = 0;

  constructor(opts: RenderPaceOptions = {}) {
    this.frameMs = opts.frameMs ?? 16;
    this.answerTimeoutMs = opts.answerTimeoutMs ?? 250;
    this.clock = opts.scheduler ?? realScheduler;
  }

  /** Ticks run so far. */
  get ticks(): number {
    return this._ticks;
  }

  /** Runs `flush` at the next tick (once, however often it is asked for before). */
  request(flush: () => void): void {
    this.due.add(flush);
    this.arm();
  }

  /** `flush` is no longer due (it ran by other means). */
  cancel(flush: () => void): void {
    this.due.delete(flush);
    if (this.due.size === 0) this.disarm();
  }

  /**
   * A post the webview answers: ticks after it wait for the answer once the post is `graceMs` old
   * (at once by default). Returns the token it answers with.
   */
  posted(graceMs = 0): number {
    const token = this.nextToken++;
    this.unanswered.set(token, { sent: this.clock.now(), graceMs });
    return token;
  }

  /** A post the renderer replies to (`arrived` settles then): ticks after it wait for the reply. */
  held(arrived: PromiseLike<unknown>): void {
    const token = this.posted();
    const release = (): void => {
      if (this.unanswered.delete(token)) this.arm();
    };
    arrived.then(release, release);
  }

  /** The renderer has taken the post of `token`, and every earlier one. */
  answered(token: number): void {
    for (const t of this.unanswered.keys()) if (t <= token) this.unanswered.delete(t);
    if (this.due.size > 0) this.arm();
  }

  /** When the next tick may run (clock time), `now` or later. */
  private nextAt(now: number): number {
    let at = Math.max(this.lastTick + this.frameMs, now);
    // A post in its grace is not waited for, unless the tick is due after that grace anyway.
    for (let moved = true; moved;) {
      moved = false;
      for (const { sent, graceMs } of this.unanswered.values()) {
        const until = sent + this.answerTimeoutMs;
        if (until > at && at >= sent + graceMs) {
          at = until;
          moved = true;
        }
      }
    }
    return at;
  }

  private arm(): void {
    if (this.due.size === 0) return;
    const now = this.clock.now();
    const at = this.nextAt(now);
    if (this.timer !== undefined && this.timerAt <= at) return;
    this.disarm();
    this.timerAt = at;
    this.timer = this.clock.setTimeout(() => this.onTimer(), at - now);
  }

  private disarm(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private onTimer(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.clock.now();
    // Answers that did not come in time are not waited for again.
    for (const [t, { sent }] of this.unanswered) if (sent + this.answerTimeoutMs <= now) this.unanswered.delete(t);
    // Node's timers count from the loop's cached clock: one may fire a little early.
    if (now < this.nextAt(now)) return this.arm();
    this.tick(now);
  }

  private tick(now: number): void {
    this.lastTick = now;
    this._ticks++;
    const flushes = [...this.due];
    this.due.clear();
    for (const f of flushes) {
      try {
        f();
      } catch (e) {
        // One surface's failure must not keep the others from updating.
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }

  dispose(): void {
    this.disarm();
    this.due.clear();
    this.unanswered.clear();
  }
}

/**
 * The extension host's one pace (every surface that reaches the renderer shares it). Ticks 24 ms
 * apart at least: measured against 16 and 33 ms in the real VS Code under two streams (docs/
 * PERFORMANCE.md), the conversation kept its p95 under 60 ms in every run and a paced turn cost the
 * extension host and the renderer less than at 16; 33 ms saved more but slowed a single stream.
 */
export const rendererPace = new RenderPace({ frameMs: 24 });
