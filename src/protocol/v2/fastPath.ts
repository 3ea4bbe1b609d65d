// Hand-written decoding of the commonest v2 `session/update` shapes: text message chunks, items
// plans, and tool call updates whose content is text or a terminal. An agent sends these by the
// thousand per turn, and the zod schemas cost ~10× more per update than checking them by hand.
//
// The contract: for an update it handles, the result is exactly what the zod schema in updates.ts
// produces (same fields, same key order, `_meta` and raw values by reference). Whenever anything
// is not the plain expected shape — a malformed or missing field, an item the schema would skip,
// annotations, an unknown content type, a diff — it returns undefined and the zod schema decides.
// The schemas stay the definition; bench/ checks both paths agree on every update it generates.
import type { ToolCallContent, ToolCallFields, ToolCallLocation } from '../domain';
import type { EventBody } from '../common/updates';
import { isObject, withMeta } from '../common/zod';
import { fastPlanUpdate, textBlock } from '../common/fastDecode';

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
      return fastPlanUpdate(update);
    case 'tool_call_update':
      return toolCallUpdate(update);
    default:
      return undefined;
  }
}

function chunk(role: Role, u: Wire): EventBody | undefined {
  if (typeof u.messageId !== 'string') return undefined;
  const content = textBlock(u.content);
  if (!content) return undefined;
  return withMeta<EventBody>({ kind: 'message_chunk', role, messageId: u.messageId, content }, u);
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
