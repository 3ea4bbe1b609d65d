// One session's transcript: items in arrival order, display/client terminals and session-level
// state. Every event is applied synchronously in O(size of the event), within the size limits of
// `limits.ts` (what a limit drops is counted on the item, see `Truncation`).
//
// `apply` switches over every SessionEvent kind: adding a kind to the domain model makes the
// compiler point here until it is handled (or listed with the kinds this store ignores).
import type { ContentBlock, JsonObject, PermissionOutcome, PermissionRequest, SessionEvent } from '../../protocol/domain';
import { MODE_SWITCH_KIND } from '../../protocol/domain';
import { TerminalBuffer, type TerminalExitStatus } from '../terminalBuffer';
import { elicitationItemId, messageItemId, permissionItemId, toolCallItemId } from './ids';
import { ItemList } from './itemList';
import { newPermission } from './permissions';
import type { SessionLimits } from './limits';
import { appendBlock, newMessage, replaceParts, setMessageMeta } from './messages';
import { applyCompaction, newNotice } from './infoItems';
import type { ElicitationItem, MessageItem, Role, SessionMeta, ToolCallItem, TranscriptChange, TranscriptItem, UnknownItem } from './model';
import { approxSize, cutText, keepRaw, noteDrop } from './size';
import { appendToolContent, applyToolFields, MAX_LABEL_CHARS, newToolCall, toolCallSize } from './toolCalls';
import { SteerEchoes } from './steerEcho';

export type { SessionLimits } from './limits';
export { MODE_SWITCH_KIND };
export { planInInput } from './permissions';
type Fire = (c: TranscriptChange) => void;
type MessageEvent = Extract<SessionEvent, { kind: 'message' }>;
/** A whole-message upsert: an agent message, or an inter-session one (role `session`). */
type MessageUpsert = Pick<MessageEvent, 'messageId' | '_meta' | 'steered'> & { role: Role; content?: MessageEvent['content'] };
type ChangeKind = 'add' | 'append' | 'upsert';
export class SessionTranscript {
  /** What the transcript shows besides items; turn state, title, config options and the prompt queue are the SessionStore's. */
  readonly meta: SessionMeta = { lastTurnUsage: null, usage: null, commands: [] };
  /** The agent last said a turn runs (to tell a completed turn from a repeated idle). */
  private turnRunning = false;
  private readonly items: ItemList;
  private readonly terminalMap = new Map<string, TerminalBuffer>();
  private seq = 0;
  /** Index of the first item of the current turn. */
  private turnStart = 0;
  /** The text of the last Markdown plan the agent sent (shown beside a plan-mode approval). */
  private lastMarkdownPlan: string | undefined;
  /** An agent's own copy of a steered message is folded into the one shown (steerEcho.ts). */
  private readonly echoes = new SteerEchoes(this);

  constructor(
    readonly sessionId: string,
    private readonly limits: SessionLimits,
    private readonly fire: Fire,
    meter?: (delta: number) => void,
  ) {
    this.items = new ItemList({ maxItems: limits.maxItems, maxChars: limits.maxSessionChars }, meter);
  }

  // ------------------------------------------------------------------ reading

  /** Absolute index of the oldest item held. */
  get firstIndex(): number {
    return this.items.firstIndex;
  }
  /** Absolute index one past the newest item. */
  get endIndex(): number {
    return this.items.endIndex;
  }
  get size(): number {
    return this.items.size;
  }
  /** Characters counted for the items held (bounded by `maxSessionChars`). */
  get chars(): number {
    return this.items.chars;
  }
  /** For the agent's memory budget: drops the oldest items (never the newest) until `chars` are freed. */
  cutOldest(chars: number): number {
    return this.items.cutOldest(chars);
  }
  at(abs: number): TranscriptItem | undefined {
    return this.items.at(abs);
  }
  item(itemId: string): TranscriptItem | undefined {
    return this.items.item(itemId);
  }
  indexOf(itemId: string): number | undefined {
    return this.items.indexOf(itemId);
  }
  /** Items with absolute index in [from, to). */
  slice(from: number, to = this.endIndex): TranscriptItem[] {
    return this.items.slice(from, to);
  }
  get terminals(): ReadonlyMap<string, TerminalBuffer> {
    return this.terminalMap;
  }
  terminal(terminalId: string): TerminalBuffer | undefined {
    return this.terminalMap.get(terminalId);
  }

  // ------------------------------------------------------------------ events

  apply(e: SessionEvent): void {
    if (this.echoes.fold(e)) return;
    switch (e.kind) {
      case 'message_chunk':
        return this.messageChunk(e.role, e.messageId, e.content);
      case 'message':
        return this.messageUpsert(e);
      case 'session_message_chunk':
        return this.messageChunk('session', e.messageId, e.content);
      case 'session_message':
        return this.sessionMessage(e);
      case 'tool_call':
        return this.emit(this.upsertToolCall(e.toolCallId, (tc) => applyToolFields(tc, e.fields, this.limits)));
      case 'tool_call_content_chunk':
        return this.emit(
          this.upsertToolCall(e.toolCallId, (tc) => {
            appendToolContent(tc, e.content, this.limits);
          }),
          'append',
        );
      case 'terminal_update':
        return this.terminalUpdate(e);
      case 'terminal_output_chunk': {
        const t = this.terminalFor(e.terminalId, 'display');
        const rev = t.rev;
        t.appendBase64(e.data);
        return this.fire({ sessionId: this.sessionId, kind: 'terminal', terminalId: e.terminalId, append: rev === t.rev });
      }
      case 'state':
        return this.turnState(e);
      case 'commands':
        this.meta.commands = e.commands;
        return this.metaChanged();
      // Session state owned by the SessionStore.
      case 'config_options':
      case 'session_info':
      case 'subagent':
        return;
      // A replay boundary: the supervisor's concern, nothing to show.
      case 'replay_complete':
        return;
      case 'usage':
        this.meta.usage = { used: e.used, size: e.size, cost: e.cost ?? null };
        return this.metaChanged();
      case 'notice': {
        const n = newNotice(e, this.nextId('n'), this.limits);
        return this.addItem(n.item, n.size);
      }
      // Never a turn boundary: plans, steps and the turn's items stay as they are.
      case 'compaction':
      case 'compaction_chunk': {
        const change = applyCompaction(this.items, e, this.limits);
        return change && this.emit(change);
      }
      case 'unknown':
        return this.addUnknown(e.updateType, e.raw, e.problem);
      // Plans live in the plan store; the last Markdown one is kept to show with a plan-mode approval.
      case 'plan_update':
        if (e.plan.type === 'markdown') this.lastMarkdownPlan = e.plan.content;
        return;
      case 'plan_removed':
        return;
      default:
        // Unreachable for the compiler; at run time a kind it does not know is kept and shown raw.
        return this.addUnknown(String((e satisfies never as { kind: unknown }).kind), { ...(e as JsonObject) });
    }
  }

  // ------------------------------------------------------------------ client-side additions

  /** A prompt typed in this client (v1 agents do not echo it). Returns the item id. */
  addUserPrompt(blocks: ContentBlock[], messageId?: string): string {
    const item = newMessage('user', messageId ?? `local-${++this.seq}`, true);
    this.addItem(item, replaceParts(item, blocks, this.limits.maxMessageChars, 0));
    return item.itemId;
  }

  /** Shows a permission request, pending (its `tool_call` subject is applied to the tool call first). */
  addPermission(req: PermissionRequest, requestId: string, flags: string[]): string {
    const subject = req.subject ?? null;
    if (subject?.type === 'tool_call') this.emit(this.upsertToolCall(subject.toolCallId, (tc) => applyToolFields(tc, subject.fields, this.limits)));
    const tc = subject?.type === 'tool_call' ? this.item(toolCallItemId(subject.toolCallId)) : undefined;
    const item = newPermission(req, requestId, flags, tc, this.limits, this.lastMarkdownPlan);
    if (this.item(item.itemId)) throw new Error(`permission request ${requestId} already exists`);
    this.addItem(item, approxSize(item, this.limits.maxMessageChars));
    return requestId;
  }

  /** Records the answer; false when the request is unknown or already answered. */
  resolvePermission(requestId: string, outcome: PermissionOutcome): boolean {
    const item = this.item(permissionItemId(requestId));
    if (item?.kind !== 'permission' || item.state !== 'pending') return false;
    if (outcome.outcome === 'selected') {
      item.state = 'selected';
      item.optionId = outcome.optionId;
    } else item.state = 'cancelled';
    this.emit([item.itemId, 'upsert']);
    return true;
  }

  /**
   * Shows an elicitation. Its form fields are bounded by the decoder; the raw request of an unknown
   * or unusable one (rejected perhaps for its size) is kept only within the raw limit.
   */
  addElicitation(item: Omit<ElicitationItem, 'kind' | 'itemId'>): string {
    const raw = keepRaw(item.raw, this.limits.maxRawChars).value ?? null;
    const full: ElicitationItem = { kind: 'elicitation', itemId: elicitationItemId(item.requestId), ...item, raw };
    if (this.item(full.itemId)) throw new Error(`elicitation ${item.requestId} already exists`);
    this.addItem(full, approxSize(full, this.limits.maxMessageChars));
    return full.itemId;
  }

  /** Changes an elicitation's state (pending → pending shows it again with a note); false when unknown, or when it already ended and `state` is not `completed`. */
  updateElicitation(requestId: string, state: ElicitationItem['state'], note: string | null, answer?: string[]): boolean {
    const item = this.item(elicitationItemId(requestId));
    if (item?.kind !== 'elicitation' || (item.state !== 'pending' && state !== 'completed')) return false;
    item.state = state;
    item.note = note;
    if (answer) item.answer = answer;
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

  clear(): void {
    this.items.clear();
    this.terminalMap.clear();
    this.fire({ sessionId: this.sessionId, kind: 'reset' });
  }

  // ------------------------------------------------------------------ messages

  private messageChunk(role: Role, messageId: string, content: ContentBlock): void {
    const existing = this.item(messageItemId(role, messageId));
    const m = existing?.kind === 'message' ? existing : newMessage(role, messageId, false);
    if (role === 'session') m.route ??= { from: null, to: null };
    const used = existing ? this.items.sizeOf(m.itemId) : 0;
    const r = appendBlock(m, used, content, this.limits.maxMessageChars);
    if (!existing) return this.addItem(m, r.size);
    this.items.resize(m.itemId, r.size);
    if (r.newlyTruncated) {
      // Shown again whole once, with its truncation note; later dropped chunks change nothing shown.
      m.rev++;
      return this.emit([m.itemId, 'upsert']);
    }
    if (r.appended) this.emit([m.itemId, 'append']);
  }

  private messageUpsert(e: MessageUpsert, route?: MessageItem['route']): void {
    const existing = this.item(messageItemId(e.role, e.messageId));
    const m: MessageItem = existing?.kind === 'message' ? existing : newMessage(e.role, e.messageId, false);
    if (route) m.route = route;
    if (e.steered) m.steered = true;
    const { maxMessageChars: limit, maxRawChars } = this.limits;
    const oldMeta = keepRaw(m._meta, maxRawChars).size;
    const metaSize = e._meta !== undefined ? setMessageMeta(m, e._meta, maxRawChars, limit) : oldMeta;
    let size = (existing ? this.items.sizeOf(m.itemId) : 0) - oldMeta + metaSize;
    if (e.content !== undefined) {
      size = replaceParts(m, e.content ?? [], limit, metaSize);
      if (m._meta === undefined && e._meta !== undefined) m.truncated = noteDrop(m.truncated, limit, { field: '_meta' });
      m.rev++;
    }
    if (!existing) return this.addItem(m, size);
    this.items.resize(m.itemId, size);
    this.emit([m.itemId, 'upsert']);
  }

  /** An inter-session message: a `session` message whose route (sender, recipient) follows patch semantics. */
  private sessionMessage(e: Extract<SessionEvent, { kind: 'session_message' }>): void {
    const existing = this.item(messageItemId('session', e.messageId));
    const route = existing?.kind === 'message' && existing.route ? { ...existing.route } : { from: null, to: null };
    if (e.senderSessionId !== undefined) route.from = e.senderSessionId === null ? null : cutText(e.senderSessionId, MAX_LABEL_CHARS);
    if (e.recipientSessionId !== undefined) route.to = e.recipientSessionId === null ? null : cutText(e.recipientSessionId, MAX_LABEL_CHARS);
    const upsert: MessageUpsert = { role: 'session', messageId: e.messageId };
    if (e._meta !== undefined) upsert._meta = e._meta;
    if (e.content !== undefined) upsert.content = e.content;
    this.messageUpsert(upsert, route);
  }

  // ------------------------------------------------------------------ tool calls, unknown updates

  /** Finds or creates the tool call, changes it, and recounts its size. */
  private upsertToolCall(toolCallId: string, change: (tc: ToolCallItem) => void): [string, ChangeKind] {
    const existing = this.item(toolCallItemId(toolCallId));
    const tc = existing?.kind === 'tool_call' ? existing : newToolCall(toolCallId);
    change(tc);
    if (!existing) {
      this.items.push(tc, toolCallSize(tc));
      return [tc.itemId, 'add'];
    }
    this.items.resize(tc.itemId, toolCallSize(tc));
    return [tc.itemId, 'upsert'];
  }

  private addUnknown(updateType: string, raw: JsonObject, problem?: string): void {
    const kept = keepRaw(raw, this.limits.maxRawChars);
    const item: UnknownItem = { kind: 'unknown', itemId: this.nextId('u'), updateType: cutText(updateType, MAX_LABEL_CHARS), raw: kept.value ?? {} };
    if (problem !== undefined) item.problem = cutText(problem, MAX_LABEL_CHARS);
    if (!kept.value) Object.assign(item, { truncated: noteDrop(undefined, this.limits.maxRawChars, { field: 'raw' }) });
    this.addItem(item, kept.size + item.updateType.length + (item.problem?.length ?? 0));
  }

  // ------------------------------------------------------------------ terminals, turn state

  private terminalUpdate(e: Extract<SessionEvent, { kind: 'terminal_update' }>): void {
    const t = this.terminalFor(e.terminalId, 'display');
    if (e.command !== undefined) t.command = e.command === null ? null : cutText(e.command, this.limits.maxMessageChars);
    if (e.cwd !== undefined) t.cwd = e.cwd === null ? null : cutText(e.cwd, MAX_LABEL_CHARS);
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
    const wasIdle = !this.turnRunning;
    this.turnRunning = e.state !== 'idle';
    if (e.usage) this.meta.lastTurnUsage = e.usage;
    if (e.state === 'idle' && e.stopReason) {
      // A repeated idle (a snapshot) is not a new completion.
      if (!wasIdle) {
        this.markUnfinishedTools(e.background);
        const error = e.error ? { ...e.error, message: cutText(e.error.message, MAX_LABEL_CHARS) } : null;
        this.addItem(
          { kind: 'turn_end', itemId: this.nextId('s'), stopReason: cutText(e.stopReason, 100), error, usage: e.usage ?? null },
          100 + (error?.message.length ?? 0),
        );
      }
    } else if (e.state !== 'idle' && wasIdle) {
      this.turnStart = this.endIndex;
    }
    if (e.usage) this.metaChanged();
  }

  /** Tool calls of the ending turn that the agent left pending or in progress are shown as unfinished. */
  private markUnfinishedTools(background: Extract<SessionEvent, { kind: 'state' }>['background']): void {
    // Work the agent lists as running on in the background is not unfinished.
    const running = new Set((background ?? []).flatMap((b) => (b.type === 'tool_call' ? [b.toolCallId] : [])));
    for (let i = Math.max(this.turnStart, this.firstIndex); i < this.endIndex; i++) {
      const item = this.at(i);
      if (item?.kind !== 'tool_call' || item.unfinished || running.has(item.toolCallId)) continue;
      if (item.status === null || item.status === 'pending' || item.status === 'in_progress') {
        item.unfinished = true;
        this.emit([item.itemId, 'upsert']);
      }
    }
  }

  // ------------------------------------------------------------------ plumbing

  private nextId(prefix: string): string {
    return `${prefix}:${++this.seq}`;
  }

  private addItem(item: TranscriptItem, size: number): void {
    this.items.push(item, size);
    this.emit([item.itemId, 'add']);
  }

  /** Fires the change; `asChange` replaces an `upsert` (an append to an existing item). */
  private emit([itemId, kind]: [string, ChangeKind], asChange?: ChangeKind): void {
    this.fire({ sessionId: this.sessionId, kind: kind === 'upsert' && asChange ? asChange : kind, itemId });
  }

  private metaChanged(): void {
    this.fire({ sessionId: this.sessionId, kind: 'session' });
  }
}
