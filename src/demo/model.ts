// The Demo Agent's own, version-neutral model of what it tells the client. Scenarios speak only
// in these terms; src/demo/wire renders them as v1 or v2 messages. This is also what the session
// history stores (and persists), so a session can be replayed in either version.

export type JsonObject = { [k: string]: unknown };

export type ProtocolVersion = 1 | 2;

/** A content block as sent on the wire (both versions share these shapes). */
export type Block = { type: string } & JsonObject;

export type Priority = 'high' | 'medium' | 'low';
/** v2 statuses plus custom (`_`-prefixed) ones; v1 rendering maps what v1 lacks. */
export type EntryStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled' | `_${string}`;

export interface PlanEntry {
  content: string;
  priority: Priority;
  status: EntryStatus;
  /** Sent as is (the `/longplan` scenario puts step ids and notes here). */
  _meta?: JsonObject;
}

export type PlanContent =
  | { type: 'items'; planId: string; entries: PlanEntry[] }
  | { type: 'markdown'; planId: string; content: string }
  | { type: 'file'; planId: string; uri: string }
  /** A custom plan type (`_`-prefixed); only v2 can carry it. */
  | ({ type: `_${string}`; planId: string } & JsonObject);

export type ToolStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled';
export type ToolKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'switch_mode' | 'other';

export type ToolContent =
  | { type: 'text'; text: string }
  /** `path` is absolute; `patchPath` is the path shown in the git patch (relative to the cwd). */
  | { type: 'diff'; path: string; patchPath: string; oldText: string | null; newText: string }
  | { type: 'terminal'; terminalId: string };

export interface ToolLocation {
  path: string;
  line?: number;
}

/** A tool call upsert: `toolCallId` plus the fields that change (omitted = unchanged). */
export interface ToolPatch {
  toolCallId: string;
  title?: string;
  kind?: ToolKind;
  status?: ToolStatus;
  content?: ToolContent[];
  locations?: ToolLocation[];
  rawInput?: JsonObject;
  rawOutput?: JsonObject;
  /** Sent as is; the intent scenario puts the tool's name in `toolName` (see docs/INTENT.md). */
  _meta?: JsonObject;
}

/** The full state of a tool call (what history keeps). */
export type ToolState = ToolPatch & { title: string };

export interface TerminalExit {
  exitCode?: number;
  signal?: string;
}

export type MessageRole = 'user' | 'agent' | 'thought';

/** Something the agent tells the client during a turn. */
export type DemoEvent =
  | { kind: 'message'; role: MessageRole; messageId: string; blocks: Block[] }
  | { kind: 'plan'; plan: PlanContent }
  | { kind: 'planRemoved'; planId: string }
  | { kind: 'tool'; patch: ToolPatch }
  | { kind: 'toolChunk'; toolCallId: string; content: ToolContent }
  /** Display terminal upsert (v2 only). `output` is base64 and replaces all earlier bytes. */
  | { kind: 'terminal'; terminalId: string; command?: string; cwd?: string; output?: string; exitStatus?: TerminalExit }
  /** Display terminal bytes, base64 (v2 only). */
  | { kind: 'terminalChunk'; terminalId: string; data: string }
  | { kind: 'info'; title?: string; updatedAt?: string }
  | { kind: 'usage'; used: number; size: number; cost?: { amount: number; currency: string }; _meta?: JsonObject }
  /** Foreground state (v2 only; never recorded in history). */
  | { kind: 'state'; state: 'running' | 'requires_action' | 'idle'; stopReason?: StopReason; background?: JsonObject[] }
  /** Mode change (v1 only; never recorded in history). */
  | { kind: 'mode'; modeId: string }
  /** A context compaction's status (never recorded in history); v1 only to a client that opted in. */
  | { kind: 'compaction'; compactionId: string; status: string; summary?: Block[]; error?: string; _meta?: JsonObject }
  /** Text appended to a running compaction's summary (never recorded in history). */
  | { kind: 'compactionChunk'; compactionId: string; text: string };

export type StopReason = 'end_turn' | 'cancelled' | 'max_tokens' | 'max_turn_requests' | 'refusal';

/** One entry of a session's history: events coalesced per message / plan / tool call / terminal. */
export type HistoryRecord =
  | { kind: 'message'; role: MessageRole; messageId: string; blocks: Block[] }
  | { kind: 'plan'; plan: PlanContent }
  | { kind: 'planRemoved'; planId: string }
  | { kind: 'tool'; call: ToolState }
  | { kind: 'terminal'; terminalId: string; command?: string; cwd?: string; output: string; exitStatus?: TerminalExit }
  | { kind: 'info'; title?: string; updatedAt?: string }
  | { kind: 'usage'; used: number; size: number; cost?: { amount: number; currency: string }; _meta?: JsonObject };

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
}

/** What a scenario asks permission for. v2 renders `subject`; v1 needs a tool call. */
export interface PermissionAsk {
  title: string;
  description?: string;
  /** Tool call the permission is about (v2 subject `tool_call`; v1 `toolCall`). */
  toolCall?: ToolPatch;
  /** Command the agent wants to run (v2 subject `command`). */
  command?: { command: string; cwd: string; toolCallId?: string; terminalId?: string };
  options: PermissionOption[];
}

export type PermissionOutcome = { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' } | { outcome: 'unknown'; raw: unknown };
