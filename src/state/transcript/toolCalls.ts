// Tool calls within their size limit. Fields follow patch semantics (undefined leaves, null
// clears, a value replaces). Content chunks append; past `maxToolCallChars` the head of the
// content is kept and later content is dropped and counted. A raw field (rawInput, rawOutput,
// _meta) larger than `maxRawChars` is not kept at all (the view says so). Labels and locations,
// which nothing needs whole, are cut.
import type { ToolCallContent, ToolCallFields, ToolCallLocation } from '../../protocol/domain';
import { toolCallItemId } from './ids';
import type { ToolCallItem } from './model';
import { approxSize, cutText, fitBlock, keepRaw, noteDrop } from './size';

export interface ToolCallLimits {
  maxToolCallChars: number;
  maxRawChars: number;
}

/** Longest title, name, kind, status or location path kept. */
export const MAX_LABEL_CHARS = 4096;
/** Locations kept per tool call. */
export const MAX_LOCATIONS = 100;

interface Sizes {
  labels: number;
  content: number;
  rawInput: number;
  rawOutput: number;
  meta: number;
}
const sizes = new WeakMap<ToolCallItem, Sizes>();

function sizesOf(tc: ToolCallItem): Sizes {
  let s = sizes.get(tc);
  if (!s) {
    s = { labels: 0, content: 0, rawInput: 0, rawOutput: 0, meta: 0 };
    sizes.set(tc, s);
  }
  return s;
}

/** Characters the tool call counts against its limit and the session's. */
export function toolCallSize(tc: ToolCallItem): number {
  const s = sizesOf(tc);
  return s.labels + s.content + s.rawInput + s.rawOutput + s.meta;
}

export function newToolCall(toolCallId: string): ToolCallItem {
  return {
    kind: 'tool_call',
    itemId: toolCallItemId(toolCallId),
    toolCallId,
    name: null,
    title: null,
    toolKind: null,
    status: null,
    content: [],
    contentRev: 0,
    locations: [],
    rawInput: undefined,
    rawOutput: undefined,
  };
}

/** Applies an upsert's fields. */
export function applyToolFields(tc: ToolCallItem, f: ToolCallFields, limits: ToolCallLimits): void {
  const s = sizesOf(tc);
  if (f.name !== undefined) tc.name = label(f.name);
  if (f.title !== undefined) tc.title = label(f.title);
  if (f.kind !== undefined) tc.toolKind = label(f.kind);
  if (f.status !== undefined) {
    tc.status = label(f.status);
    tc.unfinished = false;
  }
  if (f.locations !== undefined) tc.locations = (f.locations ?? []).slice(0, MAX_LOCATIONS).map(location);
  s.labels =
    (tc.name?.length ?? 0) +
    (tc.title?.length ?? 0) +
    (tc.toolKind?.length ?? 0) +
    (tc.status?.length ?? 0) +
    tc.locations.reduce((n, l) => n + l.path.length + 8, 0);
  if (f.rawInput !== undefined) s.rawInput = setRaw(tc, 'rawInput', f.rawInput, limits);
  if (f.rawOutput !== undefined) s.rawOutput = setRaw(tc, 'rawOutput', f.rawOutput, limits);
  if (f._meta !== undefined) s.meta = setRaw(tc, '_meta', f._meta, limits);
  if (f.content !== undefined) {
    tc.content = [];
    s.content = 0;
    tc.contentRev++;
    if (tc.truncated) {
      tc.truncated.droppedChars = 0;
      tc.truncated.droppedBlocks = 0;
    }
    for (const c of f.content ?? []) appendToolContent(tc, c, limits);
  }
}

/** Appends one content (a content chunk) within the limit. Returns whether anything was kept. */
export function appendToolContent(tc: ToolCallItem, c: ToolCallContent, limits: ToolCallLimits): boolean {
  const s = sizesOf(tc);
  const limit = limits.maxToolCallChars;
  const room = limit - toolCallSize(tc);
  if (c.type === 'content') {
    const fit = fitBlock(c.content, room);
    if (fit.droppedChars > 0 || fit.droppedBlocks > 0) tc.truncated = noteDrop(tc.truncated, limit, { chars: fit.droppedChars, blocks: fit.droppedBlocks });
    if (!fit.block) return false;
    tc.content.push(fit.block === c.content ? c : { ...c, content: fit.block });
    s.content += fit.size;
    return true;
  }
  const size = approxSize(c, Math.max(0, room));
  if (size > room) {
    tc.truncated = noteDrop(tc.truncated, limit, { blocks: 1 });
    return false;
  }
  tc.content.push(c);
  s.content += size;
  return true;
}

function setRaw(tc: ToolCallItem, field: 'rawInput' | 'rawOutput' | '_meta', value: unknown, limits: ToolCallLimits): number {
  const kept = keepRaw(value, limits.maxRawChars);
  if (field === '_meta') tc._meta = kept.value as ToolCallItem['_meta'];
  else tc[field] = kept.value;
  if (value !== null && kept.value === undefined) tc.truncated = noteDrop(tc.truncated, limits.maxToolCallChars, { field });
  return kept.size;
}

function label(s: string | null): string | null {
  return s === null ? null : cutText(s, MAX_LABEL_CHARS);
}

function location(l: ToolCallLocation): ToolCallLocation {
  return l.path.length <= MAX_LABEL_CHARS ? l : { ...l, path: cutText(l.path, MAX_LABEL_CHARS) };
}
