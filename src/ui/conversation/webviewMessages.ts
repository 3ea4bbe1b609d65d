// Messages between the extension and the conversation webview, and the plain-JSON views of
// transcript items they carry. No `vscode` here: the webview script imports these types too.
//
// Extension → webview: one `snapshot` when the webview (re)loads or the session changes, then
// `delta`s (only what changed, coalesced). Webview → extension: user actions and replies.

import type { ElicitationField } from '../../protocol/elicitation';
import type { RawValues } from '../../state/elicitationValues';

/** Tests: click the first element matching `selector` (containing `text`), or set its `value` (a checkbox's checked state) instead. */
export interface InspectClick {
  /** The element to click (or to set `value` on); none: only `scrollTop` applies. */
  selector?: string;
  text?: string;
  value?: string | boolean;
  /** Scrolls the transcript to this position first, as a person's wheel would. */
  scrollTop?: number;
}

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
      kind: 'message';
      itemId: string;
      index: number;
      role: 'user' | 'agent' | 'thought' | 'session';
      local: boolean;
      /** The user's input the agent took into its running turn (steering). */
      steered?: true;
      blocks: BlockView[];
      /** An inter-session message: "from → to", session ids or titles (role `session`). */
      route?: { from: string; to: string };
      /** What a size limit left out of the message, as a sentence; null when nothing was. */
      truncated: string | null;
    }
  | (ToolCallHeaderView & { content: ToolContentView[] })
  | {
      kind: 'permission';
      itemId: string;
      index: number;
      requestId: string;
      title: string;
      description: string | null;
      /** `label` carries the option's kind next to the agent's name; `warning` when they contradict. */
      subject: string | null;
      options: { optionId: string; name: string; kind: string; label: string; warning: string | null; explain: string | null }[];
      state: 'pending' | 'selected' | 'cancelled';
      optionId: string | null;
      flags: string[];
      /** Set for a plan-mode approval (a `switch_mode` tool call): the plan (Markdown, untrusted) shown in full. */
      planMode: { plan: string | null; planTruncated: boolean } | null;
    }
  | ElicitationView
  | { kind: 'notice'; itemId: string; index: number; severity: string; title: string; description: string | null }
  | CompactionView
  /** `problem`: a known update kind that was malformed and rejected (not applied). */
  | { kind: 'unknown'; itemId: string; index: number; label: string; problem: string | null; json: string }
  | { kind: 'turn_end'; itemId: string; index: number; stopReason: string; error: string | null; usage: string | null };

/** A context compaction: its status worded (`label`), token counts, and its summary (folded, untrusted Markdown). */
export interface CompactionView {
  kind: 'compaction';
  itemId: string;
  index: number;
  /** The agent's status, for styling only. */
  status: string;
  label: string;
  tokens: string | null;
  error: string | null;
  blocks: BlockView[];
  truncated: string | null;
}

/** A form field as the webview gets it (an unknown field's schema as JSON text). */
export type ElicitationFieldView =
  Exclude<ElicitationField, { kind: 'unknown' }> | (Omit<Extract<ElicitationField, { kind: 'unknown' }>, 'raw'> & { raw: string });

export interface ElicitationView {
  kind: 'elicitation';
  itemId: string;
  index: number;
  requestId: string;
  message: string;
  mode: 'form' | 'url' | 'unknown' | 'unusable';
  title: string | null;
  description: string | null;
  fields: ElicitationFieldView[];
  url: string | null;
  host: string | null;
  toolCallId: string | null;
  problem: string | null;
  /** An unknown mode's request as JSON text. */
  raw: string | null;
  state: 'pending' | 'accepted' | 'declined' | 'cancelled' | 'completed';
  note: string | null;
  answer: string[] | null;
}

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
  | {
      kind: 'select';
      id: string;
      name: string;
      description: string | null;
      category: string | null;
      value: string;
      options: { value: string; name: string; description: string | null; group: string | null }[];
    }
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
  /** `note`: why it waits although the user asked to steer it into the turn, in words. */
  queued: { id: string; text: string; note: string | null }[];
  /** A turn runs and the agent takes input into it (steering): Steer is offered beside Queue. */
  steerable: boolean;
  /** Content the agent accepts in prompts beyond text and links (its prompt capabilities). */
  accepts: { image: boolean; audio: boolean };
  /** The session cannot continue (why, a sentence): the prompt box is replaced by this and New Session. */
  ended?: string;
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

export interface MentionItem {
  uri: string;
  label: string;
  detail: string;
}

export interface DomSnapshot {
  sessionId: string | null;
  /** The visible text (`innerText`) of the header, the transcript and the composer. */
  text: string;
  items: { itemId: string; kind: string; index: number; text: string }[];
  busy: boolean;
  counters: WebviewCounters;
  clicked?: boolean;
  /** The transcript's scroll position and the largest it can take (at the bottom: equal). */
  scroll: { top: number; max: number };
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
  /** `seq`: the webview answers `{ type: 'applied', seq }` once it has applied the ops. */
  | { type: 'delta'; sessionId: string; ops: DeltaOp[]; seq?: number }
  | { type: 'earlier'; sessionId: string; items: ItemView[]; firstIndex: number; terminals: TerminalView[] }
  | { type: 'mentionResults'; reqId: number; items: MentionItem[] }
  | { type: 'inspect'; reqId: number; click?: InspectClick }
  | { type: 'focusInput' }
  /** Shows only these items of the session (the work of one plan step); null shows everything again. */
  | { type: 'filter'; filter: ConversationFilter | null }
  /** Answer to `pickMedia`: the files read, and what was refused (one sentence each). */
  | { type: 'mediaPicked'; items: MediaAttachment[]; problems: string[] };

export interface ConversationFilter {
  sessionId: string;
  label: string;
  itemIds: string[];
}

// ---------------------------------------------------------------- webview → extension

export interface Attachment {
  uri: string;
  name: string;
}

/** An image or audio clip attached to a prompt: base64 data (bounded, see promptBlocks.ts). */
export interface MediaAttachment {
  name: string;
  mimeType: string;
  data: string;
}

export type FromWebview =
  | { type: 'ready' }
  | { type: 'applied'; seq: number }
  | { type: 'submit'; sessionId: string | null; text: string; attachments: Attachment[]; media?: MediaAttachment[]; steer?: boolean }
  /** "Attach…": the extension shows a file picker for images / audio. */
  | { type: 'pickMedia'; sessionId: string | null }
  | { type: 'cancel'; sessionId: string }
  /** New Session, offered by a session that has ended (same agent). */
  | { type: 'newSession'; sessionId: string }
  /** `option`: the position of the clicked option among the request's options. */
  | { type: 'permission'; sessionId: string; requestId: string; optionId: string; option: number }
  /** An elicitation answered in its card (`accept` of a URL: the user agreed to open it). */
  | { type: 'elicitation'; sessionId: string; requestId: string; action: 'accept' | 'decline' | 'cancel'; values?: RawValues }
  | { type: 'setConfig'; sessionId: string; configId: string; value: string | boolean }
  | { type: 'removeQueued'; sessionId: string; id: string }
  | { type: 'openLocation'; path: string; line: number | null }
  | { type: 'openDiff'; sessionId: string; itemId: string; index: number; file: number }
  | { type: 'openLink'; href: string }
  | { type: 'mentionQuery'; reqId: number; query: string }
  | { type: 'loadEarlier'; sessionId: string; before: number; count: number }
  | { type: 'inspectResult'; reqId: number; snapshot: DomSnapshot }
  | { type: 'clearFilter' }
  /** A card waiting for the user is taller (`needed` px) than the transcript's visible area (`available` px). */
  | { type: 'cramped'; needed: number; available: number }
  | { type: 'error'; message: string };
