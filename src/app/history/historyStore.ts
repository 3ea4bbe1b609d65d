// The durable session history of one workspace, under the extension's workspace storage: an
// index (`index.json`: which sessions exist, their agent, title, folder, size) and one append-only
// log per session (`sessions/<id>.jsonl`, records.ts). Writes are batched off the hot path (one
// append per session per flush, never one per update; a batch is written as `PendingBatch` keeps
// it: chunks joined, plan updates already obsolete left out, a plan revision as the entries that
// changed); file operations never overlap, and the index is replaced atomically (write a
// temporary file, rename). A crash loses at most the records not yet flushed, and a torn last line
// is reported once and skipped, never a failed load. Logs are compacted when a session is loaded
// (message chunks merged, old plan revisions dropped), so files follow what is shown, not what was
// streamed. Retention: at most `maxSessions` sessions and `maxBytes` in all (oldest first). A
// link in the history folder (the folder itself, `sessions`, a log or the index) is never written
// or read through: it is reported once and the history is kept in memory only from then on.
// Free of `vscode`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lazyModule } from '../../common/lazy';
import type * as Reader from './logReader';
import { LogEncoder, PendingBatch, type HistoryRecord } from './records';
import * as files from './historyFiles';
import { byteLength, serializeInSlices, SLICE_CHARS, yieldNow } from './logSlices';
import {
  describedSession,
  MAX_SESSION_LOG_BYTES,
  overRetention,
  type HistoryIndex,
  type HistoryOptions,
  type LoadedSession,
  type SessionDescription,
  type StoredSession,
} from './storedSessions';

export { MAX_SESSION_LOG_BYTES } from './storedSessions';
export type { HistoryOptions, LoadedSession, SessionDescription, StoredSession, StoredWorktree } from './storedSessions';

/** Records of one session that start a flush without waiting for the timer. */
const FLUSH_AT_RECORDS = 4096;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously
const reader = lazyModule('history-reader.js', () => require('./logReader') as typeof Reader);

export class HistoryStore {
  private index: HistoryIndex = { version: 1, sessions: [] };
  private readonly pending = new Map<string, PendingBatch>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private indexDirty = false;
  private dirsMade = false;
  private disposed = false;
  /** Logs that stayed over MAX_SESSION_LOG_BYTES after compaction: no more records are kept. */
  private readonly full = new Set<string>();
  /** Per log written by this process: what its next lines are encoded against (records.ts). */
  private readonly encoders = new Map<string, LogEncoder>();
  private written = 0;
  /** The batch being appended: its log, the slice being written and where, what is left of it. */
  private appending: files.Appending | undefined;
  /** A flush is queued and has not started: what is appended now is written by it. */
  private flushQueued = false;
  /** A link met in the history folder: nothing is written from then on. */
  private linked: string | undefined;

  constructor(
    private readonly dir: string,
    private readonly options: HistoryOptions,
  ) {}

  /** Reads the index (small; synchronous, at activation). A missing or unreadable index is an empty history. */
  loadIndex(): StoredSession[] {
    try {
      this.index = files.readIndexFile(this.dir, this.options.warn) ?? this.index;
    } catch (err) {
      this.failed(err);
    }
    return this.sessions();
  }

  /** Reports a problem of the history (the extension's log). */
  report(message: string): void {
    this.options.warn(message);
  }

  /** A file operation failed: a link met is refused (reported once, writing stops), else reported. */
  private failed(err: unknown): void {
    const link = files.linkRefused(this.dir, err);
    if (!link) return this.options.warn(`history not written: ${String(err)}`);
    this.pending.clear();
    if (this.linked !== undefined) return;
    this.linked = link.link;
    this.options.warn(link.message);
  }

  sessions(): StoredSession[] {
    return [...this.index.sessions];
  }
  /** Bytes this store has written (appends, rewrites, the index) since it was made. */
  get bytesWritten(): number {
    return this.written;
  }
  get activeSession(): { agentId: string; sessionId: string } | undefined {
    return this.index.active;
  }
  session(agentId: string, sessionId: string): StoredSession | undefined {
    return this.index.sessions.find((s) => s.agentId === agentId && s.sessionId === sessionId);
  }

  /** Adds or updates a session's entry (title, folder, agent name). */
  describe(s: SessionDescription): void {
    const prev = this.session(s.agentId, s.sessionId);
    const next = describedSession(prev, s, Date.now());
    if (next === prev) return;
    // In place: the tree lists stored sessions in index order, which a title change must not shuffle.
    this.index.sessions = prev ? this.index.sessions.map((x) => (x === prev ? next : x)) : [...this.index.sessions, next];
    this.markIndex();
  }

  setActive(key: { agentId: string; sessionId: string } | undefined): void {
    if (key?.agentId === this.index.active?.agentId && key?.sessionId === this.index.active?.sessionId) return;
    this.index.active = key ? { agentId: key.agentId, sessionId: key.sessionId } : undefined;
    this.markIndex();
  }

  /** Queues a record of a session (written at the next flush). */
  append(agentId: string, sessionId: string, r: HistoryRecord): void {
    if (this.disposed) return;
    const s = this.session(agentId, sessionId);
    if (!s || this.full.has(s.file)) return;
    let batch = this.pending.get(s.file);
    if (!batch) this.pending.set(s.file, (batch = new PendingBatch(this.options.maxPlanRevisions)));
    batch.add(r);
    s.updatedAt = r.t;
    // A burst is written as it goes (a batch at a time; the index with the timer's next flush).
    if (batch.size >= FLUSH_AT_RECORDS && !this.flushQueued) {
      this.flushQueued = true;
      void this.exclusive(() => this.writeNow(false)).catch((err: unknown) => this.failed(err));
    }
    this.schedule();
  }

  /** Reads and compacts a session's log. A log much larger than its compacted form is rewritten. */
  load(s: StoredSession): Promise<LoadedSession> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    return this.exclusive(async () => {
      await this.writeNow().catch((err: unknown) => this.failed(err));
      return this.loadNow(s);
    });
  }

  /** A log as its records (plan revisions capped while reading); bad lines are counted, not reported (SessionHistory does). */
  private async loadNow(s: StoredSession): Promise<LoadedSession> {
    let parsed: Reader.ReadLog;
    try {
      parsed = await this.read(s.file);
    } catch (err) {
      if (files.linkRefused(this.dir, err)) this.failed(err);
      else if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.options.warn(`history of session ${s.sessionId} unreadable: ${String(err)}`);
      return { records: [], badLines: 0, torn: false };
    }
    if (parsed.torn)
      this.options.warn(`history of session ${s.sessionId}: the last record was cut short (the editor stopped while writing it); it was skipped.`);
    const records = await reader().compactInSlices(parsed.records, this.options.maxPlanRevisions, yieldNow);
    // Rewritten when compaction left at most half of the records read (serialized only then: a
    // restore reads every stored session, and most logs were written compact already).
    if (parsed.torn || parsed.badLines || records.length <= (parsed.records.length + parsed.dropped) / 2) {
      const encoder = new LogEncoder();
      await this.rewrite(s, await serializeInSlices(records, encoder), encoder);
    }
    return { records, badLines: parsed.badLines, torn: parsed.torn };
  }

  /** Stores a whole session at once (an imported bundle); false when it is already here. */
  async importSession(
    s: { agentId: string; agentName: string; sessionId: string; title?: string; cwd?: string },
    records: readonly HistoryRecord[],
  ): Promise<StoredSession | undefined> {
    if (this.session(s.agentId, s.sessionId)) return undefined;
    this.describe(s);
    const stored = this.session(s.agentId, s.sessionId)!;
    const encoder = new LogEncoder();
    const parts = await serializeInSlices(records, encoder);
    await this.exclusive(async () => {
      await this.ensureDirs();
      await this.rewrite(stored, parts, encoder);
    });
    stored.updatedAt = Date.now();
    await this.flush();
    return stored;
  }

  /** Forgets a session and deletes its log. */
  async delete(agentId: string, sessionId: string): Promise<void> {
    const s = this.session(agentId, sessionId);
    if (!s) return;
    this.pending.delete(s.file);
    this.index.sessions = this.index.sessions.filter((x) => x !== s);
    if (this.index.active?.agentId === agentId && this.index.active.sessionId === sessionId) delete this.index.active;
    this.markIndex();
    this.options.removed?.(agentId, sessionId);
    await this.exclusive(() => this.remove(s.file));
  }

  async clear(): Promise<void> {
    for (const s of this.index.sessions) this.options.removed?.(s.agentId, s.sessionId);
    this.pending.clear();
    this.index = { version: 1, sessions: [] };
    await this.exclusive(async () => {
      this.encoders.clear();
      this.dirsMade = false;
      if (this.linked === undefined) await fs.promises.rm(path.join(this.dir, 'sessions'), { recursive: true, force: true });
    });
    this.markIndex();
    await this.flush();
  }

  /** Writes what is queued now (the index too). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.flushQueued = true;
    return this.exclusive(() => this.writeNow()).catch((err: unknown) => this.failed(err));
  }

  /** Runs `fn` after every file operation queued before it (appends, rewrites and removals never overlap). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writing.then(fn);
    this.writing = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Flushes synchronously (deactivation: the process may end right after). The batch being
   * appended is finished first, from the slice in flight on (written again at its place: the same
   * bytes), then what is queued; nothing written after this call changes the logs.
   */
  flushSync(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.linked !== undefined) return;
    try {
      files.makeDirsSync(this.dir);
      const a = this.appending;
      this.appending = undefined;
      if (a) files.writeLogSync(this.logPath(a.file), a.position, a.slice, a.rest, this.counter(a.file));
      for (const [file, batch] of this.pending)
        files.writeLogSync(this.logPath(file), undefined, undefined, batch.text(this.encoder(file), SLICE_CHARS), this.counter(file));
      this.pending.clear();
      if (this.indexDirty) this.writeIndexSync();
    } catch (err) {
      this.failed(err);
    }
  }

  /** Counts the bytes written to a log (its session's size in the index with them). */
  private counter(file: string): (bytes: number) => void {
    const s = this.index.sessions.find((x) => x.file === file);
    return (bytes) => {
      this.written += bytes;
      if (s) {
        s.bytes += bytes;
        this.indexDirty = true;
      }
    };
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.flushMs ?? 500);
  }

  private markIndex(): void {
    this.indexDirty = true;
    if (!this.disposed) this.schedule();
  }

  /** Writes the queued records, and the index when `indexToo` (else the timer's flush writes it). */
  private async writeNow(indexToo = true): Promise<void> {
    this.flushQueued = false;
    if (this.linked !== undefined) return void this.pending.clear();
    if (this.pending.size) await this.ensureDirs();
    for (const file of [...this.pending.keys()]) {
      const batch = this.pending.get(file);
      if (!batch || this.disposed) continue;
      this.pending.delete(file);
      const s = this.index.sessions.find((x) => x.file === file);
      await this.appendBatch(file, batch);
      if (this.disposed) return; // deactivation wrote the rest
      if (s && s.bytes > (this.options.maxSessionBytes ?? MAX_SESSION_LOG_BYTES)) await this.compactLog(s);
    }
    if (this.disposed) return;
    await this.enforceRetention();
    if (this.indexDirty && indexToo) await this.writeIndex();
  }

  /**
   * Appends a batch a slice at a time (each write awaits: a burst never blocks the host long), at
   * known places, so that deactivation can finish it (`appending`, flushSync).
   */
  private async appendBatch(file: string, batch: PendingBatch): Promise<void> {
    const a: files.Appending = { file, rest: batch.text(this.encoder(file), SLICE_CHARS) };
    this.appending = a;
    try {
      await files.appendSlices(this.logPath(file), a, () => this.appending === a, this.counter(file));
    } catch (err) {
      this.dirsMade = false; // a folder removed behind our back is made again next time
      this.encoders.delete(file); // what the encoder counted as written may not be: the next lines start whole
      throw err;
    } finally {
      if (this.appending === a) this.appending = undefined;
    }
  }

  /** The storage folders, made once (again after Clear All History). */
  private async ensureDirs(): Promise<void> {
    if (this.dirsMade) return;
    files.makeDirsSync(this.dir);
    this.dirsMade = true;
  }

  /** Oldest sessions go first when there are too many or they take too much space. */
  private async enforceRetention(): Promise<void> {
    for (const s of overRetention(this.index, this.options)) {
      this.index.sessions = this.index.sessions.filter((x) => x !== s);
      this.indexDirty = true;
      this.options.removed?.(s.agentId, s.sessionId);
      await this.remove(s.file);
    }
  }

  /** Compacts an oversized log in place; a log still over the cap keeps no more records. */
  private async compactLog(s: StoredSession): Promise<void> {
    const cap = this.options.maxSessionBytes ?? MAX_SESSION_LOG_BYTES;
    const parsed = await this.read(s.file);
    const encoder = new LogEncoder();
    await this.rewrite(s, await serializeInSlices(await reader().compactInSlices(parsed.records, this.options.maxPlanRevisions, yieldNow), encoder), encoder);
    if (s.bytes > cap / 2) {
      this.full.add(s.file);
      this.pending.delete(s.file);
      this.options.warn(
        `history of session ${s.sessionId} reached ${Math.round(cap / 1048576)} MB; what the session does from now on is not kept after a reload.`,
      );
    }
  }

  /** Replaces a log with `parts` (written one after the other, then renamed into place); `encoder` wrote them. */
  private async rewrite(s: StoredSession, parts: readonly string[], encoder: LogEncoder): Promise<void> {
    if (this.linked !== undefined) return;
    this.encoders.delete(s.file);
    // After deactivation the log may have had records appended to it (flushSync): it stays as it is.
    if (!(await files.replaceLog(this.dir, s.file, parts, () => this.disposed))) return;
    this.encoders.set(s.file, encoder);
    s.bytes = byteLength(parts);
    this.written += s.bytes;
    this.markIndex();
  }

  /** The encoder of a log's next lines (a new one, whose first line of each plan is whole, for a log this process has not written). */
  private encoder(file: string): LogEncoder {
    let e = this.encoders.get(file);
    if (!e) this.encoders.set(file, (e = new LogEncoder()));
    return e;
  }

  private async remove(file: string): Promise<void> {
    this.encoders.delete(file);
    if (this.linked === undefined) await fs.promises.rm(this.logPath(file), { force: true });
  }

  private async writeIndex(): Promise<void> {
    this.indexDirty = false;
    if (this.linked !== undefined) return;
    await this.ensureDirs();
    await files.writeIndexFile(
      this.dir,
      this.index,
      (bytes) => (this.written += bytes),
      () => this.disposed,
    );
  }

  private writeIndexSync(): void {
    this.indexDirty = false;
    this.written += files.writeIndexFileSync(this.dir, this.index);
  }

  /** A log's records, read a line at a time (links and over-long lines refused; logReader.ts). */
  private read(file: string): Promise<Reader.ReadLog> {
    return reader().readLog(this.logPath(file), { maxPlanRevisions: this.options.maxPlanRevisions, maxLineBytes: this.options.maxLogLineBytes });
  }

  private logPath(file: string): string {
    return path.join(this.dir, 'sessions', file);
  }
}
