// Session lifecycle methods: new, load (v1), resume, list, close, set_config_option, set_mode (v1).

import { type Reply } from './jsonrpc/peer';
import { checkConfigValue, MODES } from './session/options';
import { archiveFilter } from './sessionManagement';
import type { DemoSession } from './session/session';
import { configOptions, cwdParam, invalid, modeState, requireSession, sendCommands, sendUpdate, stringParam, type Connection, type Params } from './connection';

function replay(c: Connection, session: DemoSession): void {
  for (const update of c.wire.replay(session.history.records)) sendUpdate(c, session, update);
}

/** The answer of new / load / resume (less the sessionId). */
function sessionState(c: Connection, session: DemoSession): Record<string, unknown> {
  return c.wire.version === 1 ? { modes: modeState(session), configOptions: configOptions(c, session) } : { configOptions: configOptions(c, session) };
}

export function newSession(c: Connection, params: Params, reply: Reply): void {
  const session = c.store.create(cwdParam(params));
  reply.ok({ sessionId: session.sessionId, ...sessionState(c, session) });
  sendCommands(c, session);
}

/** v1 `session/load`: replays the whole history, then answers. */
export function loadSession(c: Connection, params: Params, reply: Reply): void {
  const session = requireSession(c, params);
  session.data.cwd = cwdParam(params);
  replay(c, session);
  reply.ok(sessionState(c, session));
  sendCommands(c, session);
}

/**
 * `session/resume`. v1: no replay. v2: with `replayFrom: {type:"start"}` the history is replayed
 * first; either way an idle `state_update` (without stopReason) reports the session's state
 * before the answer.
 */
export function resumeSession(c: Connection, params: Params, reply: Reply): void {
  const session = requireSession(c, params);
  const cwd = cwdParam(params);
  if (c.wire.version === 2) {
    const from = params.replayFrom;
    const type = typeof from === 'object' && from !== null ? (from as { type?: unknown }).type : undefined;
    if (from !== undefined && from !== null && type !== 'start') throw invalid(`unsupported replayFrom ${JSON.stringify(from)}`);
    session.data.cwd = cwd;
    if (type === 'start') {
      replay(c, session);
      sendUpdate(c, session, { sessionUpdate: 'replay_complete' }); // everything before it was history
    }
    if (!session.turn) sendUpdate(c, session, { sessionUpdate: 'state_update', state: 'idle' });
  } else {
    session.data.cwd = cwd;
  }
  reply.ok(sessionState(c, session));
  sendCommands(c, session);
}

/** Sessions per `session/list` page; the cursor is the offset of the next page. */
export const LIST_PAGE_SIZE = 20;

export function listSessions(c: Connection, params: Params, reply: Reply): void {
  const cwd = typeof params.cwd === 'string' ? params.cwd : undefined;
  const cursor = params.cursor ?? null;
  const start = cursor === null ? 0 : Number(cursor);
  if (typeof cursor !== 'string' && cursor !== null) throw invalid('cursor must be a string');
  if (!Number.isInteger(start) || start < 0) throw invalid(`unknown cursor ${JSON.stringify(cursor)}`);
  // v2 marks archived sessions (and lists them only when asked: src/demo/sessionManagement.ts); v1 has no archive.
  const wanted = c.wire.version === 2 ? archiveFilter(params) : () => true;
  const all = c.store
    .list()
    .filter((s) => (cwd === undefined || s.cwd === cwd) && wanted(!!s.archived))
    .map((s) => ({
      sessionId: s.sessionId,
      cwd: s.cwd,
      ...(s.title !== undefined ? { title: s.title } : {}),
      updatedAt: s.updatedAt,
      ...(c.wire.version === 2 ? { archived: !!s.archived } : {}),
    }));
  const end = start + LIST_PAGE_SIZE;
  reply.ok({ sessions: all.slice(start, end), ...(end < all.length ? { nextCursor: String(end) } : {}) });
}

/** Stops a running turn silently and forgets the session's runtime state (it stays resumable). */
export function closeSession(c: Connection, params: Params, reply: Reply): void {
  const session = requireSession(c, params);
  session.turn?.silence();
  c.store.close(session.sessionId);
  reply.ok({});
}

export function setConfigOption(c: Connection, params: Params, reply: Reply): void {
  const session = requireSession(c, params);
  const configId = stringParam(params, 'configId');
  const type = params.type;
  if (c.wire.version === 2 && type !== 'id' && type !== 'boolean') throw invalid('"type" must be "id" or "boolean"');
  if (type === 'boolean' && typeof params.value !== 'boolean') throw invalid('"value" must be a boolean');
  const problem = checkConfigValue(configId, params.value, c.negotiated.booleanConfig);
  if (problem) throw invalid(problem);
  session.data.config[configId] = params.value as string | boolean;
  c.store.save(session);
  reply.ok({ configOptions: configOptions(c, session) });
}

/** v1 `session/set_mode`. */
export function setMode(c: Connection, params: Params, reply: Reply): void {
  const session = requireSession(c, params);
  const modeId = stringParam(params, 'modeId');
  if (!MODES.some((m) => m.id === modeId)) throw invalid(`unknown mode "${modeId}"`);
  session.data.modeId = modeId;
  c.store.save(session);
  reply.ok({});
}
