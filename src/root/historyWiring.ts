// The session history wired into the extension: the store of logs in the workspace storage, the
// service that records and replays them (src/app/history), and the session store's changes that
// describe sessions and the active one.
import { HistoryStore } from '../app/history/historyStore';
import { SessionHistory, type SessionHistoryDeps } from '../app/history/sessionHistory';
import { toDisposable, type IDisposable } from '../common/lifecycle';
import type { Config } from '../platform/config';
import { REPLAY_AGENT_PREFIX } from '../recording/format';
import type { WorkStore } from '../state/attribution/workStore';
import type { PlanStore } from '../state/planStore';
import type { SessionStore } from '../state/sessionStore';
import type { Transcript } from '../state/transcript';

export interface HistoryWiring {
  readonly dir: string;
  readonly config: Config;
  readonly store: SessionStore;
  readonly plans: PlanStore;
  readonly transcript: Transcript;
  readonly work: WorkStore;
  agentName(agentId: string): string;
  setReplayTime(t: number | undefined): void;
  warn(message: string): void;
  /** A session's log was deleted: what is kept beside it goes too. */
  removed(agentId: string, sessionId: string): void;
  /** The owner of the sessions in git worktrees (told which restored sessions work in one). */
  readonly worktrees?: SessionHistoryDeps['worktrees'];
}

/** Sessions, plans and conversations of this workspace survive reloads; `disposable` flushes what is queued, then stops. */
export function createHistory(w: HistoryWiring): { history: SessionHistory; disposable: IDisposable } {
  const store = new HistoryStore(w.dir, {
    maxSessions: w.config.historyMaxSessions(),
    maxBytes: w.config.historyMaxBytes(),
    maxPlanRevisions: w.config.planHistoryMax(),
    warn: w.warn,
    removed: w.removed,
  });
  const history = new SessionHistory({
    history: store,
    store: w.store,
    plans: w.plans,
    transcript: w.transcript,
    agentName: w.agentName,
    setReplayTime: w.setReplayTime,
    work: w.work,
    ...(w.worktrees ? { worktrees: w.worktrees } : {}),
    ignored: (agentId) => agentId.startsWith(REPLAY_AGENT_PREFIX),
  });
  const sub = w.store.onDidChange((c) => {
    if (c.scope === 'session' && c.kind !== 'removed') history.describe(c);
    if (c.scope === 'active') store.setActive(c.current);
  });
  return {
    history,
    disposable: toDisposable(() => {
      store.flushSync();
      history.dispose();
      sub.dispose();
    }),
  };
}

/** Restores the stored sessions, logging when the first one replayed and when all were restored. */
export function restoreHistory(history: SessionHistory, log: { info(m: string): void; warn(m: string): void }): IDisposable {
  const t0 = performance.now();
  const count = history.restore();
  if (!count) return toDisposable(() => undefined);
  const first = history.onDidReplay((ref) => {
    first.dispose();
    log.info(`history: the first stored session (${ref.sessionId}) replayed ${(performance.now() - t0).toFixed(0)} ms after the restore began`);
  });
  void history.whenRestored().then(
    () => log.info(`history: ${count} stored session(s) restored in ${(performance.now() - t0).toFixed(0)} ms`),
    (err: unknown) => log.warn(`history: restoring the stored sessions stopped: ${err instanceof Error ? err.message : String(err)}`),
  );
  return first;
}
