// Plays an indexed recording (format.ts) through a ReplayDecoder into a sink, one recorded line
// (one message, or one batch) at a time:
//   instant   everything, in slices of SLICE lines per tick so a long recording never blocks;
//   recorded  at the recorded pace: the gap between two lines' times, at most MAX_GAP_MS
//             (recordings without times: DEFAULT_GAP_MS per line);
//   step      paused from the start; each step() plays exactly one line.
// Pause, resume and step work in every pace. Time is injected (schedule), so tests need no
// sleeps. Nothing here sends anything anywhere. No `vscode`.
import type { Event } from '../protocol/api';
import { Disposable, toDisposable } from '../common/lifecycle';
import { Emitter } from '../state/emitter';
import type { ReplayDecoder, ReplayOutput } from './decoder';
import { readMessage, type RecordedMessage, type RecordingIndex } from './format';

export type ReplayPace = 'instant' | 'recorded' | 'step';

/** Longest wait between two lines at recorded speed (longer idle gaps are shortened to this). */
export const MAX_GAP_MS = 2000;
/** The wait between two lines at recorded speed when the recording has no times. */
export const DEFAULT_GAP_MS = 100;
/** Lines played per tick in `instant` pace. */
const SLICE = 500;

export interface ReplayScheduler {
  (fn: () => void, ms: number): { dispose(): void };
}

export interface PlayerState {
  /** Lines played so far (of `total`). */
  readonly position: number;
  readonly total: number;
  readonly paused: boolean;
  readonly done: boolean;
  readonly pace: ReplayPace;
}

export class ReplayPlayer extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<PlayerState>());
  /** Fires after each played slice or line, and on pause, resume and the end. */
  readonly onDidChange: Event<PlayerState> = this._onDidChange.event;
  private position = 0;
  private paused: boolean;
  private timer: { dispose(): void } | undefined;
  private disposed = false;

  constructor(
    private readonly bytes: Buffer,
    private readonly index: RecordingIndex,
    private readonly decoder: ReplayDecoder,
    private readonly sink: (outputs: ReplayOutput[], message: RecordedMessage) => void,
    private readonly pace: ReplayPace,
    private readonly schedule: ReplayScheduler,
  ) {
    super();
    this.paused = pace === 'step';
    this._register(
      toDisposable(() => {
        this.disposed = true;
        this.cancelTimer();
      }),
    );
  }

  get state(): PlayerState {
    return { position: this.position, total: this.index.messages.length, paused: this.paused, done: this.done, pace: this.pace };
  }

  private get done(): boolean {
    return this.position >= this.index.messages.length;
  }

  /** Starts playing (in `step` pace: waits for step()). */
  start(): void {
    if (!this.paused) this.next(0);
    this.changed();
  }

  pause(): void {
    if (this.paused || this.done || this.disposed) return;
    this.paused = true;
    this.cancelTimer();
    this.changed();
  }

  resume(): void {
    if (!this.paused || this.done || this.disposed) return;
    this.paused = false;
    this.next(0);
    this.changed();
  }

  /** Plays exactly one line (pausing first if playing); false at the end. */
  step(): boolean {
    if (this.done || this.disposed) return false;
    if (!this.paused) {
      this.paused = true;
      this.cancelTimer();
    }
    this.playOne();
    this.changed();
    return true;
  }

  private next(ms: number): void {
    this.cancelTimer();
    this.timer = this.schedule(() => this.tick(), ms);
  }

  private tick(): void {
    this.timer = undefined;
    if (this.paused || this.disposed) return;
    if (this.pace === 'instant') {
      for (let i = 0; i < SLICE && !this.done; i++) this.playOne();
      if (!this.done) this.next(0);
    } else {
      const played = this.playOne();
      if (!this.done) this.next(this.gapAfter(played));
    }
    this.changed();
  }

  private playOne(): RecordedMessage {
    const ref = this.index.messages[this.position++];
    const message = readMessage(this.bytes, ref);
    this.sink(this.decoder.decode(message), message);
    return message;
  }

  private gapAfter(played: RecordedMessage): number {
    const ref = this.index.messages[this.position];
    // At recorded speed a line is parsed twice (here for its time, then when played): cheap at this pace.
    const nextTime = ref === undefined ? undefined : readMessage(this.bytes, ref).time;
    if (played.time === undefined || nextTime === undefined) return DEFAULT_GAP_MS;
    return Math.max(0, Math.min(MAX_GAP_MS, nextTime - played.time));
  }

  private cancelTimer(): void {
    this.timer?.dispose();
    this.timer = undefined;
  }

  private changed(): void {
    if (!this.disposed) this._onDidChange.fire(this.state);
  }
}
