// One session's transcript: items in arrival order (indexed by id), display/client terminals and
// session-level state. Every event is applied synchronously in O(size of the event): chunks are
// pushed onto per-part arrays and never re-joined, items are found through a Map.
import type {
  ContentBlock, PermissionOutcome, PermissionRequest, SessionEvent, ToolCallFields,
} from '../../protocol/domain';
import { TerminalBuffer, type TerminalExitStatus } from '../terminalBuffer';
import type {
  MessageItem, MessagePart, PermissionItem, QueuedPrompt, Role, SessionMeta, ToolCallItem,
  TranscriptChange, TranscriptItem,
} from './model';

export interface SessionLimits {
  /** Items kept per session; past it the oldest tenth is dropped. */
  maxItems: number;
  /** Characters kept per terminal. */
  maxTerminalChars: number;
  /** Terminals kept per session. */
  maxTerminals: number;
}

type Fire = (c: TranscriptChange) => void;
type ChangeKind = 'add' | 'append' | 'upsert';

export class SessionTranscript {
  readonly meta: SessionMeta = {
    title: null, updatedAt: null, turnState: 'idle', stopReason: null, lastTurnUsage: null,
    usage: null, commands: [], configOptions: [], queued: [],
  };
  private list: TranscriptItem[] = [];
  /** Index in `list` of the first live item; the prefix is compacted lazily. */
  private head = 0;
  /** Absolute index of `list[head]`. */
  private base = 0;
  private readonly byId = new Map<string, number>();
  private readonly terminalMap = new Map<string, TerminalBuffer>();
  private seq = 0;
  /** Index of the first item of the current turn. */
  private turnStart = 0;

  constructor(readonly sessionId: string, private readonly limits: SessionLimits, private readonly fire: Fire) {}

  // ------------------------------------------------------------------ reading

  /** Absolute index of the oldest item held. */
  get firstIndex(): number { return this.base; }
  /** Absolute index one past the newest item. */
  get endIndex(): number { return this.base + this.list.length - this.head; }
  get size(): number { return this.list.length - this.head; }
  at(abs: number): TranscriptItem | undefined {
    return abs < this.base ? undefined : this.list[abs - this.base + this.head];
  }
  item(itemId: string): TranscriptItem | undefined {
    const abs = this.byId.get(itemId);
    return abs === undefined ? undefined : this.at(abs);
  }
  indexOf(itemId: string): number | undefined { return this.byId.get(itemId); }
  /** Items with absolute index in [from, to). */
  slice(from: number, to = this.endIndex): TranscriptItem[] {
    const a = Math.max(from, this.base) - this.base + this.head;
    const b = Math.max(to, this.base) - this.base + this.head;
    return this.list.slice(a, b);
  }
  get terminals(): ReadonlyMap<string, TerminalBuffer> { return this.terminalMap; }
  terminal(terminalId: string): TerminalBuffer | undefined { return this.terminalMap.get(terminalId); }

  // ------------------------------------------------------------------ events

  apply(e: SessionEvent): void {
    switch (e.kind) {
      case 'message_chunk': return this.messageChunk(e.role, e.messageId, e.content);
      case 'message': return this.messageUpsert(e.role, e.messageId, e.content, e._meta);
      case 'tool_call': return this.emit(this.upsertToolCall(e.toolCallId, e.fields));
      case 'tool_call_content_chunk': {
        const [tc, kind] = this.toolCall(e.toolCallId);
        tc.content.push(e.content);
        return this.emit([tc.itemId, kind === 'add' ? 'add' : 'append']);
      }
      case 'terminal_update': return this.terminalUpdate(e);
      case 'terminal_output_chunk': {
        const t = this.terminalFor(e.terminalId, 'display');
        const rev = t.rev;
        t.appendBase64(e.data);
        return this.fire({ sessionId: this.sessionId, kind: 'terminal', terminalId: e.terminalId, append: rev === t.rev });
      }
      case 'state': return this.turnState(e);
      case 'commands': this.meta.commands = e.commands; return this.metaChanged();
      case 'config_options': this.meta.configOptions = e.options; return this.metaChanged();
      case 'session_info':
        if (e.title !== undefined) this.meta.title = e.title;
        if (e.updatedAt !== undefined) this.meta.updatedAt = e.updatedAt;
        return this.metaChanged();
      case 'usage':
        this.meta.usage = { used: e.used, size: e.size, cost: e.cost ?? null };
        return this.metaChanged();
      case 'notice':
        return this.addItem({ kind: 'notice', itemId: this.nextId('n'), severity: e.severity, title: e.title, description: e.description ?? null });
      case 'unknown':
        return this.addItem({ kind: 'unknown', itemId: this.nextId('u'), updateType: e.updateType, raw: e.raw });
      case 'plan_update':
      case 'plan_removed':
        return; // plans live in the plan store
      default: {
        // A kind added to the event model later: keep it, shown generically.
        const other = e as { kind: string } & Record<string, unknown>;
        return this.addItem({ kind: 'unknown', itemId: this.nextId('u'), updateType: String(other.kind), raw: { ...other } });
      }
    }
  }

  // ------------------------------------------------------------------ client-side additions

  /** A prompt typed in this client (v1 agents do not echo it). Returns the item id. */
  addUserPrompt(blocks: ContentBlock[], messageId?: string): string {
    const id = messageId ?? `local-${++this.seq}`;
    const item = this.newMessage('user', id, true);
    item.parts = partsOf(blocks);
    this.addItem(item);
    return item.itemId;
  }

  addPermission(req: PermissionRequest, requestId: string, flags: string[]): string {
    const subject = req.subject ?? null;
    if (subject?.type === 'tool_call') this.emit(this.upsertToolCall(subject.toolCallId, subject.fields));
    const item: PermissionItem = {
      kind: 'permission', itemId: permissionItemId(requestId), requestId, title: req.title,
      description: req.description ?? null, subject, options: req.options, state: 'pending',
      optionId: null, flags: [...flags], _meta: req._meta,
    };
    const existing = this.item(item.itemId);
    if (existing) throw new Error(`permission request ${requestId} already exists`);
    this.addItem(item);
    return requestId;
  }

  /** Records the answer; false when the request is unknown or already answered. */
  resolvePermission(requestId: string, outcome: PermissionOutcome): boolean {
    const item = this.item(permissionItemId(requestId));
    if (!item || item.kind !== 'permission' || item.state !== 'pending') return false;
    if (outcome.outcome === 'selected') {
      item.state = 'selected';
      item.optionId = outcome.optionId;
    } else item.state = 'cancelled';
    this.emit([item.itemId, 'upsert']);
    return true;
  }

  setClientTerminalOutput(terminalId: string, text: string, exitStatus?: TerminalExitStatus | null): void {
    const t = this.terminalFor(terminalId, 'client');
    const rev = t.rev;
    t.setText(text);
    this.clientExit(t, rev, exitStatus);
  }

  appendClientTerminalOutput(terminalId: string, text: string, exitStatus?: TerminalExitStatus | null): void {
    const t = this.terminalFor(terminalId, 'client');
    const rev = t.rev;
    t.appendText(text);
    this.clientExit(t, rev, exitStatus);
  }

  setQueued(queued: QueuedPrompt[]): void {
    this.meta.queued = queued.map((q) => ({ id: q.id, text: q.text }));
    this.metaChanged();
  }

  clear(): void {
    this.list = [];
    this.head = 0;
    this.base = 0;
    this.byId.clear();
    this.terminalMap.clear();
    this.fire({ sessionId: this.sessionId, kind: 'reset' });
  }

  // ------------------------------------------------------------------ messages

  private messageChunk(role: Role, messageId: string, content: ContentBlock): void {
    const existing = this.item(messageItemId(role, messageId));
    if (existing?.kind === 'message') {
      appendPart(existing.parts, content);
      return this.emit([existing.itemId, 'append']);
    }
    const item = this.newMessage(role, messageId, false);
    appendPart(item.parts, content);
    this.addItem(item);
  }

  private messageUpsert(role: Role, messageId: string, content: ContentBlock[] | null | undefined, meta: MessageItem['_meta']): void {
    const existing = this.item(messageItemId(role, messageId));
    const item = existing?.kind === 'message' ? existing : this.newMessage(role, messageId, false);
    if (content !== undefined) {
      item.parts = partsOf(content ?? []);
      item.rev++;
    }
    if (meta !== undefined) item._meta = meta;
    if (existing) this.emit([item.itemId, 'upsert']);
    else this.addItem(item);
  }

  private newMessage(role: Role, messageId: string, local: boolean): MessageItem {
    return { kind: 'message', itemId: messageItemId(role, messageId), role, messageId, parts: [], rev: 0, local };
  }

  // ------------------------------------------------------------------ tool calls

  private toolCall(toolCallId: string): [ToolCallItem, 'add' | 'existing'] {
    const existing = this.item(toolCallItemId(toolCallId));
    if (existing?.kind === 'tool_call') return [existing, 'existing'];
    const tc: ToolCallItem = {
      kind: 'tool_call', itemId: toolCallItemId(toolCallId), toolCallId, name: null, title: null, toolKind: null,
      status: null, content: [], contentRev: 0, locations: [], rawInput: undefined, rawOutput: undefined,
    };
    this.insert(tc);
    return [tc, 'add'];
  }

  private upsertToolCall(toolCallId: string, f: ToolCallFields): [string, ChangeKind] {
    const [tc, created] = this.toolCall(toolCallId);
    if (f.name !== undefined) tc.name = f.name;
    if (f.title !== undefined) tc.title = f.title;
    if (f.kind !== undefined) tc.toolKind = f.kind;
    if (f.status !== undefined) { tc.status = f.status; tc.unfinished = false; }
    if (f.content !== undefined) { tc.content = f.content ? [...f.content] : []; tc.contentRev++; }
    if (f.locations !== undefined) tc.locations = f.locations ? [...f.locations] : [];
    if (f.rawInput !== undefined) tc.rawInput = f.rawInput;
    if (f.rawOutput !== undefined) tc.rawOutput = f.rawOutput;
    if (f._meta !== undefined) tc._meta = f._meta;
    return [tc.itemId, created === 'add' ? 'add' : 'upsert'];
  }

  // ------------------------------------------------------------------ terminals, turn state

  private terminalUpdate(e: Extract<SessionEvent, { kind: 'terminal_update' }>): void {
    const t = this.terminalFor(e.terminalId, 'display');
    if (e.command !== undefined) t.command = e.command;
    if (e.cwd !== undefined) t.cwd = e.cwd;
    if (e.output !== undefined) t.replaceBase64(e.output ?? '');
    if (e.exitStatus !== undefined) {
      t.exitStatus = e.exitStatus;
      if (e.exitStatus) t.finish();
    }
    this.fire({ sessionId: this.sessionId, kind: 'terminal', terminalId: e.terminalId, append: false });
  }

  private terminalFor(terminalId: string, origin: 'display' | 'client'): TerminalBuffer {
    let t = this.terminalMap.get(terminalId);
    if (!t) {
      t = new TerminalBuffer(terminalId, origin, this.limits.maxTerminalChars);
      this.terminalMap.set(terminalId, t);
      if (this.terminalMap.size > this.limits.maxTerminals) {
        const oldest = this.terminalMap.keys().next().value;
        if (oldest !== undefined) this.terminalMap.delete(oldest);
      }
    }
    return t;
  }

  private clientExit(t: TerminalBuffer, rev: number, exitStatus: TerminalExitStatus | null | undefined): void {
    if (exitStatus !== undefined) {
      t.exitStatus = exitStatus;
      if (exitStatus) t.finish();
    }
    this.fire({ sessionId: this.sessionId, kind: 'terminal', terminalId: t.terminalId, append: rev === t.rev && exitStatus === undefined });
  }

  private turnState(e: Extract<SessionEvent, { kind: 'state' }>): void {
    const wasIdle = this.meta.turnState === 'idle';
    this.meta.turnState = e.state;
    if (e.usage) this.meta.lastTurnUsage = e.usage;
    if (e.state === 'idle' && e.stopReason) {
      this.meta.stopReason = e.stopReason;
      // A repeated idle (a snapshot) is not a new completion.
      if (!wasIdle) {
        this.markUnfinishedTools();
        this.addItem({ kind: 'turn_end', itemId: this.nextId('s'), stopReason: e.stopReason, error: e.error ?? null, usage: e.usage ?? null });
      }
    } else if (e.state !== 'idle') {
      this.meta.stopReason = null;
      if (wasIdle) this.turnStart = this.endIndex;
    }
    this.metaChanged();
  }

  /** Tool calls of the ending turn that the agent left pending or in progress are shown as unfinished. */
  private markUnfinishedTools(): void {
    for (let i = Math.max(this.turnStart, this.firstIndex); i < this.endIndex; i++) {
      const item = this.at(i);
      if (item?.kind !== 'tool_call' || item.unfinished) continue;
      if (item.status === null || item.status === 'pending' || item.status === 'in_progress') {
        item.unfinished = true;
        this.emit([item.itemId, 'upsert']);
      }
    }
  }

  // ------------------------------------------------------------------ plumbing

  private nextId(prefix: string): string { return `${prefix}:${++this.seq}`; }

  private addItem(item: TranscriptItem): void {
    this.insert(item);
    this.emit([item.itemId, 'add']);
  }

  private insert(item: TranscriptItem): void {
    this.byId.set(item.itemId, this.endIndex);
    this.list.push(item);
    if (this.size > this.limits.maxItems) this.dropOldest();
  }

  private dropOldest(): void {
    const n = Math.max(1, Math.ceil(this.limits.maxItems / 10));
    for (let i = 0; i < n && this.size > 0; i++) {
      this.byId.delete(this.list[this.head].itemId);
      this.head++;
      this.base++;
    }
    if (this.head * 2 > this.list.length) {
      this.list = this.list.slice(this.head);
      this.head = 0;
    }
  }

  private emit([itemId, kind]: [string, ChangeKind]): void {
    this.fire({ sessionId: this.sessionId, kind, itemId });
  }

  private metaChanged(): void {
    this.fire({ sessionId: this.sessionId, kind: 'session' });
  }
}

export const messageItemId = (role: Role, messageId: string): string => `m:${role}:${messageId}`;
export const toolCallItemId = (toolCallId: string): string => `t:${toolCallId}`;
export const permissionItemId = (requestId: string): string => `p:${requestId}`;

function appendPart(parts: MessagePart[], block: ContentBlock): void {
  if (block.type === 'text') {
    const last = parts[parts.length - 1];
    if (last?.type === 'text') {
      last.chunks.push(block.text);
      last.length += block.text.length;
    } else parts.push({ type: 'text', chunks: [block.text], length: block.text.length });
    return;
  }
  parts.push({ type: 'block', block });
}

function partsOf(blocks: ContentBlock[]): MessagePart[] {
  const parts: MessagePart[] = [];
  for (const b of blocks) appendPart(parts, b);
  return parts;
}
