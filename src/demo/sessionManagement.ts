// Session management of the Demo Agent (v2 only, advertised in `capabilities.session`): `session/fork`
// (a new session with a copy of the history and options), `session/archive` / `session/unarchive`
// (a flag kept with the session; `session/list` marks archived sessions and filters on `archived`),
// `session/set_title` (trimmed, at most TITLE_MAX characters; the stored title is answered and sent
// as a `session_info_update`) and `session/status` (`open` while a connection holds it, else `saved`).

import { type Reply } from './jsonrpc/peer';
import { configOptions, cwdParam, invalid, requireSession, sendCommands, sendUpdate, stringParam, type Connection, type Params } from './connection';

export const TITLE_MAX = 120;

export function forkSession(c: Connection, params: Params, reply: Reply): void {
  const source = requireSession(c, params);
  const copy = c.store.create(cwdParam(params), source.data);
  reply.ok({ sessionId: copy.sessionId, configOptions: configOptions(c, copy) });
  sendCommands(c, copy);
}

function setArchived(archived: boolean) {
  return (c: Connection, params: Params, reply: Reply): void => {
    const session = requireSession(c, params);
    session.turn?.silence();
    if (archived) session.data.archived = true;
    else delete session.data.archived;
    c.store.save(session);
    reply.ok({});
  };
}
export const archiveSession = setArchived(true);
export const unarchiveSession = setArchived(false);

export function setSessionTitle(c: Connection, params: Params, reply: Reply): void {
  const session = requireSession(c, params);
  const title = stringParam(params, 'title').trim().slice(0, TITLE_MAX);
  if (!title) throw invalid('"title" is empty after trimming');
  session.data.title = title;
  c.store.save(session);
  reply.ok({ title });
  sendUpdate(c, session, { sessionUpdate: 'session_info_update', title });
}

export function sessionStatus(c: Connection, params: Params, reply: Reply): void {
  const session = requireSession(c, params);
  reply.ok({ status: c.store.isOpen(session.sessionId) ? 'open' : 'saved', ...(session.turn ? { state: { state: 'running' } } : {}) });
}

/** `session/list`'s `archived` filter (v2, unstable): exclude (the default), include, only. */
export function archiveFilter(params: Params): (archived: boolean) => boolean {
  const f = params.archived ?? 'exclude';
  if (f === 'exclude') return (a) => !a;
  if (f === 'include') return () => true;
  if (f === 'only') return (a) => a;
  throw invalid(`unknown "archived" filter ${JSON.stringify(f)}`);
}
