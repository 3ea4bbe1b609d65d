// What a connection makes of what it cannot take: an agent's update it could not decode (kept whole
// as an `unknown` event, shown generically) and a failure turned into the JSON-RPC error it answers.
import type { SessionEvent } from './domain';
import type { WireError } from './adapter';
import { ErrorCodes, RpcError } from './transport/errors';

export function toWireError(err: unknown): WireError {
  if (err instanceof RpcError)
    return err.data === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, data: err.data };
  return { code: ErrorCodes.InternalError, message: err instanceof Error ? err.message : String(err) };
}

/** A `session/update` the adapter could not decode, kept whole as an `unknown` event (none without a session). */
export function unknownUpdateEvent(params: unknown, problem?: string): SessionEvent[] {
  if (typeof params !== 'object' || params === null) return [];
  const { sessionId, update } = params as { sessionId?: unknown; update?: unknown };
  if (typeof sessionId !== 'string' || typeof update !== 'object' || update === null || Array.isArray(update)) return [];
  const type = (update as { sessionUpdate?: unknown }).sessionUpdate;
  const e: SessionEvent = { sessionId, kind: 'unknown', updateType: typeof type === 'string' ? type : '', raw: update as Record<string, unknown> };
  if (problem !== undefined) e.problem = problem;
  return [e];
}
