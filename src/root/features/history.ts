// Feature: the durable history of this workspace's sessions (src/app/history), in the workspace
// storage: it records what the session events say (every applied event, client writes, terminal
// output, permissions asked and answered), describes sessions and the active one as the session
// store changes, restores the stored sessions once every feature is active, and offers the history
// to the features that keep things beside it (checkpoints, worktrees).
import * as path from 'path';
import { HistoryStore } from '../../app/history/historyStore';
import { SessionHistory } from '../../app/history/sessionHistory';
import { DisposableStore, toDisposable, type IDisposable } from '../../common/lifecycle';
import { workspaceRoots } from '../../platform/workspace';
import { REPLAY_AGENT_PREFIX } from '../../recording/format';
import { MAX_TEXT_CHARS } from '../../state/attribution/workStore';
import { HISTORY_COMMANDS, historyCommandsModule, registerLazyCommands } from '../../ui/lazyCommands';
import type { Feature, FeatureHost } from '../host';
import { CHECKPOINTS, HISTORY, TEAM } from '../ports';

export const historyFeature: Feature = {
  name: 'history',
  activate(host) {
    const owned = new DisposableStore();
    const storage = host.context.storageUri?.fsPath;
    const history = storage && host.config.historyEnabled() ? start(host, path.join(storage, 'history'), owned) : undefined;
    owned.add(registerLazyCommands(HISTORY_COMMANDS, () => historyCommandsModule().historyCommands(history, host.store)));
    return owned;
  },
};

/** Sessions, plans and conversations of this workspace survive reloads; disposing flushes what is queued, then stops. */
function start(host: FeatureHost, dir: string, owned: DisposableStore): SessionHistory {
  const c = host.config;
  const store = new HistoryStore(dir, {
    maxSessions: c.historyMaxSessions(),
    maxBytes: c.historyMaxBytes(),
    maxPlanRevisions: c.planHistoryMax(),
    warn: (m) => host.logs.main.warn(`[history] ${m}`),
    // A session's log was deleted: its checkpoints go too.
    removed: (agentId, sessionId) => void host.port(CHECKPOINTS)?.forget(agentId, sessionId, workspaceRoots()),
  });
  const history = new SessionHistory({
    history: store,
    store: host.store,
    plans: host.plans,
    transcript: host.transcript,
    agentName: (agentId) => host.agents.get(agentId)?.def.name ?? host.store.agent(agentId)?.name ?? agentId,
    setReplayTime: (t) => host.setReplayTime(t),
    replayed: (agentId, event, t) => host.events.fireReplayed({ agentId, event, t }),
    work: host.work,
    worktrees: { restored: (list) => host.port(TEAM)?.sessions.restored(list) },
    ignored: (agentId) => agentId.startsWith(REPLAY_AGENT_PREFIX),
  });
  owned.add(
    host.store.onDidChange((ch) => {
      if (ch.scope === 'session' && ch.kind !== 'removed') history.describe(ch);
      if (ch.scope === 'active') store.setActive(ch.current);
    }),
  );
  owned.add(
    toDisposable(() => {
      store.flushSync();
      history.dispose();
    }),
  );
  record(host, history, owned);
  host.offer(HISTORY, { history, dir });
  host.afterActivation(() => owned.add(restore(history, host.logs.main)));
  return history;
}

/** What the session events say, written to the session's log. */
function record(host: FeatureHost, history: SessionHistory, owned: DisposableStore): void {
  const ev = host.events;
  owned.add(ev.onDidApply(({ agentId, event, t }) => history.record(agentId, event.sessionId, { t, e: event })));
  owned.add(
    ev.onDidWrite((w) => {
      if ((w.before?.length ?? 0) + w.after.length <= 2 * MAX_TEXT_CHARS)
        history.record(w.agentId, w.sessionId, { t: w.t, write: { path: w.path, before: w.before, after: w.after } });
    }),
  );
  owned.add(
    ev.onDidTerminalOutput((o) =>
      history.record(o.agentId, o.sessionId, { t: o.t, term: { terminalId: o.terminalId, text: o.text, ...(o.exit ? { exit: o.exit } : {}) } }),
    ),
  );
  owned.add(ev.onDidAskPermission((p) => history.record(p.agentId, p.sessionId, { t: p.t, ask: { id: p.id, request: p.request, flags: p.flags } })));
  owned.add(ev.onDidAnswerPermission((a) => history.record(a.agentId, a.sessionId, { t: a.t, answer: { id: a.id, outcome: a.outcome } })));
}

/** Restores the stored sessions, logging when the first one replayed and when all were restored. */
function restore(history: SessionHistory, log: { info(m: string): void; warn(m: string): void }): IDisposable {
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
