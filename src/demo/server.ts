// The Demo Agent's side of the connection: `initialize`, then the methods of the chosen version.

import type { DemoConfig } from './config';
import { type Connection, type Handler, type Params } from './connection';
import { ErrorCodes, RpcError, type Peer, type PeerHandler, type Reply } from './jsonrpc/peer';
import { initializeResult, negotiate } from './negotiate';
import { authMethods, checkSignedIn } from './scenarios/signin';
import { prompt } from './prompt';
import { sessionSteering } from './steering';
import { closeSession, listSessions, loadSession, newSession, resumeSession, setConfigOption, setMode } from './sessionMethods';
import type { SessionStore } from './session/store';
import { archiveSession, forkSession, sessionStatus, setSessionTitle, unarchiveSession } from './sessionManagement';
import { cancelWork } from './scenarios/backgroundWork';
import { WireV1 } from './wire/wireV1';
import { WireV2 } from './wire/wireV2';

const COMMON: Record<string, Handler> = {
  'session/new': newSession,
  'session/resume': resumeSession,
  'session/list': listSessions,
  'session/close': closeSession,
  'session/set_config_option': setConfigOption,
  'session/prompt': prompt,
  // An extension (both versions), advertised in `_meta.steering`.
  '_session/steering': sessionSteering,
};

const V1_METHODS: Record<string, Handler> = {
  ...COMMON,
  'session/load': loadSession,
  'session/set_mode': setMode,
  // No auth methods are advertised; an `authenticate` anyway is harmless.
  authenticate: (_c, _p, reply) => reply.ok({}),
};

/** `terminal/cancel` / `tool_call/cancel`: only for items a scenario offered to cancel. */
function cancelItem(kind: 'terminal' | 'tool_call', idKey: string): Handler {
  return (_c, p, reply) => {
    const sessionId = typeof p.sessionId === 'string' ? p.sessionId : '';
    const id = typeof p[idKey] === 'string' ? p[idKey] : '';
    if (!cancelWork(kind, sessionId, id)) throw new RpcError(ErrorCodes.invalidParams, `Nothing cancellable: ${kind} "${id}" in session "${sessionId}"`);
    reply.ok({});
  };
}

const V2_METHODS: Record<string, Handler> = {
  ...COMMON,
  'session/fork': forkSession,
  'session/archive': archiveSession,
  'session/unarchive': unarchiveSession,
  'session/set_title': setSessionTitle,
  'session/status': sessionStatus,
  'terminal/cancel': cancelItem('terminal', 'terminalId'),
  'tool_call/cancel': cancelItem('tool_call', 'toolCallId'),
};

export interface ServerDeps {
  peer: Peer;
  store: SessionStore;
  config: DemoConfig;
  log(text: string): void;
  exit(code: number): Promise<never>;
}

function paramsOf(params: unknown): Params {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw new RpcError(ErrorCodes.invalidParams, 'params must be an object');
  return params as Params;
}

export class AgentServer implements PeerHandler {
  private connection: Connection | undefined;

  constructor(private readonly deps: ServerDeps) {}

  onRequest(method: string, params: unknown, reply: Reply): void | Promise<void> {
    if (method === 'initialize') return this.initialize(params, reply);
    const c = this.connection;
    if (!c) throw new RpcError(ErrorCodes.invalidRequest, 'Call initialize first');
    const methods = c.wire.version === 1 ? V1_METHODS : V2_METHODS;
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!handler) throw new RpcError(ErrorCodes.methodNotFound, `Method not found: ${method}`);
    checkSignedIn(this.deps.config, method); // sign-in mode: auth_required until signed in
    return handler(c, paramsOf(params), reply);
  }

  onNotification(method: string, params: unknown): void {
    if (method !== 'session/cancel' || !this.connection) return; // others (incl. $/cancel_request) are ignored
    const sessionId = (params as { sessionId?: unknown } | null)?.sessionId;
    if (typeof sessionId !== 'string') return;
    const session = this.connection.store.get(sessionId);
    if (session) session.turn?.cancel();
    else cancelWork('session', sessionId, ''); // a child session a scenario announced
  }

  private initialize(params: unknown, reply: Reply): void {
    if (this.connection) throw new RpcError(ErrorCodes.invalidRequest, 'Already initialized');
    const negotiated = negotiate(params, this.deps.config.forcedVersion);
    const wire = negotiated.version === 1 ? new WireV1({ planUpdates: negotiated.planUpdates, compaction: negotiated.compaction }) : new WireV2();
    this.connection = { ...this.deps, negotiated, wire };
    this.deps.log(`speaking ACP v${negotiated.version}${negotiated.planUpdates ? ' (plan_update opt-in)' : ''}`);
    reply.ok(initializeResult(negotiated, authMethods(this.deps.config, negotiated.version)));
  }
}
