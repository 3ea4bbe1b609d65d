// The contract between the extension and its lazily loaded registry module (dist/registry.js,
// built from src/registry/index.ts). Types only: the extension bundle imports nothing else from
// src/registry, so the installer and its archive libraries cost it nothing until a registry command
// runs. The module gets everything it uses as arguments (no state shared between the bundles).
import type * as vscode from 'vscode';
import type { InstalledAgents } from '../agents/installedAgents';
import type { AgentStatus } from '../protocol/api';

/** The agent actions the registry module takes (the extension routes them through SessionActions). */
export interface RegistryAgentActions {
  /** The agent's status as the Plans view shows it; undefined when it has not been started. */
  status(agentId: string): AgentStatus | undefined;
  /** Starts the agent; resolves with the names of the sign-in methods it lists. */
  startAgent(agentId: string): Promise<{ authMethods: readonly string[] }>;
  stopAgent(agentId: string): Promise<void>;
  restartAgent(agentId: string): Promise<void>;
}

export interface RegistryHost {
  /** `<global storage>/registry`: the index cache, icons, temp downloads and `agents/<id>/<version>`. */
  storageRoot: string;
  installed: InstalledAgents;
  agents: RegistryAgentActions;
  log: vscode.LogOutputChannel;
  /** Ties a listener the module leaves behind (e.g. a sign-in terminal's) to the extension's lifetime. */
  own(d: vscode.Disposable): void;
}

/** What `acp.addAgentFromRegistry` and friends accept besides a tree node: `{ id }` picks that entry. */
export interface RegistryCommandArg {
  id?: string;
  agentId?: string;
}

export interface RegistryModule {
  /** Browse, confirm, install, start (and offer sign-in). Resolves with the agent id, or undefined. */
  addAgentFromRegistry(host: RegistryHost, arg?: unknown): Promise<string | undefined>;
  uninstallAgent(host: RegistryHost, arg?: unknown): Promise<boolean>;
  updateAgent(host: RegistryHost, arg?: unknown): Promise<boolean>;
}
