// For the agent supervisor: after a restart, re-attaches the sessions the last connection served
// (v2 `session/resume`, v1 `session/load` with its replayed messages muted), sends again the
// prompts the agent never answered (v2, same idempotency key), and says what happened: resumed,
// could not be resumed, or the agent cannot resume at all (the session ends, read-only).
// Works on the supervisor's session bookkeeping through ResumeHost. Free of `vscode`.
import type { AcpConnection } from '../protocol/api';
import type { ContentBlock, SessionEvent } from '../protocol/domain';
import type { SupervisedSessions } from './supervisorSessions';
import type { LifecycleEvent } from './supervisorHost';
import { english, type L10n } from '../common/l10n';

/** The supervisor's side of a resume. */
export interface ResumeHost {
  agentName(): string;
  /** The supervisor's sessions: a detached one is served again once resumed, or dropped. */
  readonly sessions: SupervisedSessions;
  /** `conn` is still the supervisor's connection (not stopped or crashed meanwhile). */
  isCurrent(conn: AcpConnection): boolean;
  lifecycle(e: LifecycleEvent): void;
  emit(e: SessionEvent): void;
  /** Sends a prompt as the user's would be (counted as a turn); throws when the session is not served. */
  prompt(sessionId: string, blocks: readonly ContentBlock[], key: string): Promise<void>;
  /** Words the notices (`vscode.l10n` in the product; English without). */
  words?(): L10n | undefined;
}

/** Resumes every detached session on `conn`, one at a time; the transcript and plans stay as they are. */
export async function resumeDetached(conn: AcpConnection, h: ResumeHost): Promise<void> {
  const caps = conn.capabilities;
  const sessions = h.sessions;
  const l10n = h.words?.() ?? english;
  for (const s of [...sessions.detached.values()]) {
    if (!caps.resume && !caps.loadSession) {
      sessions.detached.delete(s.sessionId);
      h.lifecycle({ kind: 'session_detached', sessionId: s.sessionId, ended: `${h.agentName()} cannot resume sessions`, endedBy: 'cannot_resume' });
      h.emit({
        sessionId: s.sessionId,
        kind: 'notice',
        severity: 'warning',
        title: l10n.t('{0} cannot resume sessions; this conversation is kept read-only. Start a new session to continue.', h.agentName()),
      });
      continue;
    }
    const replay = !caps.resume;
    if (replay) sessions.muted.add(s.sessionId);
    try {
      sessions.gate.allow(s.sessionId);
      await conn.resumeSession({ sessionId: s.sessionId, cwd: s.cwd, additionalDirectories: s.additionalDirectories, mcpServers: s.mcpServers, replay });
      if (!h.isCurrent(conn)) return;
      // The prompt the agent never answered goes first: its turn runs before the session is
      // announced, so the caller queues any other prompt until that turn ends.
      sessions.serve(s);
      h.emit({ sessionId: s.sessionId, kind: 'notice', severity: 'info', title: l10n.t('Session resumed after the agent restarted.') });
      retryUnanswered(h, s.sessionId, conn.version);
      h.lifecycle({ kind: 'session_attached', sessionId: s.sessionId, cwd: s.cwd });
    } catch (err) {
      sessions.detached.delete(s.sessionId);
      sessions.unanswered.forget(s.sessionId);
      sessions.gate.forget(s.sessionId);
      h.lifecycle({ kind: 'session_detached', sessionId: s.sessionId, ended: 'the session could not be resumed', endedBy: 'not_resumed' });
      h.emit({
        sessionId: s.sessionId,
        kind: 'notice',
        severity: 'warning',
        title: l10n.t('The session could not be resumed ({0}); its transcript and plans are kept.', err instanceof Error ? err.message : String(err)),
      });
    } finally {
      sessions.muted.delete(s.sessionId);
    }
  }
}

/**
 * v2: prompts the agent never answered before it died are sent again with their keys (they run
 * once). Each is a running turn from now on (as for a prompt the user sends), until it ends.
 */
function retryUnanswered(h: ResumeHost, sessionId: string, version: 1 | 2): void {
  const l10n = h.words?.() ?? english;
  for (const p of h.sessions.unanswered.takeRetriable(sessionId, version)) {
    try {
      h.prompt(sessionId, p.blocks, p.key).catch(() => undefined);
    } catch {
      continue; /* not attached any more: nothing to retry on */
    }
    h.emit({ sessionId, kind: 'state', state: 'running' });
    h.emit({
      sessionId,
      kind: 'notice',
      severity: 'info',
      title: l10n.t('The prompt the agent had not answered was sent again (same idempotency key: it runs once).'),
    });
  }
}
