// Agents and their sessions, and which session is active. The agent manager calls the mutators;
// session events (`state`, `session_info`) arrive through apply(). Every change fires
// onDidChange synchronously, naming what changed.
import type { Disposable, Event } from '../protocol/api';
import type { ProtocolVersion, SessionEvent, TurnState } from '../protocol/domain';
import { Emitter } from './emitter';
import { jsonClone, sameJson } from './json';

export type AgentStatus = 'starting' | 'running' | 'stopping' | 'stopped' | 'crashed' | string;

export interface AgentRecord {
  readonly id: string;
  readonly name: string;
  readonly protocolVersion?: ProtocolVersion;
  readonly status: AgentStatus;
  /** Free text shown next to the status (e.g. the crash reason). */
  readonly detail?: string;
}

export interface SessionRecord {
  readonly agentId: string;
  readonly sessionId: string;
  readonly title?: string;
  readonly cwd?: string;
  readonly turnState: TurnState;
  readonly stopReason?: string;
  readonly error?: { code: number; message: string };
  readonly pendingPermissions: number;
  /** The agent's `session_info.updatedAt`, verbatim. */
  readonly updatedAt?: string;
}

export interface SessionKey { readonly agentId: string; readonly sessionId: string }

export type RegistryChange =
  | { scope: 'agent'; kind: 'added' | 'updated' | 'removed'; agentId: string }
  | { scope: 'session'; kind: 'added' | 'updated' | 'removed'; agentId: string; sessionId: string }
  | { scope: 'active'; previous?: SessionKey; current?: SessionKey };

export interface RegistrySnapshot {
  agents: AgentRecord[];
  sessions: SessionRecord[];
  activeSession?: SessionKey;
}

export class Registry implements Disposable {
  private readonly _onDidChange = new Emitter<RegistryChange>();
  readonly onDidChange: Event<RegistryChange> = this._onDidChange.event;

  private readonly _agents = new Map<string, AgentRecord>();
  /** agentId → sessionId → record (insertion order kept). */
  private readonly _sessions = new Map<string, Map<string, SessionRecord>>();
  private _active: SessionKey | undefined;

  // ------------------------------------------------------------------ agents

  upsertAgent(a: { id: string; name: string; protocolVersion?: ProtocolVersion; status?: AgentStatus; detail?: string }): void {
    const prev = this._agents.get(a.id);
    const next: AgentRecord = {
      id: a.id,
      name: a.name,
      status: a.status ?? prev?.status ?? 'starting',
      ...(a.protocolVersion !== undefined ? { protocolVersion: a.protocolVersion } : prev?.protocolVersion !== undefined ? { protocolVersion: prev.protocolVersion } : {}),
      ...(a.detail !== undefined ? { detail: a.detail } : {}),
    };
    if (prev && sameJson(prev, next)) return;
    this._agents.set(a.id, next);
    this._onDidChange.fire({ scope: 'agent', kind: prev ? 'updated' : 'added', agentId: a.id });
  }

  /** `detail` replaces the previous detail (omit it to clear). */
  setAgentStatus(agentId: string, status: AgentStatus, detail?: string): void {
    const prev = this._agents.get(agentId);
    if (!prev) return;
    this.upsertAgent({ id: agentId, name: prev.name, status, ...(prev.protocolVersion !== undefined ? { protocolVersion: prev.protocolVersion } : {}), ...(detail !== undefined ? { detail } : {}) });
  }

  setProtocolVersion(agentId: string, protocolVersion: ProtocolVersion): void {
    const prev = this._agents.get(agentId);
    if (!prev || prev.protocolVersion === protocolVersion) return;
    this._agents.set(agentId, { ...prev, protocolVersion });
    this._onDidChange.fire({ scope: 'agent', kind: 'updated', agentId });
  }

  /** Removes the agent and its sessions (their plans stay in the plan store until cleared there). */
  removeAgent(agentId: string): void {
    for (const sessionId of [...(this._sessions.get(agentId)?.keys() ?? [])]) this.removeSession(agentId, sessionId);
    this._sessions.delete(agentId);
    if (this._agents.delete(agentId)) this._onDidChange.fire({ scope: 'agent', kind: 'removed', agentId });
  }

  agent(agentId: string): AgentRecord | undefined { return this._agents.get(agentId); }
  agents(): AgentRecord[] { return [...this._agents.values()]; }

  // ------------------------------------------------------------------ sessions

  addSession(s: { agentId: string; sessionId: string; title?: string; cwd?: string }): void {
    const byId = this.sessionMap(s.agentId);
    const prev = byId.get(s.sessionId);
    const next: SessionRecord = {
      ...(prev ?? { agentId: s.agentId, sessionId: s.sessionId, turnState: 'idle', pendingPermissions: 0 }),
      ...(s.title !== undefined ? { title: s.title } : {}),
      ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
    };
    if (prev && sameJson(prev, next)) return;
    byId.set(s.sessionId, next);
    this._onDidChange.fire({ scope: 'session', kind: prev ? 'updated' : 'added', agentId: s.agentId, sessionId: s.sessionId });
  }

  removeSession(agentId: string, sessionId: string): void {
    const byId = this._sessions.get(agentId);
    if (!byId?.delete(sessionId)) return;
    this._onDidChange.fire({ scope: 'session', kind: 'removed', agentId, sessionId });
    if (this._active && this._active.agentId === agentId && this._active.sessionId === sessionId) this.setActiveSession(undefined);
  }

  setActiveSession(key: SessionKey | undefined): void {
    const prev = this._active;
    if (prev?.agentId === key?.agentId && prev?.sessionId === key?.sessionId) return;
    this._active = key ? { agentId: key.agentId, sessionId: key.sessionId } : undefined;
    this._onDidChange.fire({ scope: 'active', ...(prev ? { previous: prev } : {}), ...(this._active ? { current: this._active } : {}) });
  }

  setPendingPermissions(agentId: string, sessionId: string, count: number): void {
    this.patchSession(agentId, sessionId, (s) => ({ ...s, pendingPermissions: Math.max(0, Math.floor(count)) }));
  }

  setSessionTitle(agentId: string, sessionId: string, title: string | undefined): void {
    this.patchSession(agentId, sessionId, (s) => withOptional(s, 'title', title));
  }

  get activeSession(): SessionKey | undefined { return this._active; }
  session(agentId: string, sessionId: string): SessionRecord | undefined { return this._sessions.get(agentId)?.get(sessionId); }
  sessions(agentId?: string): SessionRecord[] {
    if (agentId !== undefined) return [...(this._sessions.get(agentId)?.values() ?? [])];
    return [...this._sessions.values()].flatMap((m) => [...m.values()]);
  }

  // ------------------------------------------------------------------ events

  /**
   * Applies one session event of `agentId`: `state` and `session_info` update the session; other
   * kinds only make sure the session is known (an event for an unknown session adds it).
   */
  apply(agentId: string, e: SessionEvent): void {
    if (!this._agents.has(agentId)) this.upsertAgent({ id: agentId, name: agentId, status: 'running' });
    if (!this.session(agentId, e.sessionId)) this.addSession({ agentId, sessionId: e.sessionId });
    if (e.kind === 'state') {
      this.patchSession(agentId, e.sessionId, (s) => {
        let next: SessionRecord = { ...s, turnState: e.state };
        // A new turn forgets the last turn's outcome; otherwise stopReason/error follow patch semantics.
        if (e.state === 'running' && e.stopReason === undefined) next = withOptional(next, 'stopReason', undefined);
        else if (e.stopReason !== undefined) next = withOptional(next, 'stopReason', e.stopReason ?? undefined);
        if (e.state === 'running' && e.error === undefined) next = withOptional(next, 'error', undefined);
        else if (e.error !== undefined) next = withOptional(next, 'error', e.error ? { code: e.error.code, message: e.error.message } : undefined);
        return next;
      });
    } else if (e.kind === 'session_info') {
      this.patchSession(agentId, e.sessionId, (s) => {
        let next = s;
        if (e.title !== undefined) next = withOptional(next, 'title', e.title ?? undefined);
        if (e.updatedAt !== undefined) next = withOptional(next, 'updatedAt', e.updatedAt ?? undefined);
        return next;
      });
    }
  }

  /** Plain JSON-able copy of everything. */
  snapshot(): RegistrySnapshot {
    return jsonClone({ agents: this.agents(), sessions: this.sessions(), ...(this._active ? { activeSession: this._active } : {}) });
  }

  dispose(): void { this._onDidChange.dispose(); }

  private sessionMap(agentId: string): Map<string, SessionRecord> {
    let m = this._sessions.get(agentId);
    if (!m) this._sessions.set(agentId, (m = new Map()));
    return m;
  }

  private patchSession(agentId: string, sessionId: string, f: (s: SessionRecord) => SessionRecord): void {
    const byId = this._sessions.get(agentId);
    const prev = byId?.get(sessionId);
    if (!byId || !prev) return;
    const next = f(prev);
    if (sameJson(prev, next)) return;
    byId.set(sessionId, next);
    this._onDidChange.fire({ scope: 'session', kind: 'updated', agentId, sessionId });
  }
}

function withOptional<T extends object, K extends keyof T>(o: T, key: K, value: T[K] | undefined): T {
  const copy = { ...o };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}
