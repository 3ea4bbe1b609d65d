// Keeps the stores and the durable history in step. Live: every record that reaches the stores is
// appended to its session's log (batched by HistoryStore). At activation: the index alone is read
// (agents and sessions appear at once, not running); then, off the activation path, each
// session's log is replayed into the plan store and the transcript (revisions keep their original
// times) — the active session first. Replayed records are never recorded again. A session resumed
// on its agent later appends to the same log. A record that cannot be applied (a field missing or
// of the wrong type) is skipped: the rest of the session, and the other sessions, are restored, and
// the session says how many records were skipped (a notice, and one warning in the log). Free of
// `vscode`.
import type { SessionEvent } from '../../protocol/domain';
import type { WorkStore } from '../../state/attribution/workStore';
import type { PlanStore } from '../../state/planStore';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { Event } from '../../protocol/api';
import { Emitter } from '../../state/emitter';
import { parseSessionKey, sessionKey, type SessionKey, type SessionState, type SessionStore } from '../../state/sessionStore';
import type { Transcript } from '../../state/transcript';
import { intervalOf } from './intervalRecords';
import { MAX_SLICE_RECORDS } from './logSlices';
import { chunkOf, type HistoryRecord } from './records';
import type { HistoryStore, SessionDescription, StoredSession, StoredWorktree } from './historyStore';

export interface SessionHistoryDeps {
  history: HistoryStore;
  store: SessionStore;
  plans: PlanStore;
  transcript: Transcript;
  agentName(agentId: string): string;
  /** Agents whose sessions are not kept (replays of recordings live in memory only). */
  ignored(agentId: string): boolean;
  /** Sets the time the plan store stamps revisions with (undefined: the clock). */
  setReplayTime(t: number | undefined): void;
  /** Each event replayed into the stores, at its recorded time (the session events' onDidReplay). */
  replayed?(agentId: string, e: SessionEvent, t: number): void;
  /** The work index (src/state/attribution): fed the same events, with their stored times. */
  work?: Pick<WorkStore, 'apply' | 'recordWrite' | 'recordInterval' | 'clearSession'>;
  /** The owner of the sessions in git worktrees: told, at a restore, which stored sessions work in one. */
  worktrees?: { restored(sessions: readonly WorktreeSession[]): void };
}

/** A stored session that works in a git worktree. */
export interface WorktreeSession extends SessionKey {
  readonly worktree: StoredWorktree;
}

export class SessionHistory extends Disposable {
  private replaying = false;
  /** Characters stored per message / tool call, to stop storing what the views no longer keep. */
  private readonly stored = new Map<string, number>();
  /** The key in `stored` of the last chunk and what it was made of: a message's chunks come in a row. */
  private lastChunk?: { readonly agentId: string; readonly sessionId: string; readonly of: string; readonly role: string; readonly id: string };
  /** The plan last stored per plan, held weakly: a plan the budget cut must not stay alive here. */
  private readonly lastPlans = new Map<string, WeakRef<object>>();
  private restored: Promise<void> = Promise.resolve();
  /** Stored sessions whose replay has not finished, by sessionKey: resolved when it has. */
  private readonly replays = new Map<string, { done: Promise<void>; resolve: () => void }>();
  /** Stored sessions not replayed yet, in the order they will be. */
  private queue: StoredSession[] = [];
  private readonly _onDidReplay = this._register(new Emitter<SessionKey>());
  /** A stored session's replay finished (its plans, work and conversation are complete). */
  readonly onDidReplay: Event<SessionKey> = this._onDidReplay.event;
  private readonly _onDidReplayReview = this._register(new Emitter<SessionKey & { readonly review: unknown }>());
  /** A stored review comment, as its session is replayed (src/app/review keeps them). */
  readonly onDidReplayReview: Event<SessionKey & { readonly review: unknown }> = this._onDidReplayReview.event;

  constructor(private readonly d: SessionHistoryDeps) {
    super();
    this._register(
      toDisposable(() => {
        this.queue = [];
      }),
    );
  }

  /** Shows the stored sessions (not running) from the index, then replays their logs in the background; returns how many. */
  restore(): number {
    const stored = this.d.history.loadIndex();
    const { store } = this.d;
    for (const s of stored) {
      if (!store.agent(s.agentId)) store.setAgent({ id: s.agentId, name: s.agentName, status: 'stopped' });
      store.addStoredSession(s.agentId, s.sessionId, { ...(s.cwd ? { cwd: s.cwd } : {}), ...(s.title ? { title: s.title } : {}) });
      // Shown as the replay of its log will end it, so that its row does not change then.
      if (s.stopReason) store.applyEvent(s.agentId, { sessionId: s.sessionId, kind: 'state', state: 'idle', stopReason: s.stopReason });
    }
    this.restoreWorktrees();
    const active = this.d.history.activeSession;
    if (active && store.session(active.agentId, active.sessionId)) store.setActiveSession(active);
    // The active session first, then in the tree's order (top to bottom): what is in view settles first.
    const place = new Map(store.sessions().map((x, i) => [sessionKey(x.agentId, x.sessionId), i]));
    const rank = (x: StoredSession): number =>
      x.agentId === active?.agentId && x.sessionId === active.sessionId ? -1 : (place.get(sessionKey(x.agentId, x.sessionId)) ?? Infinity);
    const order = [...stored].sort((a, b) => rank(a) - rank(b));
    for (const x of order) {
      let resolve!: () => void;
      const done = new Promise<void>((r) => {
        resolve = r;
      });
      this.replays.set(sessionKey(x.agentId, x.sessionId), { done, resolve });
    }
    this.queue = order;
    this.restored = yieldNow()
      .then(() => this.replayAll())
      .finally(() => {
        for (const k of [...this.replays.keys()]) this.replayed(k);
      });
    return stored.length;
  }

  /** Tells the worktrees' owner which stored sessions work in a worktree (part of a restore). */
  restoreWorktrees(): void {
    const list = this.d.history.sessions().flatMap((s) => (s.worktree ? [{ agentId: s.agentId, sessionId: s.sessionId, worktree: s.worktree }] : []));
    if (list.length) this.d.worktrees?.restored(list);
  }

  /** A session's entry in the index, if it is stored. */
  storedEntry(agentId: string, sessionId: string): StoredSession | undefined {
    return this.d.history.session(agentId, sessionId);
  }

  /** Keeps the worktree a session works in on its stored record (created now if the session has none yet); null: none any more. */
  setWorktree(key: SessionKey, worktree: StoredWorktree | null): void {
    if (this.d.ignored(key.agentId) || (!worktree && !this.d.history.session(key.agentId, key.sessionId))) return;
    const s = this.d.store.session(key.agentId, key.sessionId);
    this.d.history.describe({ ...description(key.agentId, key.sessionId, this.d.agentName(key.agentId), s), worktree });
  }

  /** While a stored session is being restored: resolves once its replay has finished. */
  pending(agentId: string, sessionId: string): Promise<void> | undefined {
    return this.replays.get(sessionKey(agentId, sessionId))?.done;
  }

  /** The same as `pending`; a session still queued is replayed next (the user opened it). */
  wanted(agentId: string, sessionId: string): Promise<void> | undefined {
    const i = this.queue.findIndex((s) => s.agentId === agentId && s.sessionId === sessionId);
    if (i > 0) this.queue.unshift(...this.queue.splice(i, 1));
    return this.pending(agentId, sessionId);
  }

  private replayed(key: string): void {
    const r = this.replays.get(key);
    if (!r) return;
    this.replays.delete(key);
    r.resolve();
    const ref = parseSessionKey(key);
    if (ref) this._onDidReplay.fire(ref);
  }

  /** Resolves once every stored session has been replayed. */
  whenRestored(): Promise<void> {
    return this.restored;
  }

  /** Writes what is queued now (instead of at the next batch). */
  flush(): Promise<void> {
    return this.d.history.flush();
  }

  /** A record reached the stores live: append it (replays are not recorded again). */
  record(agentId: string, sessionId: string, r: HistoryRecord): void {
    if (this.replaying || this.d.ignored(agentId)) return;
    const kept = this.bounded(agentId, r);
    if (!kept) return;
    r = kept;
    const { history } = this.d;
    if (!history.session(agentId, sessionId)) {
      const s = this.d.store.session(agentId, sessionId);
      history.describe(description(agentId, sessionId, this.d.agentName(agentId), s));
    }
    history.append(agentId, sessionId, r);
  }

  /**
   * The record as stored: a plan as the plan store keeps it (cut to its cap), chunks only while
   * their message or tool call is within what the transcript keeps (else undefined: not stored).
   */
  private bounded(agentId: string, r: HistoryRecord): HistoryRecord | undefined {
    if (!('e' in r)) return r;
    const e = r.e;
    if (e.kind === 'plan_update') {
      const kept = this.d.plans.get({ agentId, sessionId: e.sessionId, planId: e.plan.planId })?.plan;
      if (!kept) return r;
      // An update that changed nothing made no revision: storing it would make the stored revisions
      // (kept by count) fewer than the store's after a reload.
      const key = `${agentId}\u0000${e.sessionId}\u0000${e.plan.planId}`;
      if (this.lastPlans.get(key)?.deref() === kept) return undefined;
      if (this.lastPlans.size >= 4096) this.lastPlans.clear(); // a bound on the bookkeeping itself
      this.lastPlans.set(key, new WeakRef(kept));
      return kept !== e.plan ? { t: r.t, e: { ...e, plan: kept } } : r;
    }
    const c = chunkOf(e);
    if (!c) return r;
    const last = this.lastChunk;
    let id: string;
    if (last && last.of === c.of && last.role === c.role && last.sessionId === e.sessionId && last.agentId === agentId) id = last.id;
    else {
      id = `${c.kind}\u0000${agentId}\u0000${e.sessionId}\u0000${c.role}\u0000${c.of}`;
      this.lastChunk = { agentId, sessionId: e.sessionId, of: c.of, role: c.role, id };
    }
    const total = (this.stored.get(id) ?? 0) + blockChars(c.content);
    if (this.stored.size > 10_000) this.stored.clear(); // a bound on the bookkeeping itself
    this.stored.set(id, total);
    return total > c.max ? undefined : r;
  }

  /** The session's title, folder or agent changed, or it became active. */
  describe(key: SessionKey): void {
    const s = this.d.store.session(key.agentId, key.sessionId);
    if (!s || !this.d.history.session(key.agentId, key.sessionId)) return;
    this.d.history.describe(description(key.agentId, key.sessionId, this.d.agentName(key.agentId), s));
  }

  /** The stored records of a session (for export), or undefined when it is not stored. */
  async records(key: SessionKey): Promise<{ session: StoredSession; records: HistoryRecord[] } | undefined> {
    const s = this.d.history.session(key.agentId, key.sessionId);
    return s && { session: s, records: (await this.d.history.load(s)).records };
  }

  /** Stores and shows an imported session (not served by any agent); false when it is already here. */
  async importSession(
    s: { agentId: string; agentName: string; sessionId: string; title?: string; cwd?: string },
    records: readonly HistoryRecord[],
  ): Promise<boolean> {
    if (this.d.store.session(s.agentId, s.sessionId)) return false;
    const stored = await this.d.history.importSession(s, records);
    if (!stored) return false;
    if (!this.d.store.agent(s.agentId)) this.d.store.setAgent({ id: s.agentId, name: s.agentName, status: 'stopped' });
    this.d.store.addStoredSession(s.agentId, s.sessionId, { ...(s.cwd ? { cwd: s.cwd } : {}), ...(s.title ? { title: s.title } : {}) });
    this.replay(stored, records);
    return true;
  }

  /** Deletes a session's stored history and forgets it in the views (a live session keeps running; what it does next starts a new history). */
  async delete(key: SessionKey): Promise<void> {
    await this.d.history.delete(key.agentId, key.sessionId);
    this.forget(key);
  }

  /** Deletes every stored session of this workspace. */
  async clear(): Promise<void> {
    const all = this.d.history.sessions();
    await this.d.history.clear();
    for (const s of all) this.forget(s);
  }

  private forget(key: SessionKey): void {
    if (this.d.store.session(key.agentId, key.sessionId)?.live) return;
    this.d.plans.clearSession(key.agentId, key.sessionId);
    this.d.work?.clearSession(key.agentId, key.sessionId);
    this.d.transcript.removeSession(sessionKey(key.agentId, key.sessionId));
    this.d.store.removeSession(key.agentId, key.sessionId);
  }

  private async replayAll(): Promise<void> {
    for (let n = 0; this.queue.length; n++) {
      const s = this.queue.shift()!;
      await this.replayStored(s).catch((err: unknown) => this.d.history.report(`history of session ${s.sessionId} not restored: ${String(err)}`));
      // The active session is replayed first; the others (shown folded, from the index) wait until
      // the views have painted it: replayed alongside, they made its rows half as fast to appear.
      await (n === 0 ? delay(VIEWS_FIRST_MS) : yieldNow());
    }
  }

  private async replayStored(s: StoredSession): Promise<void> {
    const loaded = await this.d.history.load(s);
    // A few milliseconds at a time: the views paint and the host answers between slices (a
    // session of 10,000 items replayed in one go held the host for half a second at activation,
    // and slices of 500 records delayed the Plans tree's first rows by 150 ms).
    const replay = new Replay(s);
    replay.skipped = loaded.badLines;
    for (let i = 0; i < loaded.records.length;) {
      i = this.replaySlice(replay, loaded.records, i, performance.now() + SLICE_MS, MAX_SLICE_RECORDS);
      if (i < loaded.records.length) await yieldNow();
    }
    this.endReplay(replay);
    this.replayed(replay.key);
  }

  /** Applies a stored session's records to the stores, synchronously, in order. */
  private replay(s: StoredSession, records: readonly HistoryRecord[]): void {
    const replay = new Replay(s);
    this.replaySlice(replay, records, 0, Infinity);
    this.endReplay(replay);
  }

  /**
   * Applies records of a replay from `from` (in order, synchronously; live events wait until it
   * returns) until `deadline` (a `performance.now()` time) or `max` records; returns the next index.
   */
  private replaySlice(replay: Replay, records: readonly HistoryRecord[], from: number, deadline: number, max = Infinity): number {
    const { transcript } = this.d;
    const { s, key, asked } = replay;
    this.replaying = true;
    let i = from;
    const end = Math.min(records.length, from + max);
    try {
      while (i < end) {
        const r = records[i++]!;
        this.d.setReplayTime(r.t);
        try {
          if (namesOtherSession(r, s.sessionId))
            replay.skipped++; // another session's: a log never feeds one
          else if ('e' in r) this.applyEvent(s.agentId, r.e, key, r.t);
          else if ('ask' in r) {
            transcript.addPermissionRequest(r.ask.request, { requestId: r.ask.id, flags: [...r.ask.flags], key });
            asked.add(r.ask.id);
          } else if ('answer' in r) {
            asked.delete(r.answer.id);
            transcript.resolvePermission(key, r.answer.id, r.answer.outcome);
          } else if ('write' in r) this.d.work?.recordWrite(s.agentId, s.sessionId, r.write.path, r.write.before, r.write.after, r.t);
          else if ('ckpt' in r) this.d.work?.recordInterval(s.agentId, s.sessionId, intervalOf(r.ckpt), r.t);
          else if ('review' in r) this._onDidReplayReview.fire({ agentId: s.agentId, sessionId: s.sessionId, review: r.review });
          else transcript.appendClientTerminalOutput(key, r.term.terminalId, r.term.text, r.term.exit);
        } catch {
          replay.skipped++; // a record that does not hold what its kind needs: the next ones still apply
        }
        if (performance.now() >= deadline) break; // every record: 64 between checks held the host 150 ms
      }
    } finally {
      this.d.setReplayTime(undefined);
      this.replaying = false;
    }
    return i;
  }

  private endReplay({ s, key, asked, skipped }: Replay): void {
    // Requests still open when the editor stopped can no longer be answered.
    for (const id of asked) this.d.transcript.resolvePermission(key, id, { outcome: 'cancelled' });
    if (skipped) {
      const title = `${skipped === 1 ? "1 record of this session's history could not be read and was" : `${skipped} records of this session's history could not be read and were`} skipped.`;
      this.d.history.report(
        `history of session ${s.sessionId}: ${skipped} record${skipped === 1 ? '' : 's'} could not be read and ${skipped === 1 ? 'was' : 'were'} skipped.`,
      );
      this.d.transcript.apply({ sessionId: s.sessionId, kind: 'notice', severity: 'warning', title }, key);
    }
    const last = this.d.store.session(s.agentId, s.sessionId);
    if (last && last.turnState !== 'idle' && !last.live) this.d.store.applyEvent(s.agentId, INTERRUPTED(s.sessionId));
  }

  private applyEvent(agentId: string, e: SessionEvent, key: string, t: number): void {
    this.d.store.applyEvent(agentId, e);
    this.d.plans.apply(agentId, e);
    this.d.transcript.apply(e, key);
    this.d.work?.apply(agentId, e, t);
    this.d.replayed?.(agentId, e, t);
  }
}

/** A turn the editor stopped in the middle of: it can no longer end. */
const INTERRUPTED = (sessionId: string): SessionEvent => ({ sessionId, kind: 'state', state: 'idle', stopReason: 'interrupted' });

/** What the index keeps of a session: what its row shows while it is stored. */
export function description(agentId: string, sessionId: string, agentName: string, s: SessionState | undefined): SessionDescription {
  const stopReason = !s ? undefined : s.turnState !== 'idle' ? 'interrupted' : (s.stopReason ?? '');
  return {
    agentId,
    agentName,
    sessionId,
    ...(s?.cwd ? { cwd: s.cwd } : {}),
    ...(s?.title ? { title: s.title } : {}),
    ...(stopReason !== undefined ? { stopReason } : {}),
  };
}

/** Milliseconds of replay between two pauses of a restore. */
const SLICE_MS = 8;
/** The pause after the active session's replay, before the other stored sessions' (see replayAll). */
const VIEWS_FIRST_MS = 300;
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const yieldNow = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One stored session being replayed: its transcript key and the permission requests still open. */
class Replay {
  readonly key: string;
  readonly asked = new Set<string>();
  /** Records that could not be read or applied. */
  skipped = 0;
  constructor(readonly s: StoredSession) {
    this.key = sessionKey(s.agentId, s.sessionId);
  }
}

/** A record naming a session other than `sessionId` (an event's, a permission request's): never its log's to replay. */
function namesOtherSession(r: HistoryRecord, sessionId: string): boolean {
  if ('e' in r) return r.e.sessionId !== sessionId;
  const named: unknown = 'ask' in r ? r.ask.request.sessionId : undefined;
  return typeof named === 'string' && named !== sessionId;
}

/** A content block's size in characters (text, or the encoded data of an image, audio or resource). */
function blockChars(b: unknown): number {
  if (!b || typeof b !== 'object') return 0;
  const o = b as { text?: unknown; data?: unknown; resource?: { text?: unknown; blob?: unknown } };
  const len = (v: unknown): number => (typeof v === 'string' ? v.length : 0);
  return len(o.text) + len(o.data) + len(o.resource?.text) + len(o.resource?.blob) + 64;
}
