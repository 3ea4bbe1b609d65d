// The public, versioned API returned from activate(): read-only snapshots of agents, sessions and
// plans, and change events, for other extensions (and our tests). Bump API_VERSION on any
// breaking change. The `internals` field is for this extension's own tests only: not an API.
import type * as vscode from 'vscode';
import type { AgentManager } from './agents/agentManager';
import type { PermissionBroker } from './agents/permissionBroker';
import type { PlanSnapshot, PlanStore } from './state/planStore';
import type { Registry, RegistrySnapshot } from './state/registry';
import type { Transcript } from './state/transcript';
import type { Conversation } from './ui/conversation';
import type { PlansUi } from './ui/plansUi';
import type { IntentChecks } from './ui/intentChecks';

export const API_VERSION = 1;

export interface AcpPlansApi {
  readonly apiVersion: number;
  /** Milliseconds `activate()` took. */
  readonly activationMs: number;
  /** Agents and sessions as plain data. */
  registry(): RegistrySnapshot;
  /** Current plans (optionally of one agent/session) with summaries. */
  plans(filter?: { agentId?: string; sessionId?: string }): PlanSnapshot[];
  /** Plans removed by the agent (`plan_removed`), kept with their history. */
  archivedPlans(filter?: { agentId?: string; sessionId?: string }): PlanSnapshot[];
  /** Fires after any change to agents, sessions or plans (synchronously, per change). */
  readonly onDidChange: vscode.Event<void>;
  /** For this extension's tests only; not a stable API. */
  readonly internals: Internals;
}

export interface Internals {
  registry: Registry;
  plans: PlanStore;
  transcript: Transcript;
  agents: AgentManager;
  broker: PermissionBroker;
  conversation: Conversation;
  plansUi: PlansUi;
  intent: IntentChecks;
}

export function createApi(i: Internals & { activationMs: number }): AcpPlansApi {
  const onDidChange: vscode.Event<void> = (listener, thisArg, disposables) => {
    const a = i.registry.onDidChange(() => listener.call(thisArg, undefined));
    const b = i.plans.onDidChange(() => listener.call(thisArg, undefined));
    const d = { dispose: () => { a.dispose(); b.dispose(); } };
    disposables?.push(d);
    return d;
  };
  const { activationMs, ...internals } = i;
  return {
    apiVersion: API_VERSION,
    activationMs,
    registry: () => i.registry.snapshot(),
    plans: (f) => i.plans.snapshot(f),
    archivedPlans: (f) => i.plans.archivedSnapshot(f),
    onDidChange,
    internals,
  };
}
