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
import type { PlanStore } from '../../src/state/planStore';
import { SessionStore, sessionKey } from '../../src/state/sessionStore';
import type { Transcript } from '../../src/state/transcript';

/** The extension's defaults (package.json: acp.history.*, acp.planHistory.maxRevisions). */
export const HISTORY_DEFAULTS = { maxSessions: 100, maxBytes: 500 * 1024 * 1024, maxPlanRevisions: 200 };

export interface PersistStats {
  /** Bytes the history store wrote from the first update to the last record flushed. */
  writtenBytes: number;
  /** The session log and index on disk when the stream ended, then after the load that compacts them. */
  diskBytes: number;
  diskBytesCompacted: number;
  warnings: string[];
}

export class Persistence {
  readonly store = new SessionStore();
  readonly history: HistoryStore;
  private readonly recorder: SessionHistory;
  private readonly warnings: string[] = [];

  constructor(private readonly dir: string, private readonly agentId: string, sessionId: string,
    private readonly plans: PlanStore, private readonly transcript: Transcript) {
    this.history = new HistoryStore(dir, { ...HISTORY_DEFAULTS, warn: (m) => this.warnings.push(m) });
    this.history.loadIndex();
    this.recorder = new SessionHistory({
      history: this.history, store: this.store, plans, transcript,
      agentName: () => 'Benchmark agent', ignored: () => false, setReplayTime: () => undefined,
    });
    this.store.setAgent({ id: agentId, name: 'Benchmark agent', status: 'running', protocolVersion: 2 });
    this.store.attachSession(agentId, sessionId, { cwd: '/work/project' });
  }

  key(sessionId: string): string { return sessionKey(this.agentId, sessionId); }

  /** One event, in the extension's order. */
  apply(e: SessionEvent): void {
    this.store.applyEvent(this.agentId, e);
    this.plans.apply(this.agentId, e);
    this.transcript.apply(e, sessionKey(this.agentId, e.sessionId));
    this.recorder.record(this.agentId, e.sessionId, { t: Date.now(), e });
  }

  /** Everything recorded is on disk. */
  flush(): Promise<void> { return this.history.flush(); }

  /** After flush(): bytes written, disk size, then the size once a load has compacted the log. */
  async stats(): Promise<PersistStats> {
    const writtenBytes = this.history.bytesWritten;
    const diskBytes = this.diskBytes();
    for (const s of this.history.sessions()) await this.history.load(s);
    await this.history.flush();
    return { writtenBytes, diskBytes, diskBytesCompacted: this.diskBytes(), warnings: this.warnings };
  }

  private diskBytes(): number {
    let n = statSync(path.join(this.dir, 'index.json')).size;
    for (const s of this.history.sessions()) n += statSync(path.join(this.dir, 'sessions', s.file)).size;
    return n;
  }
}
