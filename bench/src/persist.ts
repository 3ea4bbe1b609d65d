// Persistence on, as the extension runs it (src/app/acpExtension.ts `apply`): every event goes to
// the SessionStore, PlanStore and Transcript, then the real SessionHistory records it into a real
// HistoryStore (batched JSON-lines appends in a storage folder). Used by consumer (a) with a
// storage folder argument. Bytes written are the store's own count (appends, rewrites, the index).
// (Not /proc/self/io `wchar`: Linux adds a reaped child's writes to it, here the producer's whole
// stream, which the write amplification printed before this count included.)
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { HistoryStore } from '../../src/app/history/historyStore';
import { SessionHistory } from '../../src/app/history/sessionHistory';
import type { SessionEvent } from '../../src/protocol/domain';
import { PlanStore } from '../../src/state/planStore';
import { SessionStore, sessionKey } from '../../src/state/sessionStore';
import { Transcript } from '../../src/state/transcript';

/** The extension's defaults (package.json: acp.history.*, acp.planHistory.maxRevisions). */
export const HISTORY_DEFAULTS = { maxSessions: 100, maxBytes: 500 * 1024 * 1024, maxPlanRevisions: 200 };

export interface PersistStats {
  /** Bytes the history store wrote from the first update to the last record flushed. */
  writtenBytes: number;
  /** The session log and index on disk when the stream ended, then after the load that compacts them. */
  diskBytes: number;
  diskBytesCompacted: number;
  warnings: string[];
  /** The first difference between the live stores and the ones restored from the log, if any. */
  replayDifference?: string;
}

export class Persistence {
  readonly store = new SessionStore();
  readonly history: HistoryStore;
  private readonly recorder: SessionHistory;
  private readonly warnings: string[] = [];

  constructor(
    private readonly dir: string,
    private readonly agentId: string,
    sessionId: string,
    private readonly plans: PlanStore,
    private readonly transcript: Transcript,
  ) {
    this.history = new HistoryStore(dir, { ...HISTORY_DEFAULTS, warn: (m) => this.warnings.push(m) });
    this.history.loadIndex();
    this.recorder = new SessionHistory({
      history: this.history,
      store: this.store,
      plans,
      transcript,
      agentName: () => 'Benchmark agent',
      ignored: () => false,
      setReplayTime: () => undefined,
    });
    this.store.setAgent({ id: agentId, name: 'Benchmark agent', status: 'running', protocolVersion: 2 });
    this.store.attachSession(agentId, sessionId, { cwd: '/work/project' });
  }

  key(sessionId: string): string {
    return sessionKey(this.agentId, sessionId);
  }

  /** One event, in the extension's order. */
  apply(e: SessionEvent): void {
    this.store.applyEvent(this.agentId, e);
    this.plans.apply(this.agentId, e);
    this.transcript.apply(e, sessionKey(this.agentId, e.sessionId));
    this.recorder.record(this.agentId, e.sessionId, { t: Date.now(), e });
  }

  /** Everything recorded is on disk. */
  flush(): Promise<void> {
    return this.history.flush();
  }

  /** After flush(): bytes written, disk size, then the size once a load has compacted the log. */
  async stats(): Promise<PersistStats> {
    const writtenBytes = this.history.bytesWritten;
    const diskBytes = this.diskBytes();
    const replayDifference = await this.replayDifference();
    for (const s of this.history.sessions()) await this.history.load(s);
    await this.history.flush();
    return { writtenBytes, diskBytes, diskBytesCompacted: this.diskBytes(), warnings: this.warnings, ...(replayDifference ? { replayDifference } : {}) };
  }

  /**
   * Restores the stored log into fresh stores, as a reload does, and compares them with the live
   * ones: every plan (its content and every revision kept) and every transcript item. Undefined when equal.
   */
  private async replayDifference(): Promise<string | undefined> {
    const history = new HistoryStore(this.dir, { ...HISTORY_DEFAULTS, warn: (m) => this.warnings.push(`replay: ${m}`) });
    const plans = new PlanStore();
    const transcript = new Transcript();
    const restored = new SessionHistory({
      history,
      store: new SessionStore(),
      plans,
      transcript,
      agentName: () => 'Benchmark agent',
      ignored: () => false,
      setReplayTime: () => undefined,
    });
    restored.restore();
    await restored.whenRestored();
    for (const live of this.history.sessions().flatMap((x) => this.plans.plans(this.agentId, x.sessionId))) {
      const back = plans.get(live);
      if (!back) return `plan ${live.planId} not restored`;
      if (JSON.stringify(back.plan) !== JSON.stringify(live.plan)) return `plan ${live.planId} restored with other content`;
      const revisions = (r: typeof live): string[] => r.revisions.map((v) => JSON.stringify(v.plan));
      const [x, y] = [revisions(live), revisions(back)];
      if (x.length !== y.length) return `plan ${live.planId}: ${y.length} revisions restored of ${x.length}`;
      const i = x.findIndex((v, k) => v !== y[k]);
      if (i >= 0) return `plan ${live.planId}: revision ${i} of ${x.length} differs`;
    }
    for (const id of this.transcript.sessionIds()) {
      const a = this.transcript.session(id)!;
      const b = transcript.session(id);
      if (!b) return `transcript ${id} not restored`;
      // Items as they read: a message's text whole (the live one keeps the chunks it came in, a
      // restored one is joined: their packing, `joined`, differs), without the views' render
      // counters (`rev`, `contentRev`).
      const readable = (k: string, v: unknown): unknown =>
        k === 'chunks' && Array.isArray(v) ? v.join('') : k === 'rev' || k === 'contentRev' || k === 'joined' ? undefined : v;
      const items = (t: typeof a): string[] => t.slice(t.firstIndex).map((x) => JSON.stringify(x, readable));
      const [x, y] = [items(a), items(b)];
      if (x.length !== y.length) return `transcript ${id}: ${y.length} items restored of ${x.length}`;
      const i = x.findIndex((v, k) => v !== y[k]);
      if (i >= 0) {
        let at = 0;
        while (x[i]![at] === y[i]![at]) at++;
        return `transcript ${id}, item ${i} (of ${x.length}): …${x[i]!.slice(Math.max(0, at - 60), at + 100)} restored as …${y[i]!.slice(Math.max(0, at - 60), at + 100)}`;
      }
    }
    return undefined;
  }

  private diskBytes(): number {
    let n = statSync(path.join(this.dir, 'index.json')).size;
    for (const s of this.history.sessions()) n += statSync(path.join(this.dir, 'sessions', s.file)).size;
    return n;
  }
}
