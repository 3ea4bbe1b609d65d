// The session/update variants v1 and v2 decode the same way, and the helpers both adapters use to
// build domain events (stamping the session id, keeping an unknown update whole).
import * as z from 'zod/mini';
import type { JsonObject, SessionEvent } from '../domain';
import { availableCommands } from './config';
import { planContent } from './plan';
import { optStr, put, soft, uint, withMeta } from './zod';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A session event before the adapter stamps its `sessionId`. */
export type EventBody = DistributiveOmit<SessionEvent, 'sessionId'>;

export function stamp(sessionId: string, body: EventBody): SessionEvent {
  (body as SessionEvent).sessionId = sessionId;
  return body as SessionEvent;
}

export function unknownUpdate(raw: JsonObject, updateType: string): EventBody {
  return { kind: 'unknown', updateType, raw };
}

// Update variants that are the same in v1 and v2 (the `sessionUpdate` tag is checked by the caller).

export const planUpdate = z.pipe(
  z.looseObject({ plan: planContent }),
  z.transform((w): EventBody => withMeta({ kind: 'plan_update', plan: w.plan }, w)),
);

export const planRemoved = z.pipe(
  z.looseObject({ planId: z.string() }),
  z.transform((w): EventBody => withMeta({ kind: 'plan_removed', planId: w.planId }, w)),
);

export const commandsUpdate = z.pipe(
  z.looseObject({ availableCommands }),
  z.transform((w): EventBody => ({ kind: 'commands', commands: w.availableCommands })),
);

export const sessionInfoUpdate = z.pipe(
  z.looseObject({ title: optStr, updatedAt: optStr }),
  z.transform((w): EventBody => {
    const e: Extract<EventBody, { kind: 'session_info' }> = { kind: 'session_info' };
    put(e, 'title', w.title);
    put(e, 'updatedAt', w.updatedAt);
    return withMeta(e, w);
  }),
);

export const usageUpdate = z.pipe(
  z.looseObject({
    used: uint,
    size: uint,
    cost: soft(z.nullable(z.looseObject({ amount: z.number(), currency: z.string() }))),
  }),
  z.transform((w): EventBody => {
    const e: Extract<EventBody, { kind: 'usage' }> = { kind: 'usage', used: w.used, size: w.size };
    if (w.cost !== undefined) e.cost = w.cost === null ? null : { amount: w.cost.amount, currency: w.cost.currency };
    return e;
  }),
);

export const notice = z.pipe(
  z.looseObject({ severity: z.string(), title: z.string().check(z.minLength(1)), description: optStr }),
  z.transform((w): EventBody => {
    const e: Extract<EventBody, { kind: 'notice' }> = { kind: 'notice', severity: w.severity, title: w.title };
    put(e, 'description', w.description);
    return e;
  }),
);
