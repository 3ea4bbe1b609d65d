// Agents installed from the ACP Registry as agent definitions: their records (written by the
// registry module into global state) with the user's per-agent overrides from the machine-scoped
// setting `acp.registry.agentOverrides` (`args` replaces the registry's arguments, `env` is added to
// its environment). No `vscode`.
import type { AgentDefinition } from './agentConfig';

export const REGISTRY_AGENT_PREFIX = 'registry:';

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
export const isInstalledRecord = (x: unknown): x is InstalledAgentRecord => {
  const r = x as Partial<InstalledAgentRecord> | null;
  return typeof r?.id === 'string' && typeof r.name === 'string' && typeof r.command === 'string' && strings(r.args) && stringMap(r.env);
};

/** The records as agent definitions (id `registry:<id>`), with the user's overrides applied. */
export function installedDefinitions(
  records: readonly InstalledAgentRecord[],
  overridesRaw: unknown,
  offerV2: boolean,
): { agents: AgentDefinition[]; problems: string[] } {
  const problems: string[] = [];
  const overrides = new Map<string, { args?: unknown; env?: unknown }>();
  if (overridesRaw && typeof overridesRaw === 'object')
    for (const [id, o] of Object.entries(overridesRaw)) {
      if (o && typeof o === 'object' && (o.args === undefined || strings(o.args)) && (o.env === undefined || stringMap(o.env))) overrides.set(id, o);
      else problems.push(`acp.registry.agentOverrides: "${id}" is ignored: it needs "args" (strings) and/or "env" (strings).`);
    }
  const agents = records.map((rec): AgentDefinition => {
    const o = overrides.get(rec.id);
    return {
      id: REGISTRY_AGENT_PREFIX + rec.id,
      name: rec.name,
      command: rec.command,
      args: (o?.args as string[] | undefined) ?? rec.args,
      env: { ...rec.env, ...(o?.env as Record<string, string> | undefined) },
      protocol: offerV2 ? 'auto' : 1,
      builtIn: false,
    };
  });
  return { agents, problems };
}
