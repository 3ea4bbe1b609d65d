// Builds the public API (src/api/types.ts) over the stores: plain copies out, change events with
// what changed. It holds the stores only: nothing reachable from it answers permissions or drives
// agents. The stores are subscribed to only while someone listens.
import type { PlanChange, PlanSnapshot as StorePlan, PlanStore } from '../state/planStore';
import type { SessionState, SessionStore, StoreChange } from '../state/sessionStore';
import type { AgentStatus } from '../protocol/api';
import type { AcpPlansApi, AcpPlansChange, AgentSnapshot, AgentStatus as PublicAgentStatus, JsonValue, PlanSnapshot, SessionSnapshot } from './types';

/** The public API's agent status and the connection's are one union: this fails to compile when they drift apart. */
const sameStatus: [AgentStatus, PublicAgentStatus] extends [PublicAgentStatus, AgentStatus] ? true : never = true;
void sameStatus;

export type { AcpPlansApi } from './types';
export const API_VERSION = 2;

export function createApi(store: SessionStore, plans: PlanStore): AcpPlansApi {
  const onDidChange: AcpPlansApi['onDidChange'] = (listener, thisArg, disposables) => {
    const a = store.onDidChange((c) => listener.call(thisArg, fromStore(store, c)));
    const b = plans.onDidChange((c) => listener.call(thisArg, fromPlans(plans, c)));
    const d = {
      dispose: () => {
        a.dispose();
        b.dispose();
      },
    };
    disposables?.push(d);
    return d;
  };
  return Object.freeze({
    apiVersion: 2 as const,
    agents: () => store.agents().map((a) => agentOf(store, a.id)!),
    sessions: (f?: { agentId?: string }) => store.sessions(f?.agentId).map(toSession),
    activeSession: () => {
      const k = store.activeSession;
      return k && { agentId: k.agentId, sessionId: k.sessionId };
    },
    plans: (f?: { agentId?: string; sessionId?: string }) => plans.snapshot(f).map(toPlan),
    archivedPlans: (f?: { agentId?: string; sessionId?: string }) => plans.archivedSnapshot(f).map(toPlan),
    onDidChange,
  });
}

function agentOf(store: SessionStore, id: string): AgentSnapshot | undefined {
  const a = store.agent(id);
  return (
    a && {
      id: a.id,
      name: a.name,
      status: a.status,
      ...(a.protocolVersion ? { protocolVersion: a.protocolVersion } : {}),
      ...(a.detail ? { detail: a.detail } : {}),
    }
  );
}

function fromStore(store: SessionStore, c: StoreChange): AcpPlansChange {
  switch (c.scope) {
    case 'agent':
      return { kind: 'agent', change: c.kind, agentId: c.agentId, ...optional('agent', c.kind === 'removed' ? undefined : agentOf(store, c.agentId)) };
    case 'session': {
      const s = c.kind === 'removed' ? undefined : store.session(c.agentId, c.sessionId);
      return { kind: 'session', change: c.kind, agentId: c.agentId, sessionId: c.sessionId, ...optional('session', s && toSession(s)) };
    }
    case 'active':
      return { kind: 'activeSession', ...optional('current', c.current), ...optional('previous', c.previous) };
    default:
      return c satisfies never;
  }
}

function fromPlans(plans: PlanStore, c: PlanChange): AcpPlansChange {
  switch (c.kind) {
    case 'added':
    case 'updated':
      return { kind: 'plan', change: c.kind, agentId: c.agentId, sessionId: c.sessionId, planId: c.planId, ...optional('plan', planOf(plans, c)) };
    case 'removed':
      return { kind: 'plan', change: 'removed', agentId: c.agentId, sessionId: c.sessionId, planId: c.planId };
    case 'cleared':
      return { kind: 'plan', change: 'cleared', agentId: c.agentId, ...optional('sessionId', c.sessionId) };
    default:
      return c satisfies never;
  }
}

function planOf(plans: PlanStore, c: Extract<PlanChange, { planId: string }>): PlanSnapshot | undefined {
  // This plan only: copying every plan of the session for each change costs O(plans × size) per event.
  const p = plans.snapshotOf({ agentId: c.agentId, sessionId: c.sessionId, planId: c.planId });
  return p && toPlan(p);
}

function toSession(s: SessionState): SessionSnapshot {
  return {
    agentId: s.agentId,
    sessionId: s.sessionId,
    live: s.live,
    turnState: s.turnState,
    queuedPrompts: s.queued.length,
    pendingPermissions: s.pendingPermissions.length,
    ...optional('title', s.title),
    ...optional('cwd', s.cwd),
    ...optional('stopReason', s.stopReason),
    ...optional('parentSessionId', s.parentSessionId),
  };
}

function toPlan(p: StorePlan): PlanSnapshot {
  const sum = p.summary;
  return {
    agentId: p.agentId,
    sessionId: p.sessionId,
    planId: p.planId,
    type: p.rawType ?? p.type,
    version: p.version,
    revisions: p.revisions,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    summary: {
      total: sum.total,
      done: sum.done,
      cancelled: sum.cancelled,
      counts: { ...sum.counts },
      allDone: sum.allDone,
      header: sum.header,
      ...optional('current', sum.current && { index: sum.current.index, content: sum.current.content }),
    },
    content: contentOf(p),
    ...optional('archived', p.archived && { removedAt: p.archived.removedAt }),
  };
}

/** The plan as the agent sent it: unknown types keep their raw payload. */
function contentOf(p: StorePlan): JsonValue {
  const plan = p.plan as { type: string; raw?: unknown };
  return JSON.parse(JSON.stringify(plan.type === 'unknown' && plan.raw !== undefined ? plan.raw : plan)) as JsonValue;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
