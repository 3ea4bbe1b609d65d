// Plans (both versions). Entry status and priority are kept verbatim whatever their value
// (v1's closed enums included: a v1 `cancelled` or custom status is kept, not dropped).
import * as z from 'zod/mini';
import type { JsonObject, PlanContent, PlanEntry } from '../domain';
import { lenientArray, taggedUnion, withMeta } from './zod';

export const planEntry: z.ZodMiniType<PlanEntry> = z.pipe(
  z.looseObject({
    content: z.string(),
    priority: z.string(),
    status: z.string(),
  }),
  z.transform((w) => withMeta<PlanEntry>({ content: w.content, priority: w.priority, status: w.status }, w)),
);

/** `x-deserialize-skip-invalid-items`: entries that are not `{content, priority, status}` strings are skipped. */
export const planEntries = lenientArray(planEntry);

const planId = z.string();

const items = z.pipe(
  z.looseObject({ planId, entries: planEntries }),
  z.transform((w): PlanContent => withMeta({ type: 'items', planId: w.planId, entries: w.entries }, w)),
);
const markdown = z.pipe(
  z.looseObject({ planId, content: z.string() }),
  z.transform((w): PlanContent =>
    withMeta({ type: 'markdown', planId: w.planId, content: w.content, ...(typeof w.path === 'string' && w.path ? { path: w.path } : {}) }, w),
  ),
);
const file = z.pipe(
  z.looseObject({ planId, uri: z.string() }),
  z.transform((w): PlanContent => withMeta({ type: 'file', planId: w.planId, uri: w.uri }, w)),
);

/** The "other" branch still requires a string `planId`. */
const otherPlan = z.looseObject({ planId });

function unknownPlan(raw: JsonObject, rawType: string): PlanContent | undefined {
  if (!otherPlan.safeParse(raw).success) return undefined;
  return { type: 'unknown', planId: raw.planId as string, rawType, raw };
}

/**
 * Plan content: `items`, `markdown`, `file`, and any other type carrying a `planId` (kept whole
 * as `unknown`). This is the unstable-v2 union plus the generic fallback (a superset of v1
 * unstable and of v2 stable, where markdown and file are reserved).
 */
export const planContent: z.ZodMiniType<PlanContent> = taggedUnion('type', { items, markdown, file }, unknownPlan);
