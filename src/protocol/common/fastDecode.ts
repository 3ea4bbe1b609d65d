// Hand-written decoding of the parts both versions' commonest updates share: a plain text block and
// a plan's entries. Each returns exactly what the zod schema makes of the value (same fields, same
// key order, `_meta` by reference), or undefined whenever the value is not the plain expected shape
// — then the schema decides. Used by each version's fast path (v1/fastPath.ts, v2/fastPath.ts).
import type { ContentBlock, PlanEntry } from '../domain';
import type { EventBody } from './updates';
import { isObject, withMeta } from './zod';

type Wire = Record<string, unknown>;

/** A text block without annotations, as `contentBlock` decodes it. */
export function textBlock(v: unknown): ContentBlock | undefined {
  if (!isObject(v) || v.type !== 'text' || typeof v.text !== 'string' || v.annotations !== undefined) return undefined;
  return withMeta<ContentBlock>({ type: 'text', text: v.text }, v);
}

/**
 * A plan's entries as `planEntries` decodes them, when every entry is valid (an entry the schema
 * would skip: undefined). The wire's own array and entries are kept while they already are their
 * own decoding: a plan update copies no entry.
 */
export function planEntries(v: unknown): PlanEntry[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const wire = v as unknown[];
  let entries: PlanEntry[] | undefined; // the wire's own array while every entry is its own decoding
  for (let i = 0; i < wire.length; i++) {
    const e = wire[i];
    if (!isObject(e) || typeof e.content !== 'string' || typeof e.priority !== 'string' || typeof e.status !== 'string') return undefined;
    const decoded = isDecodedEntry(e);
    if (!entries) {
      if (decoded) continue;
      entries = (wire as PlanEntry[]).slice(0, i);
    }
    entries.push(decoded ? (e as unknown as PlanEntry) : withMeta<PlanEntry>({ content: e.content, priority: e.priority, status: e.status }, e));
  }
  return entries ?? (wire as PlanEntry[]);
}

/** A `plan_update` (both versions) whose plan is an items plan, as `planUpdate` decodes it. */
export function fastPlanUpdate(u: Wire): EventBody | undefined {
  const p = u.plan;
  if (!isObject(p) || p.type !== 'items' || typeof p.planId !== 'string') return undefined;
  const entries = planEntries(p.entries);
  return entries && withMeta<EventBody>({ kind: 'plan_update', plan: withMeta({ type: 'items', planId: p.planId, entries }, p) }, u);
}

const ENTRY_KEYS = ['content', 'priority', 'status', '_meta'];

/**
 * A checked entry that is already what decoding makes of it: exactly its keys, in the schema's
 * order, `_meta` (if any) an object or null.
 */
function isDecodedEntry(e: Wire): boolean {
  let n = 0;
  for (const k in e) if (k !== ENTRY_KEYS[n++]) return false;
  return n === 3 || (n === 4 && (e._meta === null || isObject(e._meta)));
}
