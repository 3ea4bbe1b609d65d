// Hand-written decoding of the commonest v2 `session/update` shapes: text message chunks, items
// plans, and tool call updates whose content is text or a terminal. An agent sends these by the
// thousand per turn, and the zod schemas cost ~10× more per update than checking them by hand.
//
// The contract: for an update it handles, the result is exactly what the zod schema in updates.ts
// produces (same fields, same key order, `_meta` and raw values by reference). Whenever anything
// is not the plain expected shape — a malformed or missing field, an item the schema would skip,
// annotations, an unknown content type, a diff — it returns undefined and the zod schema decides.
// The schemas stay the definition; bench/ checks both paths agree on every update it generates.
import type { ContentBlock, PlanEntry, ToolCallContent, ToolCallFields, ToolCallLocation } from '../domain';
import type { EventBody } from '../common/updates';
import { isObject, withMeta } from '../common/zod';

type Role = 'user' | 'agent' | 'thought';
type Wire = Record<string, unknown>;

const CHUNK_ROLES: Readonly<Record<string, Role>> = {
  user_message_chunk: 'user',
  agent_message_chunk: 'agent',
  agent_thought_chunk: 'thought',
};

/** The event for `update` (tagged `tag`), or undefined to let the zod schema decode it. */
export function fastUpdate(tag: string, update: Wire): EventBody | undefined {
  switch (tag) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'user_message_chunk':
      return chunk(CHUNK_ROLES[tag], update);
    case 'plan_update':
      return planUpdate(update);
    case 'tool_call_update':
      return toolCallUpdate(update);
    default:
      return undefined;
  }
}

function textBlock(v: unknown): ContentBlock | undefined {
  if (!isObject(v) || v.type !== 'text' || typeof v.text !== 'string' || v.annotations !== undefined) return undefined;
  return withMeta<ContentBlock>({ type: 'text', text: v.text }, v);
}

function chunk(role: Role, u: Wire): EventBody | undefined {
  if (typeof u.messageId !== 'string') return undefined;
  const content = textBlock(u.content);
  if (!content) return undefined;
  return withMeta<EventBody>({ kind: 'message_chunk', role, messageId: u.messageId, content }, u);
}

function planUpdate(u: Wire): EventBody | undefined {
  const p = u.plan;
  if (!isObject(p) || p.type !== 'items' || typeof p.planId !== 'string' || !Array.isArray(p.entries)) return undefined;
  const wire = p.entries as unknown[];
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
  return withMeta<EventBody>({ kind: 'plan_update', plan: withMeta({ type: 'items', planId: p.planId, entries: entries ?? (wire as PlanEntry[]) }, p) }, u);
}

const ENTRY_KEYS = ['content', 'priority', 'status', '_meta'];

/**
 * A checked entry that is already what decoding makes of it: exactly its keys, in the schema's
 * order, `_meta` (if any) an object or null. Taken as it is: a plan update copies no entry.
 */
function isDecodedEntry(e: Wire): boolean {
  let n = 0;
  for (const k in e) if (k !== ENTRY_KEYS[n++]) return false;
  return n === 3 || (n === 4 && (e._meta === null || isObject(e._meta)));
}

/** A patch string: a string or null is kept, an omitted one stays omitted; anything else: no. */
function patchStr(v: unknown): boolean {
  return v === undefined || v === null || typeof v === 'string';
}

function toolContent(v: unknown): ToolCallContent | undefined {
  if (!isObject(v)) return undefined;
  if (v.type === 'content') {
    const content = textBlock(v.content);
    return content && withMeta<ToolCallContent>({ type: 'content', content }, v);
  }
  if (v.type === 'terminal' && typeof v.terminalId === 'string') return withMeta<ToolCallContent>({ type: 'terminal', terminalId: v.terminalId }, v);
  return undefined;
}

function location(v: unknown): ToolCallLocation | undefined {
  if (!isObject(v) || typeof v.path !== 'string') return undefined;
  const line = v.line;
  if (line === undefined) return { path: v.path };
  if (line === null || (typeof line === 'number' && Number.isSafeInteger(line) && line >= 0)) return { path: v.path, line };
  return undefined;
}

/** `undefined` when `v` is omitted, null for null, the mapped array, or false: not the plain shape. */
function list<T>(v: unknown, item: (x: unknown) => T | undefined): T[] | null | undefined | false {
  if (v === undefined || v === null) return v;
  if (!Array.isArray(v)) return false;
  const out: T[] = [];
  for (const x of v as unknown[]) {
    const t = item(x);
    if (t === undefined) return false;
    out.push(t);
  }
  return out;
}

function toolCallUpdate(u: Wire): EventBody | undefined {
  const { toolCallId, name, title, kind, status } = u;
  if (u.capabilities !== undefined) return undefined; // controls: the full schema reads them
  if (typeof toolCallId !== 'string' || !patchStr(name) || !patchStr(title) || !patchStr(kind) || !patchStr(status)) return undefined;
  const content = list(u.content, toolContent);
  if (content === false) return undefined;
  const locations = list(u.locations, location);
  if (locations === false) return undefined;
  const f: ToolCallFields = {};
  if (name !== undefined) f.name = name as string | null;
  if (title !== undefined) f.title = title as string | null;
  if (kind !== undefined) f.kind = kind as string | null;
  if (status !== undefined) f.status = status as string | null;
  if (content !== undefined) f.content = content;
  if (locations !== undefined) f.locations = locations;
  if (u.rawInput !== undefined) f.rawInput = u.rawInput;
  if (u.rawOutput !== undefined) f.rawOutput = u.rawOutput;
  return { kind: 'tool_call', toolCallId, fields: withMeta(f, u) };
}
