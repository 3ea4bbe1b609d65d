// For the agent supervisor: the sessions one agent serves and what a connection needs to know
// about them. Sessions served by the current connection (attached), those served before it ended
// (detached, to resume), the turns in flight per session (for the queue and crash reports), the
// sessions whose replay is muted, the prompts not answered yet, and the gate of which sessions the
// connection may speak for. Reports nothing itself: the supervisor tells its host. Free of `vscode`.
import type { AcpConnection, McpServerConfig, SessionSetup } from '../protocol/api';
import type { SessionEvent } from '../protocol/domain';
import { SessionGate } from './sessionGate';
import { UnansweredPrompts } from './unansweredPrompts';

/** What re-attaching a session needs. */
export interface AttachedSession {
  sessionId: string;
  cwd: string;
  additionalDirectories: string[];
  mcpServers: McpServerConfig[];
}

/** Events replayed by `session/load` after a restart duplicate what the transcript already has. */
const REPLAYED_KINDS = new Set<SessionEvent['kind']>([
  'message_chunk',
  'message',
  'session_message',
  'session_message_chunk',
  'tool_call',
  'tool_call_content_chunk',
  'terminal_update',
  'terminal_output_chunk',
]);

export class SupervisedSessions {
  /** Sessions served by the current connection. */
  readonly attached = new Map<string, AttachedSession>();
  /** Sessions served before the connection ended, to resume on the next one. */
  readonly detached = new Map<string, AttachedSession>();
  /** Sessions whose replayed messages are dropped (until the resume answers or `replay_complete`). */
  readonly muted = new Set<string>();
  /** Prompts not answered yet: sent again (v2, same idempotency key) if the agent dies first. */
  readonly unanswered = new UnansweredPrompts();
  /** The sessions this connection may speak for (updates for others are dropped and reported). */
  readonly gate: SessionGate;
  /** Turns in flight per session (one per prompt sent, or a `running` state) until idle with a stopReason
   *  (v1: from the prompt response; v2 answers on acceptance) or a refusal; counted for overlapping prompts. */
  private readonly turns = new Map<string, number>();

  constructor(warn: (message: string) => void) {
    this.gate = new SessionGate(warn);
  }

  /** Served now, then served before (to resume). */
  get ids(): string[] {
    return [...this.attached.keys(), ...this.detached.keys()];
  }
  /** Sessions with a turn in flight. */
  get busyIds(): string[] {
    return [...this.turns.keys()];
  }
  find(sessionId: string): AttachedSession | undefined {
    return this.attached.get(sessionId) ?? this.detached.get(sessionId);
  }
  busy(sessionId: string): boolean {
    return (this.turns.get(sessionId) ?? 0) > 0;
  }

  countTurn(sessionId: string, delta: 1 | -1): void {
    const n = Math.max(0, (this.turns.get(sessionId) ?? 0) + delta);
    if (n) this.turns.set(sessionId, n);
    else this.turns.delete(sessionId);
  }

  /** Whether an event of the connection is passed on (gate, muted replay); counts turns by its states. */
  admit(e: SessionEvent): boolean {
    if (!this.gate.admit(e)) return false;
    if (e.kind === 'replay_complete') this.muted.delete(e.sessionId); // what follows is live
    if (this.muted.has(e.sessionId) && REPLAYED_KINDS.has(e.kind)) return false;
    if (e.kind === 'state') {
      if (e.state === 'idle' && e.stopReason != null) this.countTurn(e.sessionId, -1);
      else if ((e.state === 'running' || e.state === 'requires_action') && !this.busy(e.sessionId)) this.countTurn(e.sessionId, +1);
    }
    return true;
  }

  /** What opening or resuming `sessionId` sends: extra folders and MCP servers only where the agent supports them. */
  params(conn: AcpConnection, sessionId: string, cwd: string, extras: { additionalDirectories?: string[]; mcpServers?: McpServerConfig[] }): AttachedSession {
    const caps = conn.capabilities;
    const prev = this.find(sessionId);
    return {
      sessionId,
      cwd,
      additionalDirectories: caps.additionalDirectories ? (extras.additionalDirectories ?? prev?.additionalDirectories ?? []) : [],
      mcpServers: (extras.mcpServers ?? prev?.mcpServers ?? []).filter((m) => caps.mcp[m.type]),
    };
  }

  /** This connection speaks for the session (prompts may be sent on it). */
  serve(s: AttachedSession): void {
    this.gate.allow(s.sessionId);
    this.detached.delete(s.sessionId);
    this.attached.set(s.sessionId, s);
  }

  /** The user closed (or deleted) the session: no longer served or resumed, and the gate refuses it until it is opened again. */
  close(sessionId: string): void {
    this.gate.close(sessionId);
    this.attached.delete(sessionId);
    this.detached.delete(sessionId);
    this.turns.delete(sessionId);
    this.muted.delete(sessionId);
    this.unanswered.forget(sessionId);
  }

  /** The connection ended: turns in flight and mutes are forgotten, every attached session detached (returned). */
  detachAll(): string[] {
    this.turns.clear();
    this.muted.clear();
    this.gate.reset();
    const ids = [...this.attached.keys()];
    for (const [sessionId, s] of this.attached) this.detached.set(sessionId, s);
    this.attached.clear();
    return ids;
  }
}

/** `session/new` in the session's folder, or `session/fork` of `forkOf` (where the agent advertises it). */
export function createSession(conn: AcpConnection, s: AttachedSession, forkOf: string | undefined): Promise<SessionSetup> {
  const p = { cwd: s.cwd, additionalDirectories: s.additionalDirectories, mcpServers: s.mcpServers };
  return forkOf === undefined ? conn.newSession(p) : conn.forkSession({ ...p, sessionId: forkOf });
}
