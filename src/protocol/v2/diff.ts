// The v2 diff `{changes, patch?}`. Changes are tagged by `operation`; an unknown operation is
// kept (with whatever paths it carries).
import * as z from 'zod/mini';
import type { DiffChange, JsonObject, ToolCallContent } from '../domain';
import { lenientArray, optStr, put, soft, taggedUnion, withMeta } from '../common/zod';

const extras = { fileType: optStr, mimeType: optStr };

function change(w: { operation?: unknown; path: string; oldPath?: string; fileType?: string | null; mimeType?: string | null }, operation: string): DiffChange {
  const c: DiffChange = { operation, path: w.path };
  put(c, 'oldPath', w.oldPath);
  put(c, 'fileType', w.fileType);
  put(c, 'mimeType', w.mimeType);
  return c;
}

const pathChange = (op: string) =>
  z.pipe(
    z.looseObject({ path: z.string(), ...extras }),
    z.transform((w) => change(w, op)),
  );
const pairChange = (op: string) =>
  z.pipe(
    z.looseObject({ oldPath: z.string(), path: z.string(), ...extras }),
    z.transform((w) => change(w, op)),
  );

const otherChange = z.looseObject({ path: soft(z.string()), oldPath: soft(z.string()), ...extras });

function unknownChange(raw: JsonObject, operation: string): DiffChange {
  const w = otherChange.parse(raw);
  return change({ ...w, path: w.path ?? '' }, operation);
}

export const diffChange: z.ZodMiniType<DiffChange> = taggedUnion(
  'operation',
  {
    add: pathChange('add'),
    delete: pathChange('delete'),
    modify: pathChange('modify'),
    move: pairChange('move'),
    copy: pairChange('copy'),
  },
  unknownChange,
);

export const diffV2: z.ZodMiniType<ToolCallContent> = z.pipe(
  z.looseObject({
    changes: lenientArray(diffChange),
    patch: soft(z.nullable(z.looseObject({ format: z.string(), text: z.string() }))),
  }),
  z.transform((w): ToolCallContent => {
    const d: Extract<ToolCallContent, { type: 'diff' }> = { type: 'diff', changes: w.changes };
    if (w.patch !== undefined) d.patch = w.patch === null ? null : { format: w.patch.format, text: w.patch.text };
    return withMeta(d, w);
  }),
);
