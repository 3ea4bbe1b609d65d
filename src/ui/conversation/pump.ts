// Feeds one webview with a session's transcript: a snapshot when it (re)loads or the session
// changes, then coalesced deltas: a change after a quiet frame is posted on the next turn (the
// changes of that turn together), later ones at most once per `coalesceMs` (a frame) — or, with a
// `pace` (the product), at the renderer pace's ticks, each held until the renderer replies to its
// post, and one delta in every `askEveryMs` answered by the webview itself.
// Pure (no `vscode`): `post` and the timer are injected, so unit tests drive it directly.
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { SessionMeta, Transcript, TranscriptChange } from '../../state/transcript';
import { parseSessionKey, sessionKey } from '../../state/sessionStore';
import { DeltaTracker } from './deltas';
import type { DeltaOp, ToWebview } from './webviewMessages';
import { sessionView, type SessionFactsSource } from './viewModel';
import type { L10n } from '../../common/l10n';
import type { RenderPace } from '../renderPace';

export interface PumpOptions {
  /** The shortest time between two posts. Default 16 ms (a frame). */
  coalesceMs?: number;
  /** Items in a snapshot (the webview keeps about as many in its DOM). Default 500. */
  windowSize?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  now?: () => number;
  /** Turn state, title, config options and queue of the shown session (the SessionStore). */
  facts?: SessionFactsSource;
  /** The words of what the view model makes (cards, truncation notes, token usage, terminal exits): `vscode.l10n` in the product; English when absent. */
  l10n?: L10n;
  /**
   * Deltas leave at this pace's ticks (with the status bar's updates) instead of on a timer of the
   * pump's own. The pace waits for the renderer's reply to each post (what `post` returns); and
   * a delta carries a `seq` the webview answers with (`answered`) when none is awaited and the last
   * was asked for `askEveryMs` ago or more: the pace waits for that answer once it is late.
   */
  pace?: RenderPace;
  /** How often a delta asks the webview to answer (with `pace`). Default 100 ms. */
  askEveryMs?: number;
}

/** How late the webview's answer may be before the pace waits for it (it keeps up well within). */
export const ANSWER_GRACE_MS = 100;
/**
 * Items a snapshot carries at first; the rest of the window comes on the next tick. A 10,000-item
 * session's first paint took 190–285 ms with the whole 500-item window in one message, 110–120
 * with 100 (bench/activation-history.mjs).
 */
export const FIRST_PAINT_ITEMS = 100;

export interface PumpStats {
  /** Messages posted to the webview (snapshots, deltas, earlier pages). */
  messagesPosted: number;
  snapshotsPosted: number;
  deltasPosted: number;
  /** Ops inside those deltas. */
  opsPosted: number;
  /** Transcript changes seen for the shown session. */
  changesSeen: number;
}

const EMPTY_META: SessionMeta = { lastTurnUsage: null, usage: null, commands: [] };

export class DeltaPump extends Disposable {
  readonly stats: PumpStats = { messagesPosted: 0, snapshotsPosted: 0, deltasPosted: 0, opsPosted: 0, changesSeen: 0 };
  private sessionId: string | undefined;
  private tracker: DeltaTracker | undefined;
  private live = false;
  private readonly dirtyItems = new Set<string>();
  private readonly dirtyTerminals = new Set<string>();
  private dirtySession = false;
  private needSnapshot = false;
  private timer: unknown;
  private readonly facts: SessionFactsSource | undefined;
  private readonly coalesceMs: number;
  readonly windowSize: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly now: () => number;
  private readonly l10n: L10n | undefined;
  private lastPost = -Infinity;
  private readonly pace: RenderPace | undefined;
  /** The token of the delta whose answer is awaited. */
  private unanswered: number | undefined;
  private lastAsk = -Infinity;
  private readonly askEveryMs: number;
  /** The rest of a snapshot's window, sent on the next tick (the newest items are painted first). */
  private rest: { before: number; count: number } | undefined;
  private readonly onTick = (): void => {
    this.timer = undefined;
    this.flush();
  };

  constructor(
    private readonly transcript: Transcript,
    /** Returns, where there is one, what settles when the renderer has read the message. */
    private readonly post: (m: ToWebview) => PromiseLike<unknown> | void,
    opts: PumpOptions = {},
  ) {
    super();
    this.coalesceMs = opts.coalesceMs ?? 16;
    this.now = opts.now ?? (() => performance.now());
    this.windowSize = opts.windowSize ?? 500;
    this.l10n = opts.l10n;
    this.pace = opts.pace;
    this.askEveryMs = opts.askEveryMs ?? 100;
    this.setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this._register(
      toDisposable(() => {
        this.cancelTimer();
        this.live = false;
      }),
    );
    this._register(transcript.onDidChange((c) => this.onChange(c)));
    this.facts = opts.facts;
    if (opts.facts) this._register(opts.facts.onDidChange((sessionId) => this.onChange({ sessionId, kind: 'session' })));
  }

  get activeSessionId(): string | undefined {
    return this.sessionId;
  }

  /** Shows another session (or none): the webview gets a snapshot of it. */
  setSession(sessionId: string | undefined): void {
    this.sessionId = sessionId;
    if (this.live) this.sendSnapshot();
  }

  /** The webview is loaded and listening: send a snapshot, then deltas. */
  start(): void {
    this.live = true;
    this.sendSnapshot();
  }

  /** The webview is gone or hidden (it reloads and calls `start` again): stop posting. */
  pause(): void {
    this.live = false;
    this.resetDirty();
    this.cancelTimer();
    // A hidden webview answers nothing more: the pace stops waiting for it.
    if (this.unanswered !== undefined) this.answered(this.unanswered);
  }

  /** The webview has applied the delta of `seq` (and every earlier one). */
  answered(seq: number): void {
    if (this.unanswered !== undefined && seq >= this.unanswered) this.unanswered = undefined;
    this.pace?.answered(seq);
  }

  /** Posts pending deltas now (normally done by the timer). */
  flush(): void {
    this.cancelTimer();
    if (!this.live || this.sessionId === undefined) return this.resetDirty();
    const session = this.transcript.session(this.sessionId);
    if (this.needSnapshot || !this.tracker || this.tracker.session !== session) return this.sendSnapshot();
    if (this.rest) this.sendRest(this.sessionId, this.tracker);
    const ops: DeltaOp[] = [];
    if (this.dirtySession)
      ops.push({ op: 'session', session: sessionView(this.sessionId, this.tracker.session.meta, this.facts?.get(this.sessionId), this.l10n) });
    for (const id of this.dirtyTerminals) ops.push(...this.tracker.terminalOps(id));
    for (const id of this.dirtyItems) ops.push(...this.tracker.itemOps(id));
    this.resetDirty();
    if (ops.length === 0) return;
    this.stats.messagesPosted++;
    this.stats.deltasPosted++;
    this.stats.opsPosted += ops.length;
    this.lastPost = this.now();
    if (!this.pace) return void this.post({ type: 'delta', sessionId: this.sessionId, ops });
    if (this.unanswered === undefined && this.lastPost - this.lastAsk >= this.askEveryMs) {
      this.lastAsk = this.lastPost;
      this.unanswered = this.pace.posted(ANSWER_GRACE_MS);
      this.post({ type: 'delta', sessionId: this.sessionId, ops, seq: this.unanswered });
      return;
    }
    const arrived = this.post({ type: 'delta', sessionId: this.sessionId, ops });
    if (arrived) this.pace.held(arrived);
  }

  /** The items of the window older than the snapshot's first part (what "show earlier" would bring). */
  private sendRest(sessionId: string, tracker: DeltaTracker): void {
    const { before, count } = this.rest!;
    this.rest = undefined;
    this.postEarlier(sessionId, tracker, before, count);
  }

  /** Answers the webview's "show earlier". */
  sendEarlier(sessionId: string, before: number, count: number): void {
    if (!this.live || sessionId !== this.sessionId || !this.tracker) return;
    this.flush();
    if (this.tracker) this.postEarlier(sessionId, this.tracker, before, Math.max(1, Math.min(count, 1000)));
  }

  /** Posts up to `count` items before index `before` as an "earlier" page. */
  private postEarlier(sessionId: string, tracker: DeltaTracker, before: number, count: number): void {
    this.stats.messagesPosted++;
    const arrived = this.post({ type: 'earlier', sessionId, ...tracker.earlier(before, count) });
    if (arrived) this.pace?.held(arrived);
  }

  private onChange(c: TranscriptChange): void {
    if (!this.live || c.sessionId !== this.sessionId) return;
    this.stats.changesSeen++;
    switch (c.kind) {
      case 'add':
      case 'append':
      case 'upsert':
        this.dirtyItems.add(c.itemId);
        break;
      case 'terminal':
        this.dirtyTerminals.add(c.terminalId);
        break;
      case 'session':
        this.dirtySession = true;
        break;
      case 'reset':
        this.needSnapshot = true;
        break;
      default:
        c satisfies never;
    }
    this.schedule();
  }

  /** A flush on the next tick of the pace (or after the coalescing interval without one). */
  private schedule(): void {
    if (this.timer !== undefined) return;
    if (this.pace) {
      this.timer = true;
      this.pace.request(this.onTick);
    } else
      this.timer = this.setTimer(
        () => {
          this.timer = undefined;
          this.flush();
        },
        Math.max(0, this.lastPost + this.coalesceMs - this.now()),
      );
  }

  private sendSnapshot(): void {
    this.cancelTimer();
    this.resetDirty();
    const id = this.sessionId;
    const session = id === undefined ? undefined : this.transcript.session(id);
    const ref = id === undefined ? undefined : parseSessionKey(id);
    const facts = this.facts;
    // Sessions named by an inter-session message are the same agent's: shown by their titles.
    const names = ref && facts ? (sid: string) => facts.get(sessionKey(ref.agentId, sid))?.title : undefined;
    this.tracker = session ? new DeltaTracker(session, names, this.l10n) : undefined;
    // A long session's newest items first: the webview paints them, and the rest of the window
    // follows on the next tick as an "earlier" page (prepended, the view staying at the bottom).
    const first = Math.min(this.windowSize, FIRST_PAINT_ITEMS);
    const page = this.tracker?.snapshot(first) ?? { items: [], firstIndex: 0, terminals: [] };
    const oldest = page.items[0]?.index;
    this.rest = first < this.windowSize && oldest !== undefined && oldest > page.firstIndex ? { before: oldest, count: this.windowSize - first } : undefined;
    this.stats.messagesPosted++;
    this.stats.snapshotsPosted++;
    this.post({
      type: 'snapshot',
      sessionId: id ?? null,
      session: id === undefined ? null : sessionView(id, session?.meta ?? EMPTY_META, this.facts?.get(id), this.l10n),
      ...page,
      windowSize: this.windowSize,
    });
    if (this.rest) this.schedule();
  }

  private resetDirty(): void {
    this.dirtyItems.clear();
    this.dirtyTerminals.clear();
    this.dirtySession = false;
    this.needSnapshot = false;
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) {
      if (this.pace) this.pace.cancel(this.onTick);
      else this.clearTimer(this.timer);
    }
    this.timer = undefined;
  }
}
