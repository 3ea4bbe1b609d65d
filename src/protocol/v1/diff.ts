// The v1 diff `{path, oldText, newText}`, mapped to the v2-shaped model: one change (`add` when
// there was no old text, else `modify`) with the texts kept for the diff editor.
import * as z from 'zod/mini';
import type { ToolCallContent } from '../domain';
import { soft, withMeta } from '../common/zod';

export const diffV1: z.ZodMiniType<ToolCallContent> = z.pipe(
  z.looseObject({
    path: z.string(),
    oldText: soft(z.nullable(z.string())),
    newText: z.string(),
  }),
  z.transform((w): ToolCallContent => {
    const oldText = w.oldText ?? null;
    return withMeta(
      {
        type: 'diff',
        changes: [{ operation: oldText === null ? 'add' : 'modify', path: w.path }],
        texts: [{ path: w.path, oldText, newText: w.newText }],
      },
      w,
    );
  }),
);
