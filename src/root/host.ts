// The feature contract. A feature (the Plans tree, the conversation, the history, checkpoints and
// step work, the team, recording and replay, the registry, notifications…) is one module with one
// entry, `activate(host)`, that returns what it owns as one Disposable. The host offers what every
// feature shares, built completely before the first feature activates: the stores, the session
// events, the application services (SessionActions, the brokers, the agents) and the ports.
// A feature that offers something to the features after it (the history, the conversation…)
// offers it as a port under a typed key (src/root/ports.ts); one that uses it asks the host.
import type * as vscode from 'vscode';
import type { AgentManager } from '../agents/agentManager';
import type { InstalledAgents } from '../agents/installedAgents';
import type { Logs } from '../agents/logs';
import type { Elicitations } from '../app/elicitations';
import type { IntentFeature } from '../app/intentFeature';
import type { PermissionBroker } from '../app/permissionBroker';
import type { SessionActions } from '../app/sessionActions';
import type { SessionEvents } from '../app/sessionEvents';
import type { Config } from '../platform/config';
import type { SessionEvent } from '../protocol/domain';
import type { AgentBudget } from '../state/agentBudget';
import type { WorkStore } from '../state/attribution/workStore';
import type { PlanStore } from '../state/planStore';
import type { SessionStore } from '../state/sessionStore';
import type { Transcript } from '../state/transcript';

/** A feature's one entry. `name` is for the log and for the error when its activation fails. */
export interface Feature {
  readonly name: string;
  activate(host: FeatureHost): vscode.Disposable;
}

/** A port's key: the type of what is offered under it travels with the key. */
export class PortKey<T> {
  declare private readonly _type: T;
  constructor(readonly name: string) {}
}

export interface FeatureHost {
  readonly context: vscode.ExtensionContext;
  readonly config: Config;
  readonly logs: Logs;
  readonly budget: AgentBudget;
  readonly store: SessionStore;
  readonly plans: PlanStore;
  readonly work: WorkStore;
  readonly transcript: Transcript;
  readonly intent: IntentFeature;
  /** What happens to sessions, as one subscription (src/app/sessionEvents.ts). */
  readonly events: SessionEvents;
  readonly broker: PermissionBroker;
  readonly elicitations: Elicitations;
  readonly agents: AgentManager;
  readonly actions: SessionActions;
  readonly installed: InstalledAgents;
  /** Applies an event as if its agent had sent it: stores first, then the session events. */
  apply(agentId: string, e: SessionEvent): void;
  /** While stored sessions are replayed, the time their records arrived (undefined: now). */
  setReplayTime(t: number | undefined): void;
  /** Runs `start` once every feature is active (work that needs the others' views: the history's restore). */
  afterActivation(start: () => void): void;
  /** Offers `value` under `key` to the features after this one; a key is offered once. */
  offer<T>(key: PortKey<T>, value: T): void;
  /** What a feature offered under `key`; undefined when it is off (no workspace, turned off) or not activated yet. */
  port<T>(key: PortKey<T>): T | undefined;
}

/** The ports offered so far, by key; offering a key twice is a wiring error, said at activation. */
export class Ports {
  private readonly values = new Map<PortKey<unknown>, unknown>();

  offer<T>(key: PortKey<T>, value: T): void {
    if (this.values.has(key)) throw new Error(`The port ${key.name} is offered twice.`);
    this.values.set(key, value);
  }

  get<T>(key: PortKey<T>): T | undefined {
    return this.values.get(key) as T | undefined;
  }
}
