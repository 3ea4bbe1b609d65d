// The transcript store: per session, the conversation (messages, thoughts, tool calls, inline
// permission prompts, notices, unknown updates, turn ends), display and client terminals, and
// session-level state (turn state, commands, config options, usage, queued prompts).
//
// Events are applied synchronously, in arrival order, each in O(size of the event). Every change
// fires `onDidChange` with the item (or terminal) that changed, so views patch incrementally.
//
// Sessions are kept under a key the owner chooses (the `sessionId` of every method and change):
// the extension uses `sessionKey(agentId, sessionId)`, so two agents' sessions never mix; by
// default an event's own sessionId is its key (one agent, as in tests).
//
// With an `AgentBudget`, every session's item sizes (characters, counted as bytes) are charged to
// its agent (`agentOf(key)`); over the budget the oldest items of the agent's least recently active
// sessions are cut (each session keeps its newest item), after the oldest plans and revisions.
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { Event } from '../../protocol/api';
import type { ContentBlock, PermissionOutcome, PermissionRequest, SessionEvent } from '../../protocol/domain';
import type { TerminalExitStatus } from '../terminalBuffer';
import { ReclaimStage, type AgentBudget } from '../agentBudget';
import { Emitter } from '../emitter';
import { Recency } from '../recency';
import { parseSessionKey } from '../sessionStore';
import type { ElicitationItem, TranscriptChange } from './model';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './limits';
import { SessionTranscript } from './session';

export interface TranscriptOptions extends Partial<SessionLimits> {
  /** Called when a change listener throws (the store goes on). */
  onListenerError?: (err: unknown) => void;
  /** The memory budget each agent's sessions are charged to. */
  budget?: AgentBudget;
  /** The agent and session of a key (default: `parseSessionKey`, else agent '' and the key as the session id). */
  agentOf?: (key: string) => { agentId: string; sessionId: string } | undefined;
}

export class Transcript extends Disposable {
  private readonly sessionMap = new Map<string, SessionTranscript>();
  private readonly changes: Emitter<TranscriptChange>;
  private readonly limits: SessionLimits;
  private requestSeq = 0;
  private readonly budget: AgentBudget | undefined;
  private readonly agentOf: (key: string) => { agentId: string; sessionId: string };
  /** Each agent's sessions, least recently active first (for its budget). */
  private readonly recent = new Map<string, Recency<SessionTranscript>>();
  /** Each session's agent's set in `recent` and the agent (one lookup per event). */
  private readonly agentSet = new Map<SessionTranscript, { agentId: string; set: Recency<SessionTranscript> }>();

  /** Fires synchronously after each change, with the session and the item/terminal changed. */
  readonly onDidChange: Event<TranscriptChange>;

  constructor(options: TranscriptOptions = {}) {
    super();
    this._register(toDisposable(() => this.sessionMap.clear()));
    this.changes = this._register(new Emitter<TranscriptChange>(options.onListenerError));
    this.onDidChange = this.changes.event;
    const { onListenerError: _, budget, agentOf, ...limits } = options;
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...definedOnly(limits) };
    this.budget = budget;
    this.agentOf = (key) => agentOf?.(key) ?? parseSessionKey(key) ?? { agentId: '', sessionId: key };
    budget?.addReclaimer(ReclaimStage.Transcript, (agentId, bytes) => this.cutOldest(agentId, bytes));
  }

  /** Applies one session event to the session under `key` (created on first use). */
  apply(e: SessionEvent, key: string = e.sessionId): void {
    const s = this.sessionFor(key);
    if (this.budget) this.touch(s);
    s.apply(e);
  }

  session(sessionId: string): SessionTranscript | undefined {
    return this.sessionMap.get(sessionId);
  }
  /** The session, created empty when missing. */
  sessionFor(sessionId: string): SessionTranscript {
    let s = this.sessionMap.get(sessionId);
    if (!s) {
      const budget = this.budget;
      const ref = budget && this.agentOf(sessionId);
      const meter = ref && ((delta: number) => budget.charge(ref.agentId, delta, ref.sessionId));
      s = new SessionTranscript(sessionId, this.limits, (c) => this.changes.fire(c), meter);
      this.sessionMap.set(sessionId, s);
      if (ref) {
        let set = this.recent.get(ref.agentId);
        if (!set) this.recent.set(ref.agentId, (set = new Recency()));
        this.agentSet.set(s, { agentId: ref.agentId, set });
        set.touch(s);
      }
    }
    return s;
  }
  sessionIds(): string[] {
    return [...this.sessionMap.keys()];
  }

  /** Forgets a session (closed or deleted); views showing it get a `reset`. */
  removeSession(sessionId: string): void {
    const s = this.sessionMap.get(sessionId);
    if (!s) return;
    this.sessionMap.delete(sessionId);
    const a = this.agentSet.get(s);
    if (a) {
      this.agentSet.delete(s);
      a.set.delete(s);
      this.budget?.charge(a.agentId, -s.chars);
    }
    this.changes.fire({ sessionId, kind: 'reset' });
  }

  /** The session is now its agent's most recently active one. */
  private touch(s: SessionTranscript): void {
    this.agentSet.get(s)?.set.touch(s);
  }

  /** Budget: the oldest items of the agent's least recently active sessions are cut (each keeps its newest). */
  private cutOldest(agentId: string, chars: number): string | undefined {
    const set = this.recent.get(agentId);
    let freed = 0;
    for (const s of set ?? []) {
      if (freed >= chars) break;
      freed += s.cutOldest(chars - freed);
      // Nothing more to cut there until it gets a new item (it is then the most recent again).
      if (s.size <= 1) set!.delete(s);
    }
    return freed > 0 ? 'conversation items' : undefined;
  }

  /** Shows a prompt typed in this client (use for v1 agents, which do not echo it). Returns the item id. */
  addUserPrompt(sessionId: string, blocks: ContentBlock[], messageId?: string): string {
    return this.sessionFor(sessionId).addUserPrompt(blocks, messageId);
  }

  /**
   * Shows a permission request inline, pending. Returns its request id (given or generated).
   * A `tool_call` subject is applied to the tool call first, like a tool call update.
   */
  addPermissionRequest(req: PermissionRequest, opts: { requestId?: string; flags?: string[]; key?: string } = {}): string {
    const requestId = opts.requestId ?? `perm-${++this.requestSeq}`;
    return this.sessionFor(opts.key ?? req.sessionId).addPermission(req, requestId, opts.flags ?? []);
  }

  /** Records the answer to a pending request; false when unknown or already answered. */
  resolvePermission(sessionId: string, requestId: string, outcome: PermissionOutcome): boolean {
    return this.session(sessionId)?.resolvePermission(requestId, outcome) ?? false;
  }

  /** Shows an elicitation in a session's conversation. */
  addElicitation(key: string, item: Omit<ElicitationItem, 'kind' | 'itemId'>): string {
    return this.sessionFor(key).addElicitation(item);
  }

  /** Records how an elicitation ended (answered, cancelled, completed by the agent). */
  updateElicitation(key: string, requestId: string, state: ElicitationItem['state'], note: string | null, answer?: string[]): boolean {
    return this.session(key)?.updateElicitation(requestId, state, note, answer) ?? false;
  }

  /**
   * Output of a v1 client terminal (`terminal/create`), pushed by the terminal service: the whole
   * output so far (a growing text is appended, anything else replaces). `exitStatus` when it exited.
   */
  setClientTerminalOutput(sessionId: string, terminalId: string, text: string, exitStatus?: TerminalExitStatus | null): void {
    this.sessionFor(sessionId).setClientTerminalOutput(terminalId, text, exitStatus);
  }

  /** Appends output of a v1 client terminal. */
  appendClientTerminalOutput(sessionId: string, terminalId: string, text: string, exitStatus?: TerminalExitStatus | null): void {
    this.sessionFor(sessionId).appendClientTerminalOutput(terminalId, text, exitStatus);
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
