// The transcript's data: what a session's conversation holds, in order. Items are owned by the
// store and mutated in place as events arrive; consumers must treat them as read-only.
import type {
  AvailableCommand,
  CompactionTokens,
  ContentBlock,
  JsonObject,
  Meta,
  PermissionOption,
  PermissionSubject,
  ToolCallContent,
  ToolCallLocation,
  Usage,
} from '../../protocol/domain';
import type { ElicitationForm } from '../../protocol/elicitation';

/** `session`: an inter-session message (subagents), with its sender and recipient in `route`. */
export type Role = 'user' | 'agent' | 'thought' | 'session';

/** Sender and recipient session ids of an inter-session message (null: not reported or cleared). */
export interface MessageRoute {
  from: string | null;
  to: string | null;
}

/**
 * Consecutive text of a message: the chunks received, every `TEXT_JOIN_AT` of them joined into one
 * piece (`joined`: the pieces at the front). A long message is a few hundred strings, not one per
 * chunk, and each character is copied once more at most.
 */
export interface TextPart {
  type: 'text';
  chunks: string[];
  length: number;
  joined: number;
}

/** Chunks after the joined pieces that are joined into one. */
export const TEXT_JOIN_AT = 64;

/** The text of `part` from character `from` on (the characters appended since `from`). */
export function textFrom(part: TextPart, from: number): string {
  let i = part.chunks.length;
  let at = part.length;
  while (i > 0 && at > from) at -= part.chunks[--i]!.length;
  const text = i === part.chunks.length - 1 ? part.chunks[i]! : part.chunks.slice(i).join('');
  return at === from ? text : text.slice(from - at);
}
/** A non-text content block of a message (image, resource, link, unknown…). */
export interface BlockPart {
  type: 'block';
  block: ContentBlock;
}
export type MessagePart = TextPart | BlockPart;

/**
 * What a size limit made the transcript leave out of an item (see `limits.ts`). The item keeps
 * its head; views show that the rest was not kept.
 */
export interface Truncation {
  /** The limit that applied, in characters. */
  limit: number;
  /** Characters of text not kept. */
  droppedChars: number;
  /** Blocks or tool call contents not kept whole (non-text, or past the limit). */
  droppedBlocks: number;
  /** Raw fields not kept because each alone was larger than the raw limit (`rawInput`, `_meta`…). */
  droppedFields: string[];
}

export interface MessageItem {
  kind: 'message';
  itemId: string;
  role: Role;
  messageId: string;
  parts: MessagePart[];
  /** Bumped when the parts are replaced (a v2 upsert); appends keep it. */
  rev: number;
  /** Added by this client (a prompt typed here), not reported by the agent. */
  local: boolean;
  /** Set for an inter-session message (role `session`). */
  route?: MessageRoute;
  /** The user's input sent into the running turn (steering), which the agent took. */
  steered?: true;
  _meta?: Meta;
  /** Set once a size limit dropped part of the message. */
  truncated?: Truncation;
}

export interface ToolCallItem {
  kind: 'tool_call';
  itemId: string;
  toolCallId: string;
  name: string | null;
  title: string | null;
  toolKind: string | null;
  status: string | null;
  content: ToolCallContent[];
  /** Bumped when `content` is replaced; content chunks append and keep it. */
  contentRev: number;
  locations: ToolCallLocation[];
  rawInput: unknown;
  rawOutput: unknown;
  _meta?: Meta;
  /** The turn ended while the agent still reported it pending or in progress (some agents never close it). */
  unfinished?: boolean;
  /** Set once a size limit dropped part of the tool call. */
  truncated?: Truncation;
}

export type PermissionState = 'pending' | 'selected' | 'cancelled';

export interface PermissionItem {
  kind: 'permission';
  itemId: string;
  requestId: string;
  title: string;
  description: string | null;
  subject: PermissionSubject | null;
  options: PermissionOption[];
  state: PermissionState;
  /** The option chosen, when `state` is `selected`. */
  optionId: string | null;
  /** Extra marks shown with the prompt, e.g. `not_in_plan`. */
  flags: string[];
  _meta?: Meta;
  /** The kind of the tool call it is about, as the transcript knows it (`switch_mode` for plan mode). */
  toolKind?: string | null;
  /**
   * A plan-mode approval's plan: from the tool call's input (`source: 'input'`), else the last
   * Markdown plan of the session (`'plan'`); null when none is known.
   */
  plan?: { text: string; source: 'input' | 'plan' } | null;
}

export type ElicitationState = 'pending' | 'accepted' | 'declined' | 'cancelled' | 'completed';

/** A form or a link the agent asked the user to fill in or visit (`elicitation/create`). */
export interface ElicitationItem {
  kind: 'elicitation';
  itemId: string;
  requestId: string;
  message: string;
  /** `unknown`: a mode this client does not know; `unusable`: a form or link it cannot show (`problem`). */
  mode: 'form' | 'url' | 'unknown' | 'unusable';
  form: ElicitationForm | null;
  url: string | null;
  /** The URL's host, shown prominently before the user agrees to open it. */
  host: string | null;
  /** The tool call it belongs to (tool-call-scoped). */
  toolCallId: string | null;
  problem: string | null;
  /** The raw request of an unknown mode (kept, shown generically). */
  raw: JsonObject | null;
  state: ElicitationState;
  /** Why it ended as it did, for people ("The agent stopped before this was answered."). */
  note: string | null;
  /** The values sent, one line per field. */
  answer: string[] | null;
}

export interface NoticeItem {
  kind: 'notice';
  itemId: string;
  severity: string;
  title: string;
  description: string | null;
}

/**
 * A context compaction (one per `compactionId`), placed where it was first reported. `parts` is
 * its summary: chunks append (`rev` kept), a whole summary replaces them; `rev` is bumped by
 * anything that is not an append (status, error, token counts, a replaced summary).
 */
export interface CompactionItem {
  kind: 'compaction';
  itemId: string;
  compactionId: string;
  /** `in_progress`, `completed`, `failed`, `cancelled` or a status this client does not know. */
  status: string;
  error: string | null;
  tokens: CompactionTokens | null;
  parts: MessagePart[];
  rev: number;
  truncated?: Truncation;
}

/** An update this client does not know, kept raw and shown generically. */
/** `problem`: a known update kind that was malformed (rejected, not applied). */
export interface UnknownItem {
  kind: 'unknown';
  itemId: string;
  updateType: string;
  raw: JsonObject;
  problem?: string;
  truncated?: Truncation;
}

/** Marks the end of a turn (a `state` event `idle` with a stop reason). */
export interface TurnEndItem {
  kind: 'turn_end';
  itemId: string;
  stopReason: string;
  error: { code: number; message: string; data?: unknown } | null;
  usage: Usage | null;
}

export type TranscriptItem = MessageItem | ToolCallItem | PermissionItem | ElicitationItem | NoticeItem | CompactionItem | UnknownItem | TurnEndItem;
export type TranscriptItemKind = TranscriptItem['kind'];

export interface ContextUsage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string } | null;
}

/** Session-level state (not items): shown in the view's header and composer. */
export interface SessionMeta {
  lastTurnUsage: Usage | null;
  usage: ContextUsage | null;
  commands: AvailableCommand[];
}

export type TranscriptChange =
  /** A new item was added at the end. */
  | { sessionId: string; kind: 'add'; itemId: string }
  /** Content was appended to an item (message chunk, tool call content chunk). */
  | { sessionId: string; kind: 'append'; itemId: string }
  /** Fields of an item were replaced (upsert, permission answered). */
  | { sessionId: string; kind: 'upsert'; itemId: string }
  /** A terminal's text or state changed; `append` when only text was appended. */
  | { sessionId: string; kind: 'terminal'; terminalId: string; append: boolean }
  /** Session-level state (`SessionMeta`) changed. */
  | { sessionId: string; kind: 'session' }
  /** The session's transcript was cleared or removed. */
  | { sessionId: string; kind: 'reset' };

/** The message text as one string (O(n); for snapshots and tests, not per chunk). */
export function messageText(m: MessageItem): string {
  return m.parts.map((p) => (p.type === 'text' ? p.chunks.join('') : '')).join('');
}
