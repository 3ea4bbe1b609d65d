// The public API of ACP Plans (version 2), as other extensions see it: typed, read-only snapshots
// of agents, sessions and plans, and change events that say what changed. This file holds types
// only; `api/acp-plans.d.ts` is a copy of it for other extensions to use (a unit test keeps the
// two equal). Get it with:
//   const api = await vscode.extensions.getExtension<AcpPlansApi>('acp-plans.acp-plans')?.activate();
// Nothing here can answer permission requests, start agents or send prompts: those stay with the user.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type AgentStatus = 'stopped' | 'starting' | 'running' | 'stopping' | 'restarting' | 'crashed' | 'failed';

export interface AgentSnapshot {
  readonly id: string;
  readonly name: string;
  readonly status: AgentStatus;
  /** The ACP version negotiated with it (1 or 2), once it started. */
  readonly protocolVersion?: number;
  /** Why it is in this state, when there is something to say (e.g. how it stopped). */
  readonly detail?: string;
}

export interface SessionKey {
  readonly agentId: string;
  readonly sessionId: string;
}

export interface SessionSnapshot extends SessionKey {
  readonly title?: string;
  readonly cwd?: string;
  /** Served by a running agent (false: kept read-only after the agent stopped). */
  readonly live: boolean;
  /** `idle`, `running`, `requires_action`, or a newer state the agent sent. */
  readonly turnState: string;
  readonly stopReason?: string;
  /** Prompts waiting for the running turn to end. */
  readonly queuedPrompts: number;
  /** Permission requests waiting for the user. */
  readonly pendingPermissions: number;
  /** Set for a child session (a subagent). */
  readonly parentSessionId?: string;
}

export interface PlanStep {
  /** Index of the step in the plan. */
  readonly index: number;
  readonly content: string;
}

export interface PlanSummary {
  /** Number of steps (0 for plans without steps). */
  readonly total: number;
  readonly done: number;
  readonly cancelled: number;
  /** Steps per raw status, e.g. { pending: 2, in_progress: 1, completed: 4 }. */
  readonly counts: Readonly<Record<string, number>>;
  /** The step being worked on. */
  readonly current?: PlanStep;
  /** There are steps and every one is completed. */
  readonly allDone: boolean;
  /** One line, e.g. "v3 — 1/5 done, 0 blocked". */
  readonly header: string;
}

export interface PlanSnapshot {
  readonly agentId: string;
  readonly sessionId: string;
  readonly planId: string;
  /** `items`, `markdown`, `file`, or a custom (`_…`) or newer type, verbatim. */
  readonly type: string;
  /** 1 on creation, +1 on every real change. */
  readonly version: number;
  readonly summary: PlanSummary;
  /** Revisions kept (see the acp.planHistory.maxRevisions setting). */
  readonly revisions: number;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The plan's content exactly as the agent sent it (a copy). */
  readonly content: JsonValue;
  /** Set when the agent removed the plan (it is kept, archived). */
  readonly archived?: { readonly removedAt: number };
}

export type Change = 'added' | 'updated' | 'removed';

/** What changed; the snapshot is the state after the change (absent once removed). */
export type AcpPlansChange =
  | { readonly kind: 'agent'; readonly change: Change; readonly agentId: string; readonly agent?: AgentSnapshot }
  | { readonly kind: 'session'; readonly change: Change; readonly agentId: string; readonly sessionId: string; readonly session?: SessionSnapshot }
  | { readonly kind: 'activeSession'; readonly current?: SessionKey; readonly previous?: SessionKey }
  | {
      readonly kind: 'plan';
      readonly change: Change | 'cleared';
      readonly agentId: string;
      readonly sessionId?: string;
      readonly planId?: string;
      readonly plan?: PlanSnapshot;
    };

export interface Disposable {
  dispose(): void;
}
export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export interface AcpPlansApi {
  /** 2 for this shape; a breaking change bumps it. */
  readonly apiVersion: 2;
  agents(): AgentSnapshot[];
  sessions(filter?: { agentId?: string }): SessionSnapshot[];
  /** The session the views show. */
  activeSession(): SessionKey | undefined;
  /** Current plans, optionally of one agent or session. */
  plans(filter?: { agentId?: string; sessionId?: string }): PlanSnapshot[];
  /** Plans the agent removed (`plan_removed`), kept with their history. */
  archivedPlans(filter?: { agentId?: string; sessionId?: string }): PlanSnapshot[];
  /** Fires synchronously after each change, saying what changed. */
  readonly onDidChange: Event<AcpPlansChange>;
}
