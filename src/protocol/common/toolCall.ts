// Tool calls (both versions): content, locations and the patch fields of a tool call update.
// Diffs differ between versions, so the caller supplies the diff schema.
import * as z from 'zod/mini';
import type { JsonObject, ToolCallContent, ToolCallFields, ToolCallLocation } from '../domain';
import { contentBlock } from './content';
import { lenientArray, put, soft, taggedUnion, uint, withMeta } from './zod';

const contentItem = z.pipe(
  z.looseObject({ content: contentBlock }),
  z.transform((w): ToolCallContent => withMeta({ type: 'content', content: w.content }, w)),
);

const terminalItem = z.pipe(
  z.looseObject({ terminalId: z.string() }),
  z.transform((w): ToolCallContent => withMeta({ type: 'terminal', terminalId: w.terminalId }, w)),
);

function unknownContent(raw: JsonObject, rawType: string): ToolCallContent {
  return { type: 'unknown', rawType, raw };
}

/** The ToolCallContent union for one version, given that version's diff schema. */
export function toolCallContentUnion(diff: z.ZodMiniType<ToolCallContent>): z.ZodMiniType<ToolCallContent> {
  return taggedUnion('type', { content: contentItem, terminal: terminalItem, diff }, unknownContent);
}

export const toolCallLocation: z.ZodMiniType<ToolCallLocation> = z.pipe(
  z.looseObject({
    path: z.string(),
    line: soft(z.nullable(uint)),
  }),
  z.transform((w) => {
    const l: ToolCallLocation = { path: w.path };
    put(l, 'line', w.line);
    return l;
  }),
);

const optPatchStr = soft(z.nullable(z.string()));

/** The wire fields of a tool call update (v1 and v2 share them); `content` per version. */
export function toolCallUpdateShape(content: z.ZodMiniType<ToolCallContent>) {
  return {
    toolCallId: z.string(),
    name: optPatchStr,
    title: optPatchStr,
    kind: optPatchStr,
    status: optPatchStr,
    content: soft(z.nullable(lenientArray(content))),
    locations: soft(z.nullable(lenientArray(toolCallLocation))),
  };
}

interface UpdateWire {
  name?: string | null;
  title?: string | null;
  kind?: string | null;
  status?: string | null;
  content?: ToolCallContent[] | null;
  locations?: ToolCallLocation[] | null;
  [k: string]: unknown;
}

/** Patch fields of an update: omitted stays omitted, null clears, a value replaces. */
export function patchFields(w: UpdateWire): ToolCallFields {
  const f: ToolCallFields = {};
  put(f, 'name', w.name);
  put(f, 'title', w.title);
  put(f, 'kind', w.kind);
  put(f, 'status', w.status);
  put(f, 'content', w.content);
  put(f, 'locations', w.locations);
  if (w.rawInput !== undefined) f.rawInput = w.rawInput;
  if (w.rawOutput !== undefined) f.rawOutput = w.rawOutput;
  return withMeta(f, w);
}
