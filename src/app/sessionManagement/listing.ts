// A page of `session/list` with what session management adds where the agent offers it: archived
// sessions too (`archived: "include"`, each marked), and each listed session's `session/status`
// (a few requests at a time; a status that cannot be read is left out).
import type { AcpConnection, ListSessionsParams, SessionListEntry, SessionStatusInfo } from '../../protocol/api';

/** The most `session/status` requests in flight for one page. */
export const STATUS_CONCURRENCY = 4;

export type ListedSession = SessionListEntry & { status?: SessionStatusInfo };
type Lister = Pick<AcpConnection, 'capabilities' | 'listSessions' | 'sessionStatus'>;

export async function listWithStatus(conn: Lister, p: ListSessionsParams): Promise<{ sessions: ListedSession[]; nextCursor?: string | null }> {
  const page = await conn.listSessions(conn.capabilities.archive ? { ...p, archived: 'include' } : p);
  if (!conn.capabilities.status || page.sessions.length === 0) return page;
  const statuses = await readStatuses(
    conn,
    page.sessions.map((s) => s.sessionId),
  );
  return { ...page, sessions: page.sessions.map((s) => (statuses.has(s.sessionId) ? { ...s, status: statuses.get(s.sessionId)! } : s)) };
}

/** `session/status` of each session, STATUS_CONCURRENCY at a time. */
export async function readStatuses(conn: Pick<AcpConnection, 'sessionStatus'>, sessionIds: readonly string[]): Promise<Map<string, SessionStatusInfo>> {
  const out = new Map<string, SessionStatusInfo>();
  const queue = [...sessionIds];
  const worker = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const info = await conn.sessionStatus(id).catch(() => undefined);
      if (info) out.set(id, info);
    }
  };
  await Promise.all(Array.from({ length: Math.min(STATUS_CONCURRENCY, queue.length) }, worker));
  return out;
}
