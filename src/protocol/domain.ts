// The domain model: the version-neutral, v2-shaped events and requests. Everything outside src/protocol consumes only
// these types; the v1 and v2 adapters are the only code that knows which version is spoken.
//
// Patch semantics (v2 upserts): a field that is `undefined` was omitted (leave unchanged),
// `null` clears it, any other value replaces it. Adapters must keep the three apart.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: unknown };
/** `_meta` as sent; undefined when absent or malformed. */
/** `_meta` as sent: an object; `null` clears what an earlier update set; undefined = omitted. */
export type Meta = JsonObject | null | undefined;
export type Patch<T> = T | null | undefined;

export type ProtocolVersion = 1 | 2;

// ---------------------------------------------------------------- content

export type ContentBlock =
  | { type: 'text'; text: string; annotations?: JsonObject | null; _meta?: Meta }
  | { type: 'image'; data: string; mimeType: string; uri?: string | null; _meta?: Meta }
  | { type: 'audio'; data: string; mimeType: string; _meta?: Meta }
  | {
      type: 'resource_link';
      uri: string;
      name: string;
      title?: string | null;
      description?: string | null;
      mimeType?: string | null;
      size?: number | null;
      _meta?: Meta;
    }
  | { type: 'resource'; resource: { uri: string; text?: string; blob?: string; mimeType?: string | null }; _meta?: Meta }
  /** A content block type this client does not know: kept whole. */
  | { type: 'unknown'; rawType: string; raw: JsonObject };

/** One changed file in a diff (v2 shape). */
export interface DiffChange {
  operation: 'add' | 'delete' | 'modify' | 'move' | 'copy' | string;
  path: string;
  oldPath?: string;
  fileType?: string | null;
  mimeType?: string | null;
}

export type ToolCallContent =
  | { type: 'content'; content: ContentBlock; _meta?: Meta }
  | { type: 'terminal'; terminalId: string; _meta?: Meta }
  /**
   * Diffs: v2 sends `changes` (+ an optional patch); a v1 diff `{path, oldText, newText}` is mapped
   * to one change and its texts are kept in `texts` so the diff editor can show them.
   */
  | {
      type: 'diff';
      changes: DiffChange[];
      patch?: { format: string; text: string } | null;
      texts?: { path: string; oldText: string | null; newText: string }[];
      _meta?: Meta;
    }
  | { type: 'unknown'; rawType: string; raw: JsonObject };

export interface ToolCallLocation {
  path: string;
  line?: number | null;
}

/** Fields of a tool call; every field follows patch semantics. */
export interface ToolCallFields {
  name?: Patch<string>;
  title?: Patch<string>;
  kind?: Patch<string>;
  status?: Patch<string>;
  content?: Patch<ToolCallContent[]>;
  locations?: Patch<ToolCallLocation[]>;
  rawInput?: unknown;
  rawOutput?: unknown;
  /** v2: what the client may do with it (`tool_call/cancel`); null clears. */
  capabilities?: Patch<ItemControls>;
  _meta?: Meta;
}

/** Client-initiated controls an agent offers on a tool call, a terminal or a subagent session. */
export interface ItemControls {
  cancel: boolean;
}

// ---------------------------------------------------------------- plans

export interface PlanEntry {
  content: string;
  /** `high | medium | low` or a custom value (kept verbatim). */
  priority: string;
  /** `pending | in_progress | completed | cancelled` or a custom value (kept verbatim). */
  status: string;
  _meta?: Meta;
}

export type PlanContent =
  | { type: 'items'; planId: string; entries: PlanEntry[]; _meta?: Meta }
  /** `path`: the absolute path of the plan's file, when the agent names it (the client shows `content`). */
  | { type: 'markdown'; planId: string; content: string; path?: string; _meta?: Meta }
  | { type: 'file'; planId: string; uri: string; _meta?: Meta }
  /** Any other plan type (`_intent`, `_custom`, future ones): the whole payload is kept. */
  | { type: 'unknown'; planId: string; rawType: string; raw: JsonObject };

// ---------------------------------------------------------------- session config

export interface ConfigSelectOption {
  value: string;
  name: string;
  description?: string | null;
  group?: string;
}
export type ConfigOption =
  | {
      kind: 'select';
      id: string;
      name: string;
      description?: string | null;
      category?: string | null;
      currentValue: string;
      options: ConfigSelectOption[];
      _meta?: Meta;
    }
  | { kind: 'boolean'; id: string; name: string; description?: string | null; category?: string | null; currentValue: boolean; _meta?: Meta }
  | { kind: 'unknown'; id: string; name: string; raw: JsonObject };

/** The v1 adapter presents session modes as this select option (category `mode`). */
export const V1_MODE_CONFIG_ID = '_acp_v1_mode';

/** The tool-call kind with which an agent asks to leave plan mode (a plan approval). */
export const MODE_SWITCH_KIND = 'switch_mode';

/** `input`: the raw input spec when its type is not one we know (kept, never dropped; the command is shown without structured input). */
export interface AvailableCommand {
  name: string;
  description: string;
  hint?: string | null;
  input?: JsonObject;
  _meta?: Meta;
}

// ---------------------------------------------------------------- session events

export type TurnState = 'running' | 'idle' | 'requires_action' | string;

/** One piece of work running on after the turn (v2 `state_update.background`); unknown types kept raw. */
export type BackgroundWork =
  | { type: 'terminal'; terminalId: string }
  | { type: 'tool_call'; toolCallId: string }
  | { type: 'subagent'; sessionId: string }
  | { type: 'unknown'; rawType: string; raw: JsonObject };
export interface Usage {
  totalTokens?: number;
  inputTokens?: number;
  outputTokens?: number;
  [k: string]: unknown;
}

/** Context size around a compaction, as the agent reports it (either may be missing). */
export interface CompactionTokens {
  before?: number;
  after?: number;
}

export type SessionEvent = { sessionId: string } & (
  | { kind: 'plan_update'; plan: PlanContent; _meta?: Meta }
  | { kind: 'plan_removed'; planId: string; _meta?: Meta }
  /**
   * Turn state. The turn is over only at `idle` with a `stopReason`. The v1 adapter synthesizes
   * `running` when a prompt is sent and `idle` + stopReason from the prompt response.
   */
  | {
      kind: 'state';
      state: TurnState;
      stopReason?: string | null;
      error?: { code: number; message: string; data?: unknown } | null;
      usage?: Usage | null;
      raw?: JsonObject;
      /** A complete snapshot of background work; undefined or null: not reported. */
      background?: BackgroundWork[] | null;
    }
  /** Appends to a message; v1 chunks without messageId get a stable synthesized id per turn. */
  | { kind: 'message_chunk'; role: 'user' | 'agent' | 'thought'; messageId: string; content: ContentBlock; _meta?: Meta }
  /** Upsert of a whole message (v2): undefined content = unchanged, null/[] = cleared. */
  /** `steered`: input this client sent into the running turn (`_session/steering`) that the agent took. */
  | { kind: 'message'; role: 'user' | 'agent' | 'thought'; messageId: string; content: Patch<ContentBlock[]>; _meta?: Meta; steered?: true }
  /** Create-or-update of a tool call (v1 `tool_call` and `tool_call_update`, v2 `tool_call_update`). */
  | { kind: 'tool_call'; toolCallId: string; fields: ToolCallFields }
  | { kind: 'tool_call_content_chunk'; toolCallId: string; content: ToolCallContent; _meta?: Meta }
  /** v2 display terminal snapshot; `output` (base64) replaces the whole buffer when present. */
  | {
      kind: 'terminal_update';
      terminalId: string;
      command?: Patch<string>;
      cwd?: Patch<string>;
      output?: string | null;
      exitStatus?: { exitCode?: number | null; signal?: string | null } | null;
      capabilities?: Patch<ItemControls>;
      _meta?: Meta;
    }
  | { kind: 'terminal_output_chunk'; terminalId: string; data: string; _meta?: Meta }
  | { kind: 'commands'; commands: AvailableCommand[] }
  | { kind: 'config_options'; options: ConfigOption[] }
  | { kind: 'session_info'; title?: Patch<string>; updatedAt?: Patch<string>; _meta?: Meta }
  /** `_meta` kept: agents put more there (claude-agent-acp: its rate limit under `_claude/rateLimit`). */
  | { kind: 'usage'; used: number; size: number; cost?: { amount: number; currency: string } | null; _meta?: Meta }
  | { kind: 'notice'; severity: string; title: string; description?: string | null }
  /**
   * `compaction_update`: upsert of the context compaction `compactionId` (`in_progress`, `completed`,
   * `failed`, `cancelled` or another status, kept verbatim). `summary` and `error` follow patch
   * semantics; `tokens` is read from `_meta` when the agent reports counts (undefined: `_meta` omitted).
   */
  | {
      kind: 'compaction';
      compactionId: string;
      status: string;
      summary?: Patch<ContentBlock[]>;
      error?: Patch<string>;
      tokens?: CompactionTokens | null;
      _meta?: Meta;
    }
  /** `compaction_summary_chunk`: appends to the summary of `compactionId` (a first-seen id makes an in-progress one). */
  | { kind: 'compaction_chunk'; compactionId: string; content: ContentBlock; _meta?: Meta }
  /**
   * `subagent_update` on a parent: announces (first time) or patches its child session `childSessionId`.
   * `state` mirrors the child's foreground state onto the association.
   */
  | {
      kind: 'subagent';
      childSessionId: string;
      title?: Patch<string>;
      description?: Patch<string>;
      capabilities?: Patch<ItemControls>;
      state?: Patch<TurnState>;
      cwd?: Patch<string>;
      _meta?: Meta;
    }
  /** Upsert of an inter-session message in this session's transcript (sender/recipient follow patch semantics). */
  | {
      kind: 'session_message';
      messageId: string;
      senderSessionId?: Patch<string>;
      recipientSessionId?: Patch<string>;
      content?: Patch<ContentBlock[]>;
      _meta?: Meta;
    }
  | { kind: 'session_message_chunk'; messageId: string; content: ContentBlock; _meta?: Meta }
  /** v2 `replay_complete`: every update before it on this session was replayed history. */
  | { kind: 'replay_complete'; _meta?: Meta }
  /**
   * A `sessionUpdate` this client does not know: never dropped, shown generically. With `problem`,
   * a known variant that was malformed: rejected (not applied), reported, and shown as such.
   */
  | { kind: 'unknown'; updateType: string; raw: JsonObject; problem?: string }
);

export type SessionEventKind = SessionEvent['kind'];

// ---------------------------------------------------------------- agent → client requests

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: string;
  _meta?: Meta;
}

export type PermissionSubject =
  | { type: 'tool_call'; toolCallId: string; fields: ToolCallFields }
  | { type: 'command'; command: string; cwd: string; toolCallId?: string | null; terminalId?: string | null }
  | { type: 'unknown'; rawType: string; raw: JsonObject };

export interface PermissionRequest {
  sessionId: string;
  /** v2 sends a title; for v1 it is the tool call's title. */
  title: string;
  description?: string | null;
  subject?: PermissionSubject;
  options: PermissionOption[];
  _meta?: Meta;
}

export type PermissionOutcome = { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' };

// ---------------------------------------------------------------- agent description

export interface AuthMethod {
  id: string;
  name: string;
  description?: string | null;
  /** `agent`, `terminal`, `env_var` or another type (kept verbatim). */
  type: string;
  args?: string[];
  env?: { name: string; value: string }[];
  raw: JsonObject;
}

/** What the agent can do, whatever the version. */
export interface AgentCapabilities {
  loadSession: boolean;
  resume: boolean;
  list: boolean;
  close: boolean;
  delete: boolean;
  /** v2 (unstable) `session.fork`, `session.archive`, `session.title`, `session.status`; absent: not offered. */
  fork?: boolean;
  archive?: boolean;
  title?: boolean;
  status?: boolean;
  additionalDirectories: boolean;
  logout: boolean;
  prompt: { image: boolean; audio: boolean; embeddedContext: boolean };
  mcp: { stdio: boolean; http: boolean; sse: boolean };
}

export interface AgentInfo {
  name: string;
  title?: string | null;
  version: string;
}
