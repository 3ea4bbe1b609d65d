// The session/update variants v1 and v2 decode the same way, and the helpers both adapters use to
// build domain events (stamping the session id, keeping an unknown update whole).
import * as z from 'zod/mini';
import type { CompactionTokens, JsonObject, Meta, SessionEvent } from '../domain';
import { availableCommands } from './config';
import { contentBlock } from './content';
import { planContent } from './plan';
import { isObject, lenientArray, metaOf, optStr, put, soft, uint, withMeta } from './zod';

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
    return withMeta(e, w);
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

/**
 * Token counts around a compaction. No schema field carries them; the one agent that reports them
 * puts them in `_meta.jetbrains.air.contextCompaction` (`preTokens`, `postTokens`). Undefined when
 * `_meta` was omitted (counts unchanged), null when it was cleared or holds none.
 */
function compactionTokens(meta: Meta): CompactionTokens | null | undefined {
  if (meta === undefined || meta === null) return meta;
  const facts = path(meta, ['jetbrains', 'air', 'contextCompaction']);
  if (!isObject(facts)) return null;
  const t: CompactionTokens = {};
  if (isCount(facts.preTokens)) t.before = facts.preTokens;
  if (isCount(facts.postTokens)) t.after = facts.postTokens;
  return t.before === undefined && t.after === undefined ? null : t;
}

function path(o: JsonObject, keys: string[]): unknown {
  let v: unknown = o;
  for (const k of keys) v = isObject(v) ? v[k] : undefined;
  return v;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** `compaction_update`: an upsert; `summary` drops invalid blocks, a malformed `summary` or `error` reads as omitted. */
export const compactionUpdate = z.pipe(
  z.looseObject({ compactionId: z.string(), status: z.string(), summary: soft(z.nullable(lenientArray(contentBlock))), error: optStr }),
  z.transform((w): EventBody => {
    const e: Extract<EventBody, { kind: 'compaction' }> = { kind: 'compaction', compactionId: w.compactionId, status: w.status };
    put(e, 'summary', w.summary);
    put(e, 'error', w.error);
    put(e, 'tokens', compactionTokens(metaOf(w)));
    return withMeta(e, w);
  }),
);

export const compactionSummaryChunk = z.pipe(
  z.looseObject({ compactionId: z.string(), content: contentBlock }),
  z.transform((w): EventBody => withMeta({ kind: 'compaction_chunk', compactionId: w.compactionId, content: w.content }, w)),
);
