// What the method handlers share once `initialize` chose the version.

import path from 'node:path';
import type { DemoConfig } from './config';
import { ErrorCodes, RpcError, type Peer, type Reply } from './jsonrpc/peer';
import type { Negotiated } from './negotiate';
import { SCENARIOS } from './scenarios/index';
import { configInfo, MODES } from './session/options';
import type { DemoSession } from './session/session';
import type { SessionStore } from './session/store';
import type { Wire } from './wire/wire';

export interface Connection {
  readonly peer: Peer;
  readonly store: SessionStore;
  readonly config: DemoConfig;
  readonly negotiated: Negotiated;
  readonly wire: Wire;
  log(text: string): void;
  exit(code: number): Promise<never>;
}

export type Params = Record<string, unknown>;
export type Handler = (c: Connection, params: Params, reply: Reply) => void | Promise<void>;

export function invalid(message: string): RpcError {
  return new RpcError(ErrorCodes.invalidParams, message);
}

export function stringParam(params: Params, key: string): string {
  const value = params[key];
  if (typeof value !== 'string' || value === '') throw invalid(`"${key}" must be a non-empty string`);
  return value;
}

export function cwdParam(params: Params): string {
  const cwd = stringParam(params, 'cwd');
  if (!path.isAbsolute(cwd)) throw invalid('"cwd" must be an absolute path');
  return cwd;
}

export function requireSession(c: Connection, params: Params): DemoSession {
  const sessionId = stringParam(params, 'sessionId');
  const session = c.store.get(sessionId);
  if (!session) throw new RpcError(ErrorCodes.resourceNotFound, `Session not found: ${sessionId}`, { sessionId });
  return session;
}

export function sendUpdate(c: Connection, session: DemoSession, update: object): void {
  c.peer.notify('session/update', { sessionId: session.sessionId, update });
}

export function configOptions(c: Connection, session: DemoSession): object[] {
  return c.wire.configOptions(configInfo(session.data.config, c.negotiated.booleanConfig));
}

export function modeState(session: DemoSession): object {
  return { currentModeId: session.data.modeId, availableModes: MODES.map((m) => ({ ...m })) };
}

/** `available_commands_update` listing the scenarios. */
export function sendCommands(c: Connection, session: DemoSession): void {
  const availableCommands = c.wire.availableCommands(SCENARIOS.map((s) => ({ name: s.name, description: s.description, ...(s.hint ? { hint: s.hint } : {}) })));
  sendUpdate(c, session, { sessionUpdate: 'available_commands_update', availableCommands });
}
