// The v1 diff `{path, oldText, newText}`, mapped to the v2-shaped model: one change (`add` when
// there was no old text, else `modify`) with the texts kept for the diff editor.
import * as z from 'zod';
import type { ToolCallContent } from '../domain';
import { soft, withMeta } from '../common/zod';

export const diffV1: z.ZodType<ToolCallContent> = z.looseObject({
  path: z.string(), oldText: soft(z.string().nullable()), newText: z.string(),
}).transform((w): ToolCallContent => {
  const oldText = w.oldText ?? null;
  return withMeta({
    type: 'diff',
    changes: [{ operation: oldText === null ? 'add' : 'modify', path: w.path }],
    texts: [{ path: w.path, oldText, newText: w.newText }],
  }, w);
});
