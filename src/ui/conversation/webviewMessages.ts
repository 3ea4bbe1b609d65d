// Messages between the extension and the conversation webview, and the plain-JSON views of
// transcript items they carry. No `vscode` here: the webview script imports these types too.
//
// Extension → webview: one `snapshot` when the webview (re)loads or the session changes, then
// `delta`s (only what changed, coalesced). Webview → extension: user actions and replies.

// ---------------------------------------------------------------- views

export type BlockView =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; src: string | null; uri: string | null }
  | { type: 'link'; uri: string; name: string; title: string | null; description: string | null }
  | { type: 'resource'; uri: string; mimeType: string | null; text: string | null; truncated: boolean }
  | { type: 'other'; label: string; json: string };

export interface DiffFileView {
  path: string;
  oldPath: string | null;
  /** add | delete | modify | move | copy | other (verbatim). */
  operation: string;
  added: number;
  removed: number;
}

export type ToolContentView =
  | { type: 'block'; block: BlockView }
  | {
      type: 'diff';
      /** Index of this content in the tool call (for `openDiff`). */
      index: number;
      files: DiffFileView[];
      /** A compact unified rendering: lines starting with ' ', '+', '-', '@' or '…'. */
      preview: string[];
      /** More lines than shown. */
      more: number;
    }
  | { type: 'terminal'; terminalId: string }
  | { type: 'other'; label: string; json: string };

export interface ToolCallHeaderView {
  kind: 'tool_call';
  itemId: string;
  index: number;
  toolCallId: string;
  title: string;
  toolKind: string | null;
  status: string | null;
  locations: { path: string; line: number | null }[];
  rawInput: string | null;
  rawOutput: string | null;
  /** What a size limit left out of the tool call, as a sentence; null when nothing was. */
  truncated: string | null;
}

export type ItemView =
  | {
      kind: 'message'; itemId: string; index: number; role: 'user' | 'agent' | 'thought'; local: boolean; blocks: BlockView[];
      /** What a size limit left out of the message, as a sentence; null when nothing was. */
      truncated: string | null;
    }
  | (ToolCallHeaderView & { content: ToolContentView[] })
  | {
      kind: 'permission'; itemId: string; index: number; requestId: string; title: string; description: string | null;
      /** `label` carries the option's kind next to the agent's name; `warning` when they contradict. */
      subject: string | null; options: { optionId: string; name: string; kind: string; label: string; warning: string | null }[];
      state: 'pending' | 'selected' | 'cancelled'; optionId: string | null; flags: string[];
    }
  | { kind: 'notice'; itemId: string; index: number; severity: string; title: string; description: string | null }
  /** `problem`: a known update kind that was malformed and rejected (not applied). */
  | { kind: 'unknown'; itemId: string; index: number; label: string; problem: string | null; json: string }
  | { kind: 'turn_end'; itemId: string; index: number; stopReason: string; error: string | null; usage: string | null };

export interface TerminalView {
  terminalId: string;
  command: string | null;
  cwd: string | null;
  text: string;
  /** Earlier output is not shown. */
  truncated: boolean;
  exit: string | null;
}

export type ConfigView =
  | { kind: 'select'; id: string; name: string; description: string | null; category: string | null; value: string; options: { value: string; name: string; description: string | null; group: string | null }[] }
  | { kind: 'boolean'; id: string; name: string; description: string | null; category: string | null; value: boolean };

export interface SessionView {
  sessionId: string;
  title: string | null;
  turnState: string;
  /** A turn is in progress: prompts are queued, Cancel is offered. */
  busy: boolean;
  stopReason: string | null;
  commands: { name: string; description: string; hint: string | null }[];
  config: ConfigView[];
  usage: { used: number; size: number; cost: string | null } | null;
  lastTurnUsage: string | null;
  queued: { id: string; text: string }[];
}

// ---------------------------------------------------------------- extension → webview

export type DeltaOp =
  /** Insert (at `item.index`) or replace an item. */
  | { op: 'upsert'; item: ItemView }
  /** Append to a message: `text` continues its last text block, `blocks` follow. */
  | { op: 'append'; itemId: string; text?: string; blocks?: BlockView[] }
  /** Replace a tool call's header and append to its content. */
  | { op: 'tool'; header: ToolCallHeaderView; append: ToolContentView[] }
  | { op: 'terminal'; terminal: TerminalView }
  /** Append to a terminal's text; `info` when its command, cwd or exit changed. */
  | { op: 'terminalAppend'; terminalId: string; text: string; info?: Omit<TerminalView, 'terminalId' | 'text'> }
  | { op: 'session'; session: SessionView };

export interface SnapshotMessage {
  type: 'snapshot';
  sessionId: string | null;
  session: SessionView | null;
  items: ItemView[];
  /** Absolute index of the oldest item the extension still holds (items before `items[0]` can be loaded). */
  firstIndex: number;
  terminals: TerminalView[];
  windowSize: number;
}

export interface MentionItem { uri: string; label: string; detail: string }

export interface DomSnapshot {
  sessionId: string | null;
  /** `document.body.innerText`. */
  text: string;
  items: { itemId: string; kind: string; index: number; text: string }[];
  busy: boolean;
  counters: WebviewCounters;
  clicked?: boolean;
}

export interface WebviewCounters {
  snapshotsApplied: number;
  deltasApplied: number;
  opsApplied: number;
  /** Items rendered (created or re-rendered) since load. */
  itemsRendered: number;
  /** Item elements now in the DOM. */
  domItems: number;
}

export type ToWebview =
  | SnapshotMessage
  | { type: 'delta'; sessionId: string; ops: DeltaOp[] }
  | { type: 'earlier'; sessionId: string; items: ItemView[]; firstIndex: number; terminals: TerminalView[] }
  | { type: 'mentionResults'; reqId: number; items: MentionItem[] }
  | { type: 'inspect'; reqId: number; click?: { selector: string; text?: string } }
  | { type: 'focusInput' };

// ---------------------------------------------------------------- webview → extension

export interface Attachment { uri: string; name: string }

export type FromWebview =
  | { type: 'ready' }
  | { type: 'submit'; sessionId: string | null; text: string; attachments: Attachment[] }
  | { type: 'cancel'; sessionId: string }
  /** `option`: the position of the clicked option among the request's options. */
  | { type: 'permission'; sessionId: string; requestId: string; optionId: string; option: number }
  | { type: 'setConfig'; sessionId: string; configId: string; value: string | boolean }
  | { type: 'removeQueued'; sessionId: string; id: string }
  | { type: 'openLocation'; path: string; line: number | null }
  | { type: 'openDiff'; sessionId: string; itemId: string; index: number; file: number }
  | { type: 'openLink'; href: string }
  | { type: 'mentionQuery'; reqId: number; query: string }
  | { type: 'loadEarlier'; sessionId: string; before: number; count: number }
  | { type: 'inspectResult'; reqId: number; snapshot: DomSnapshot }
  | { type: 'error'; message: string };
