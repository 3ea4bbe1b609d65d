// Building blocks the adapters share: plain request calls, the session/update envelope and the
// permission outcome.
import type * as z from 'zod/mini';
import type { AdapterCall } from '../adapter';
import type { JsonObject, PermissionOutcome } from '../domain';
import { ProtocolShapeError } from './errors';
import { isObject, parseOrThrow } from './zod';

/** A request whose result is parsed once with `schema` and mapped by `map`; no events. */
export function plainCall<W, R>(method: string, params: JsonObject, schema: z.ZodMiniType<W>, map: (w: W) => R): AdapterCall<R> {
  return {
    method,
    params,
    eventsBefore: [],
    decode: (raw) => ({ value: map(parseOrThrow(schema, raw, `${method} result`)), events: [] }),
  };
}

export interface UpdateEnvelope {
  sessionId: string;
  tag: string;
  update: JsonObject;
}

/** `{sessionId, update: {sessionUpdate, …}}`, checked by hand (it is on the hot path). */
export function decodeEnvelope(params: unknown, what: string): UpdateEnvelope {
  if (isObject(params) && typeof params.sessionId === 'string') {
    const update = params.update;
    if (isObject(update) && typeof update.sessionUpdate === 'string') {
      return { sessionId: params.sessionId, tag: update.sessionUpdate, update };
    }
    throw new ProtocolShapeError(what, ['update: expected an object with a string "sessionUpdate"'], params);
  }
  throw new ProtocolShapeError(what, ['expected an object with a string "sessionId"'], params);
}

export function encodeOutcome(o: PermissionOutcome): JsonObject {
  return o.outcome === 'selected' ? { outcome: { outcome: 'selected', optionId: o.optionId } } : { outcome: { outcome: 'cancelled' } };
}

/** The client's recorded answer to a permission request (encodeOutcome's inverse); anything else reads as `cancelled`. */
export function decodeOutcome(result: unknown): PermissionOutcome {
  const o = isObject(result) && isObject(result.outcome) ? result.outcome : undefined;
  return o?.outcome === 'selected' && typeof o.optionId === 'string' ? { outcome: 'selected', optionId: o.optionId } : { outcome: 'cancelled' };
}
