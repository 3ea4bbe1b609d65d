// Agents installed from the ACP Registry: one record each, kept in the extension's global state
// (machine-local, never in the user's settings), turned into agent definitions under their
// registry name with the user's per-agent overrides (`acp.registry.agentOverrides`, machine scope:
// `args` replaces the registry's arguments, `env` is added to its environment). The registry
// module (dist/registry.js) writes the records; the AgentManager reads the definitions.
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { AgentDefinition } from './agentConfig';
import { installedDefinitions, isInstalledRecord, type InstalledAgentRecord } from './installedDefinitions';

export { REGISTRY_AGENT_PREFIX, type InstalledAgentRecord } from './installedDefinitions';

const STATE_KEY = 'acp.registry.installed';

export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export class InstalledAgents extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  /** Records were added, replaced or removed (by this window). */
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly state: StateStore) {
    super();
  }

  /** The valid records (a damaged one is left out). */
  list(): InstalledAgentRecord[] {
    const raw = this.state.get<unknown[]>(STATE_KEY);
    if (!Array.isArray(raw)) return [];
    return raw.filter(isInstalledRecord);
  }

  get(id: string): InstalledAgentRecord | undefined {
    return this.list().find((r) => r.id === id);
  }

  async put(record: InstalledAgentRecord): Promise<void> {
    const next = [...this.list().filter((r) => r.id !== record.id), record];
    await this.state.update(STATE_KEY, next);
    this._onDidChange.fire();
  }

  async remove(id: string): Promise<void> {
    await this.state.update(
      STATE_KEY,
      this.list().filter((r) => r.id !== id),
    );
    this._onDidChange.fire();
  }

  /** The records as agent definitions (id `registry:<id>`), with the user's overrides applied. */
  definitions(overridesRaw: unknown, offerV2: boolean): { agents: AgentDefinition[]; problems: string[] } {
    return installedDefinitions(this.list(), overridesRaw, offerV2);
  }
}
