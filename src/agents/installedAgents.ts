// Agents installed from the ACP Registry: one record each, kept in the extension's global state
// (machine-local, never in the user's settings), turned into agent definitions under their
// registry name with the user's per-agent overrides (`acp.registry.agentOverrides`, machine scope:
// `args` replaces the registry's arguments, `env` is added to its environment). The registry
// module (dist/registry.js) writes the records; the AgentManager reads the definitions.
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { AgentDefinition } from './agentConfig';

export const REGISTRY_AGENT_PREFIX = 'registry:';
const STATE_KEY = 'acp.registry.installed';

/** What the registry module records per installed agent (it validates; this side only reads). */
export interface InstalledAgentRecord {
  id: string;
  name: string;
  version: string;
  kind: 'binary' | 'npx' | 'uvx';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** binary: `<global storage>/registry/agents/<id>/<version>`. */
  installDir?: string;
  /** The archive URL or the package. */
  source: string;
  license?: string;
  registryUrl: string;
  installedAt: number;
}

const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');
const stringMap = (x: unknown): x is Record<string, string> => !!x && typeof x === 'object' && strings(Object.values(x));
/** Written by the registry module only; a damaged one (or one from another version) is left out. */
const isRecord = (x: unknown): x is InstalledAgentRecord => {
  const r = x as Partial<InstalledAgentRecord> | null;
  return typeof r?.id === 'string' && typeof r.name === 'string' && typeof r.command === 'string' && strings(r.args) && stringMap(r.env);
};

export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export class InstalledAgents extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  /** Records were added, replaced or removed (by this window). */
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly state: StateStore) { super(); }

  /** The valid records (a damaged one is left out). */
  list(): InstalledAgentRecord[] {
    const raw = this.state.get<unknown[]>(STATE_KEY);
    if (!Array.isArray(raw)) return [];
    return raw.filter(isRecord);
  }

  get(id: string): InstalledAgentRecord | undefined { return this.list().find((r) => r.id === id); }

  async put(record: InstalledAgentRecord): Promise<void> {
    const next = [...this.list().filter((r) => r.id !== record.id), record];
    await this.state.update(STATE_KEY, next);
    this._onDidChange.fire();
  }

  async remove(id: string): Promise<void> {
    await this.state.update(STATE_KEY, this.list().filter((r) => r.id !== id));
    this._onDidChange.fire();
  }

  /** The records as agent definitions (id `registry:<id>`), with the user's overrides applied. */
  definitions(overridesRaw: unknown, offerV2: boolean): { agents: AgentDefinition[]; problems: string[] } {
    const problems: string[] = [];
    const overrides = new Map<string, { args?: unknown; env?: unknown }>();
    if (overridesRaw && typeof overridesRaw === 'object') for (const [id, o] of Object.entries(overridesRaw)) {
      if (o && typeof o === 'object' && (o.args === undefined || strings(o.args)) && (o.env === undefined || stringMap(o.env))) overrides.set(id, o);
      else problems.push(`acp.registry.agentOverrides: "${id}" is ignored: it needs "args" (strings) and/or "env" (strings).`);
    }
    const agents = this.list().map((rec): AgentDefinition => {
      const o = overrides.get(rec.id);
      return {
        id: REGISTRY_AGENT_PREFIX + rec.id, name: rec.name, command: rec.command,
        args: (o?.args as string[] | undefined) ?? rec.args, env: { ...rec.env, ...(o?.env as Record<string, string> | undefined) },
        protocol: offerV2 ? 'auto' : 1, builtIn: false,
      };
    });
    return { agents, problems };
  }
}
