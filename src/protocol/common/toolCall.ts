// Tool calls (both versions): content, locations and the patch fields of a tool call update.
// Diffs differ between versions, so the caller supplies the diff schema.
import * as z from 'zod';
import type { JsonObject, ToolCallContent, ToolCallFields, ToolCallLocation } from '../domain';
import { contentBlock } from './content';
import { lenientArray, put, soft, taggedUnion, uint, withMeta } from './zod';

const contentItem = z.looseObject({ content: contentBlock }).transform((w): ToolCallContent =>
  withMeta({ type: 'content', content: w.content }, w));

const terminalItem = z.looseObject({ terminalId: z.string() }).transform((w): ToolCallContent =>
  withMeta({ type: 'terminal', terminalId: w.terminalId }, w));

function unknownContent(raw: JsonObject, rawType: string): ToolCallContent {
  return { type: 'unknown', rawType, raw };
}

/** The ToolCallContent union for one version, given that version's diff schema. */
export function toolCallContentUnion(diff: z.ZodType<ToolCallContent>): z.ZodType<ToolCallContent> {
  return taggedUnion('type', { content: contentItem, terminal: terminalItem, diff }, unknownContent);
}

export const toolCallLocation: z.ZodType<ToolCallLocation> = z.looseObject({
  path: z.string(), line: soft(uint.nullable()),
}).transform((w) => {
  const l: ToolCallLocation = { path: w.path };
  put(l, 'line', w.line);
  return l;
});

const optPatchStr = soft(z.string().nullable());

/** The wire fields of a tool call update (v1 and v2 share them); `content` per version. */
export function toolCallUpdateShape(content: z.ZodType<ToolCallContent>) {
  return {
    toolCallId: z.string(),
    name: optPatchStr,
    title: optPatchStr,
    kind: optPatchStr,
    status: optPatchStr,
    content: soft(lenientArray(content).nullable()),
    locations: soft(lenientArray(toolCallLocation).nullable()),
  };
}

interface UpdateWire {
  name?: string | null; title?: string | null; kind?: string | null; status?: string | null;
  content?: ToolCallContent[] | null; locations?: ToolCallLocation[] | null;
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
