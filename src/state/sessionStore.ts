// The one owner of agent and session state: each agent's status, each session's turn state,
// queued prompts, config options, pending permission requests and parent (child sessions).
// Fed by the composition root with the supervisors' lifecycle (status, sessions attached and
// detached), the agents' session events (`state`, `session_info`, `config_options`), the prompt
// queue and the permission broker; views only read it. Every change fires onDidChange
// synchronously, naming what changed; an identical write fires nothing.
import { Disposable } from '../common/lifecycle';
import type { AgentStatus, Event } from '../protocol/api';
import type { BackgroundWork, ConfigOption, ContentBlock, PermissionRequest, ProtocolVersion, SessionEvent, TurnState } from '../protocol/domain';
import type { AgentBudget } from './agentBudget';
import { Emitter } from './emitter';
import { applyControls, applySubagent, ChildCaps, keptBackground, type Controls, type SubagentInfo } from './subagentState';
import { jsonClone, sameJson } from './json';
import type { QueueNote } from './queueNote';

export type { AgentStatus };
export { MAX_CHILDREN_PER_AGENT, MAX_CHILDREN_PER_SESSION } from './subagentState';

export interface AgentState {
  readonly id: string;
  readonly name: string;
  readonly status: AgentStatus;
  readonly protocolVersion?: ProtocolVersion;
  /** Person-readable text shown next to the status (e.g. why it stopped). */
  readonly detail?: string;
}

export interface QueuedPrompt {
  readonly id: string;
  readonly blocks: readonly ContentBlock[];
  /** One line for the view ("Run the tests @app.ts"). */
  readonly text: string;
  /** Why it waits although the user asked to steer it into the turn. */
  readonly note?: QueueNote;
}

/** A permission request waiting for the user (answered through the permission broker). */
export interface PendingPermission {
  readonly id: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly request: PermissionRequest;
  /** Markers shown with the request, e.g. `not_in_plan`. */
  readonly flags: readonly string[];
  readonly createdAt: number;
}

export interface SessionState {
  readonly agentId: string;
  readonly sessionId: string;
  readonly title?: string;
  readonly cwd?: string;
  /** Attached to a running agent process (false once the agent stopped or could not resume it). */
  readonly live: boolean;
  /** It cannot continue (its agent could not resume it): read-only until the user resumes it. */
  readonly ended?: SessionEnd;
  readonly turnState: TurnState;
  readonly stopReason?: string;
  readonly error?: { code: number; message: string };
  /** The agent's `session_info.updatedAt`, verbatim. */
  readonly updatedAt?: string;
  readonly queued: readonly QueuedPrompt[];
  readonly configOptions: readonly ConfigOption[];
  readonly pendingPermissions: readonly PendingPermission[];
  /** Elicitations (forms, links) of this session waiting for the user; absent means none. */
  readonly pendingElicitations?: number;
  /** Set for a child session (a subagent) of another session of the same agent. */
  readonly parentSessionId?: string;
  /** For a child session: what its parent told about it (`subagent_update`). */
  readonly subagent?: SubagentInfo;
  /** The last `background` snapshot: work that runs on after the turn (undefined: not reported). */
  readonly background?: readonly BackgroundWork[];
  /** Terminals and tool calls the agent currently lets the client cancel. */
  readonly controls?: Controls;
}

/** Why a session cannot continue (views say it in words). */
export type SessionEnd = 'not_resumed' | 'cannot_resume';
export interface SessionKey {
  readonly agentId: string;
  readonly sessionId: string;
}

/** One string for (agent, session), for maps and views keyed by a string (the transcript, the conversation). */
export function sessionKey(agentId: string, sessionId: string): string {
  return `${agentId}\u0000${sessionId}`;
}

/** The (agent, session) of a `sessionKey`; undefined for any other string. */
export function parseSessionKey(key: string): SessionKey | undefined {
  const i = key.indexOf('\u0000');
  return i < 0 ? undefined : { agentId: key.slice(0, i), sessionId: key.slice(i + 1) };
}

/** An argument that names a session (a command's `{agentId, sessionId}`). */
export function isSessionKey(x: unknown): x is SessionKey {
  return !!x && typeof (x as SessionKey).agentId === 'string' && typeof (x as SessionKey).sessionId === 'string';
}

export type StoreChange =
  | { scope: 'agent'; kind: 'added' | 'updated' | 'removed'; agentId: string }
  | { scope: 'session'; kind: 'added' | 'updated' | 'removed'; agentId: string; sessionId: string }
  | { scope: 'active'; previous?: SessionKey; current?: SessionKey };

export interface StoreSnapshot {
  agents: AgentState[];
  sessions: SessionState[];
  activeSession?: SessionKey;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export interface SessionStoreOptions {
  /** Told once per agent when a child announcement is ignored for a cap. */
  budget?: AgentBudget;
  maxChildrenPerSession?: number;
  maxChildrenPerAgent?: number;
}

export class SessionStore extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<StoreChange>());
  readonly onDidChange: Event<StoreChange> = this._onDidChange.event;

  private readonly _agents = new Map<string, AgentState>();
  /** agentId → sessionId → state (insertion order kept). */
  private readonly _sessions = new Map<string, Map<string, SessionState>>();
  private _active: SessionKey | undefined;
  private queueSeq = 0;
  /** Children (subagents) kept per parent session and per agent. */
  private readonly childCaps: ChildCaps;

  constructor(private readonly options: SessionStoreOptions = {}) {
    super();
    this.childCaps = new ChildCaps(options.maxChildrenPerSession, options.maxChildrenPerAgent);
  }

  // ------------------------------------------------------------------ agents

  /** Adds or updates an agent; `detail` replaces the previous one (omit it to clear). */
  setAgent(a: { id: string; name: string; status: AgentStatus; protocolVersion?: ProtocolVersion; detail?: string }): void {
    const prev = this._agents.get(a.id);
    const next: Mutable<AgentState> = { id: a.id, name: a.name, status: a.status };
    const version = a.protocolVersion ?? prev?.protocolVersion;
    if (version !== undefined) next.protocolVersion = version;
    if (a.detail !== undefined) next.detail = a.detail;
    if (prev && sameJson(prev, next)) return;
    this._agents.set(a.id, next);
    this._onDidChange.fire({ scope: 'agent', kind: prev ? 'updated' : 'added', agentId: a.id });
  }

  /** Removes the agent and its sessions (their plans stay in the plan store). */
  removeAgent(agentId: string): void {
    for (const sessionId of [...(this._sessions.get(agentId)?.keys() ?? [])]) this.removeSession(agentId, sessionId);
    this._sessions.delete(agentId);
    if (this._agents.delete(agentId)) this._onDidChange.fire({ scope: 'agent', kind: 'removed', agentId });
  }

  agent(agentId: string): AgentState | undefined {
    return this._agents.get(agentId);
  }
  agents(): AgentState[] {
    return [...this._agents.values()];
  }

  // ------------------------------------------------------------------ sessions

  /** A session opened or resumed on a running agent: added, or marked live again. */
  attachSession(agentId: string, sessionId: string, info: { cwd?: string; title?: string; parentSessionId?: string } = {}): void {
    const byId = this.sessionMap(agentId);
    const prev = byId.get(sessionId);
    const next: Mutable<SessionState> = { ...(prev ?? emptySession(agentId, sessionId)), live: true };
    delete next.ended;
    if (info.cwd !== undefined) next.cwd = info.cwd;
    if (info.title !== undefined) next.title = info.title;
    if (info.parentSessionId !== undefined) next.parentSessionId = info.parentSessionId;
    this.put(byId, prev, next);
  }

  /** A session kept from an earlier run (restored history): shown, not served by any agent. */
  addStoredSession(agentId: string, sessionId: string, info: { cwd?: string; title?: string } = {}): void {
    const byId = this.sessionMap(agentId);
    if (byId.has(sessionId)) return;
    const next: Mutable<SessionState> = { ...emptySession(agentId, sessionId), live: false };
    if (info.cwd !== undefined) next.cwd = info.cwd;
    if (info.title !== undefined) next.title = info.title;
    this.put(byId, undefined, next);
  }

  /** The agent no longer serves the session (stopped, crashed, closed): kept read-only. Its queue is kept (shown, removable): it is sent once the session is back and idle. */
  detachSession(agentId: string, sessionId: string): void {
    this.patch(agentId, sessionId, (s) => ({ ...s, live: false }));
  }

  /** The session cannot continue (`why`): not live, no turn running, read-only until resumed again. */
  endSession(agentId: string, sessionId: string, why: SessionEnd): void {
    this.patch(agentId, sessionId, (s) => ({ ...s, live: false, ended: why, turnState: 'idle' }));
  }

  removeSession(agentId: string, sessionId: string): void {
    const byId = this._sessions.get(agentId);
    const parent = byId?.get(sessionId)?.parentSessionId;
    if (!byId?.delete(sessionId)) return;
    if (parent !== undefined) this.childCaps.removed(agentId, parent);
    this._onDidChange.fire({ scope: 'session', kind: 'removed', agentId, sessionId });
    if (this._active?.agentId === agentId && this._active.sessionId === sessionId) this.setActiveSession(undefined);
  }

  setActiveSession(key: SessionKey | undefined): void {
    const prev = this._active;
    if (prev?.agentId === key?.agentId && prev?.sessionId === key?.sessionId) return;
    this._active = key ? { agentId: key.agentId, sessionId: key.sessionId } : undefined;
    this._onDidChange.fire({ scope: 'active', ...(prev ? { previous: prev } : {}), ...(this._active ? { current: this._active } : {}) });
  }

  get activeSession(): SessionKey | undefined {
    return this._active;
  }
  session(agentId: string, sessionId: string): SessionState | undefined {
    return this._sessions.get(agentId)?.get(sessionId);
  }
  sessions(agentId?: string): SessionState[] {
    if (agentId !== undefined) return [...(this._sessions.get(agentId)?.values() ?? [])];
    return [...this._sessions.values()].flatMap((m) => [...m.values()]);
  }
  /** Child sessions (subagents) of a session. */
  children(agentId: string, sessionId: string): SessionState[] {
    return this.sessions(agentId).filter((s) => s.parentSessionId === sessionId);
  }

  // ------------------------------------------------------------------ turns and the prompt queue

  /** A prompt was sent: the turn runs from now on (before the agent says so). */
  turnStarted(agentId: string, sessionId: string): void {
    // An ended session runs no turn: nothing would ever end it.
    this.patch(agentId, sessionId, (s) => (s.ended ? s : clearOutcome({ ...s, turnState: 'running' })));
  }

  enqueue(agentId: string, sessionId: string, blocks: readonly ContentBlock[], note?: QueueNote): QueuedPrompt | undefined {
    if (!this.session(agentId, sessionId)) return undefined;
    const q: QueuedPrompt = { id: `q${++this.queueSeq}`, blocks, text: promptText(blocks), ...(note ? { note } : {}) };
    this.patch(agentId, sessionId, (s) => ({ ...s, queued: [...s.queued, q] }));
    return q;
  }

  /** Takes the oldest queued prompt. */
  dequeue(agentId: string, sessionId: string): QueuedPrompt | undefined {
    const first = this.session(agentId, sessionId)?.queued[0];
    if (first) this.patch(agentId, sessionId, (s) => ({ ...s, queued: s.queued.slice(1) }));
    return first;
  }

  removeQueued(agentId: string, sessionId: string, id: string): boolean {
    const s = this.session(agentId, sessionId);
    if (!s?.queued.some((q) => q.id === id)) return false;
    this.patch(agentId, sessionId, (x) => ({ ...x, queued: x.queued.filter((q) => q.id !== id) }));
    return true;
  }

  clearQueue(agentId: string, sessionId: string): void {
    this.patch(agentId, sessionId, (s) => (s.queued.length ? { ...s, queued: [] } : s));
  }

  // ------------------------------------------------------------------ permissions

  addPendingPermission(p: PendingPermission): void {
    this.patch(p.agentId, p.request.sessionId, (s) => ({ ...s, pendingPermissions: [...s.pendingPermissions, p] }));
  }

  removePendingPermission(agentId: string, sessionId: string, id: string): void {
    this.patch(agentId, sessionId, (s) =>
      s.pendingPermissions.some((p) => p.id === id) ? { ...s, pendingPermissions: s.pendingPermissions.filter((p) => p.id !== id) } : s,
    );
  }

  /** The ElicitationBroker's count of this session's elicitations waiting for the user. */
  setPendingElicitations(agentId: string, sessionId: string, count: number): void {
    this.patch(agentId, sessionId, (s) => ((s.pendingElicitations ?? 0) === count ? s : { ...s, pendingElicitations: count }));
  }

  pendingPermissions(): PendingPermission[] {
    return this.sessions().flatMap((s) => s.pendingPermissions);
  }

  // ------------------------------------------------------------------ session events

  /**
   * Applies one session event of `agentId`: `state`, `session_info` and `config_options` update the
   * session; other kinds only make sure the session is known (an event for a session the agent
   * has not announced adds it).
   */
  applyEvent(agentId: string, e: SessionEvent): void {
    const byId = this.sessionMap(agentId);
    if (!byId.has(e.sessionId)) this.put(byId, undefined, { ...emptySession(agentId, e.sessionId), live: this._agents.get(agentId)?.status === 'running' });
    if (e.kind === 'subagent') this.applySubagent(agentId, e);
    else if (e.kind === 'tool_call' || e.kind === 'terminal_update') {
      this.patch(agentId, e.sessionId, (s) => {
        const controls = applyControls(s.controls, e);
        if (controls === s.controls) return s;
        const next: Mutable<SessionState> = { ...s };
        setOptional(next, 'controls', controls);
        return next;
      });
    } else if (e.kind === 'state') this.patch(agentId, e.sessionId, (s) => applyState(s, e));
    else if (e.kind === 'session_info') {
      this.patch(agentId, e.sessionId, (s) => {
        const next: Mutable<SessionState> = { ...s };
        if (e.title !== undefined) setOptional(next, 'title', e.title ?? undefined);
        if (e.updatedAt !== undefined) setOptional(next, 'updatedAt', e.updatedAt ?? undefined);
        return next;
      });
    } else if (e.kind === 'config_options') {
      this.patch(agentId, e.sessionId, (s) => ({ ...s, configOptions: e.options }));
    }
  }

  /** `subagent_update` on a parent: the child is added under it (once) and its association patched. */
  private applySubagent(agentId: string, e: Extract<SessionEvent, { kind: 'subagent' }>): void {
    const byId = this.sessionMap(agentId);
    const prev = byId.get(e.childSessionId);
    // A session already known is patched only by its own parent (an agent cannot retitle or
    // re-state another of its sessions, nor the sender itself, through a subagent update).
    if (prev && prev.parentSessionId !== e.sessionId) return;
    if (!prev && !this.admitChild(agentId, e.sessionId)) return;
    const next: Mutable<SessionState> = { ...(prev ?? { ...emptySession(agentId, e.childSessionId), live: this._agents.get(agentId)?.status === 'running' }) };
    // Only a new session gets a parent (a session already known keeps its place: no cycles).
    if (!prev) next.parentSessionId = e.sessionId;
    next.subagent = applySubagent(prev?.subagent, e);
    if (e.title !== undefined) setOptional(next, 'title', e.title ?? undefined);
    if (e.cwd !== undefined) setOptional(next, 'cwd', e.cwd ?? undefined);
    if (e.state != null) next.turnState = e.state;
    this.put(byId, prev, next);
  }

  /** A new child of `parent` within the caps (counted), or false (ignored, said once per agent). */
  private admitChild(agentId: string, parent: string): boolean {
    const refused = this.childCaps.admit(agentId, parent);
    if (refused) this.options.budget?.report(agentId, refused.cap, refused.text, parent);
    return !refused;
  }

  /** Plain JSON-able copy of everything (prompt blocks and permission requests left out). */
  snapshot(): StoreSnapshot {
    const sessions = this.sessions().map((s) => ({ ...s, queued: s.queued.map((q) => ({ id: q.id, text: q.text, blocks: [] })) }));
    return jsonClone({ agents: this.agents(), sessions, ...(this._active ? { activeSession: this._active } : {}) });
  }

  private sessionMap(agentId: string): Map<string, SessionState> {
    let m = this._sessions.get(agentId);
    if (!m) this._sessions.set(agentId, (m = new Map()));
    return m;
  }

  private put(byId: Map<string, SessionState>, prev: SessionState | undefined, next: SessionState): void {
    if (prev && sameJson(prev, next)) return;
    byId.set(next.sessionId, next);
    this._onDidChange.fire({ scope: 'session', kind: prev ? 'updated' : 'added', agentId: next.agentId, sessionId: next.sessionId });
  }

  private patch(agentId: string, sessionId: string, f: (s: SessionState) => SessionState): void {
    const byId = this._sessions.get(agentId);
    const prev = byId?.get(sessionId);
    if (!byId || !prev) return;
    const next = f(prev);
    if (next !== prev) this.put(byId, prev, next);
  }
}

function emptySession(agentId: string, sessionId: string): Mutable<SessionState> {
  return { agentId, sessionId, live: true, turnState: 'idle', queued: [], configOptions: [], pendingPermissions: [] };
}

function applyState(s: SessionState, e: Extract<SessionEvent, { kind: 'state' }>): SessionState {
  let next: Mutable<SessionState> = { ...s, turnState: e.state };
  // A new turn forgets the last turn's outcome; otherwise stopReason/error follow patch semantics.
  if (e.state === 'running' && e.stopReason === undefined && e.error === undefined) next = clearOutcome(next);
  if (e.stopReason !== undefined) setOptional(next, 'stopReason', e.stopReason ?? undefined);
  if (e.error !== undefined) setOptional(next, 'error', e.error ? { code: e.error.code, message: e.error.message } : undefined);
  if (e.background !== undefined) setOptional(next, 'background', keptBackground(e.background));
  return next;
}

function clearOutcome(s: Mutable<SessionState>): Mutable<SessionState> {
  const next = { ...s };
  delete next.stopReason;
  delete next.error;
  return next;
}

function setOptional<T extends object, K extends keyof T>(o: T, key: K, value: T[K] | undefined): void {
  if (value === undefined) delete o[key];
  else o[key] = value;
}

/** One line for a queued prompt: its text, with `@name` for attached files. */
export function promptText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? `@${b.name}` : ''))
    .filter(Boolean)
    .join(' ');
}
