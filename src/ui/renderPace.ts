// One pace for everything the extension sends the renderer while an agent streams (the status bar
// item, the conversation's deltas): their updates leave together, in one turn, so VS Code's
// protocol writer sends them as one message; and a tick waits until the renderer has taken the
// previous one. In a browser (code-server, VS Code for the Web) the workbench reads every message
// from the extension host through one FileReader, one message after another, between its frames;
// sent faster than it reads, they queue, and every surface falls behind together (the queue grew
// to seconds under two streams). The conversation webview answers each delta it has applied, so a
// tick that posted one waits for that answer (or `answerTimeoutMs`, for a webview that went away)
// and never more than one of our messages waits in the renderer. No `vscode`.
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
  /** Posts not yet answered: token → when posted. */
  private readonly unanswered = new Map<number, number>();
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

  /** A post the renderer answers: later ticks wait for the answer. Returns the token it answers with. */
  posted(): number {
    const token = this.nextToken++;
    this.unanswered.set(token, this.clock.now());
    return token;
  }

  /** The renderer has taken the post of `token`, and every earlier one. */
  answered(token: number): void {
    for (const t of this.unanswered.keys()) if (t <= token) this.unanswered.delete(t);
    if (this.due.size > 0) this.arm();
  }

  /** When the next tick may run (clock time). */
  private nextAt(): number {
    let at = this.lastTick + this.frameMs;
    for (const sent of this.unanswered.values()) at = Math.max(at, sent + this.answerTimeoutMs);
    return at;
  }

  private arm(): void {
    if (this.due.size === 0) return;
    const at = this.nextAt();
    if (this.timer !== undefined && this.timerAt <= at) return;
    this.disarm();
    this.timerAt = at;
    this.timer = this.clock.setTimeout(() => this.onTimer(), Math.max(0, at - this.clock.now()));
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
    for (const [t, sent] of this.unanswered) if (sent + this.answerTimeoutMs <= now) this.unanswered.delete(t);
    // Node's timers count from the loop's cached clock: one may fire a little early.
    if (now < this.nextAt()) return this.arm();
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

/** The extension host's one pace (every surface that reaches the renderer shares it). */
export const rendererPace = new RenderPace();
