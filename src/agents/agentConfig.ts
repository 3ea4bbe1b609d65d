// Agent definitions: the user's `acp.agents` entries (validated) plus the built-in Demo Agent. An
// entry names a local `command` (a process over stdio) or a remote `url` (remoteConfig.ts).
import * as z from 'zod/mini';
import '../protocol/common/zodMessages';
import type { McpServerConfig } from '../protocol/api';
import type { RemoteSpec } from './remoteConfig';
import { parseRemote } from './remoteAgent';
import { english, type L10n } from '../common/l10n';

export const DEMO_AGENT_ID = 'demo';

/** An `acp.agents` entry; the problems it reports are in `l10n`'s words (built for each parse of the setting). */
const entrySchema = (l10n: L10n) =>
  z.object(
    {
      name: z.string({ error: l10n.t('needs a "name"') }).check(z.trim(), z.minLength(1, l10n.t('needs a "name"'))),
      command: z.optional(
        z.string({ error: l10n.t('"command" must be a string') }).check(z.trim(), z.minLength(1, l10n.t('needs a "command" (the executable to run)'))),
      ),
      url: z.optional(z.string({ error: l10n.t('"url" must be a string') })),
      headers: z._default(z.record(z.string(), z.string(), { error: l10n.t('"headers" must map header names to string values') }), {}),
      args: z._default(z.array(z.string(), { error: l10n.t('"args" must be a list of strings') }), []),
      env: z._default(z.record(z.string(), z.string(), { error: l10n.t('"env" must map names to string values') }), {}),
      cwd: z.optional(z.string({ error: l10n.t('"cwd" must be a string') })),
      protocol: z._default(z.enum(['auto', '1', '2'], { error: l10n.t('"protocol" must be "auto", "1" or "2"') }), 'auto'),
    },
    { error: l10n.t('must be an object with a "name" and a "command" or "url"') },
  );

export interface AgentDefinition {
  /** Stable id: `demo` for the Demo Agent, else `agent:<name>`. */
  id: string;
  name: string;
  /** The executable to run; "" for a remote agent (`remote` set). */
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  protocol: 'auto' | 1 | 2;
  builtIn: boolean;
  /** A remote agent (an entry with a `url`): reached over a WebSocket or streamable HTTP, no process. */
  remote?: RemoteSpec;
}

export interface AgentConfigResult {
  agents: AgentDefinition[];
  problems: string[];
}

/** Validates the raw `acp.agents` value; every problem names the entry and what to fix. */
export function parseAgentSettings(raw: unknown, offerV2: boolean, l10n: L10n = english): AgentConfigResult {
  const problems: string[] = [];
  const agents: AgentDefinition[] = [];
  if (raw === undefined || raw === null) return { agents, problems };
  if (!Array.isArray(raw)) return { agents, problems: [l10n.t('"acp.agents" must be a list of agent entries.')] };
  const seen = new Set<string>();
  const schema = entrySchema(l10n);
  raw.forEach((entry, i) => {
    const r = schema.safeParse(entry);
    if (!r.success) {
      const label = typeof (entry as { name?: unknown })?.name === 'string' ? `"${(entry as { name: string }).name}"` : `#${i + 1}`;
      problems.push(l10n.t('acp.agents entry {0}: {1}.', label, r.error.issues.map((x) => x.message).join('; ')));
      return;
    }
    const e = r.data;
    if ((e.command === undefined) === (e.url === undefined)) {
      problems.push(
        e.command === undefined
          ? l10n.t('acp.agents entry "{0}": needs a "command" (the executable to run) or a "url" (a remote agent).', e.name)
          : l10n.t('acp.agents entry "{0}": has both "command" and "url"; keep one.', e.name),
      );
      return;
    }
    const remote = e.url === undefined ? undefined : parseRemote(e.url, e.headers, l10n);
    if (remote?.problem) {
      problems.push(l10n.t('acp.agents entry "{0}": {1}.', e.name, remote.problem));
      return;
    }
    const id = `agent:${e.name}`;
    if (seen.has(id)) {
      problems.push(l10n.t('acp.agents: the name "{0}" is used twice; names must be unique.', e.name));
      return;
    }
    seen.add(id);
    const pinned = e.protocol === '1' ? 1 : e.protocol === '2' ? 2 : undefined;
    agents.push({
      id,
      name: e.name,
      command: e.command ?? '',
      args: e.args,
      env: e.env,
      cwd: e.cwd,
      protocol: pinned ?? (offerV2 ? 'auto' : 1),
      builtIn: false,
      ...(remote?.spec ? { remote: remote.spec } : {}),
    });
  });
  return { agents, problems };
}

const mcpSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('stdio'),
    name: z.string().check(z.minLength(1)),
    command: z.string().check(z.minLength(1)),
    args: z._default(z.array(z.string()), []),
    env: z._default(z.record(z.string(), z.string()), {}),
  }),
  z.object({
    type: z.literal('http'),
    name: z.string().check(z.minLength(1)),
    url: z.string().check(z.url()),
    headers: z._default(z.record(z.string(), z.string()), {}),
  }),
  z.object({
    type: z.literal('sse'),
    name: z.string().check(z.minLength(1)),
    url: z.string().check(z.url()),
    headers: z._default(z.record(z.string(), z.string()), {}),
  }),
]);

/** Validates `acp.mcpServers` into the protocol's MCP server shape. */
export function parseMcpSettings(raw: unknown): { servers: McpServerConfig[]; problems: string[] } {
  const servers: McpServerConfig[] = [];
  const problems: string[] = [];
  if (!Array.isArray(raw)) return { servers, problems: raw == null ? [] : ['"acp.mcpServers" must be a list.'] };
  raw.forEach((entry, i) => {
    const withType = entry && typeof entry === 'object' && !('type' in entry) ? { ...entry, type: 'stdio' } : entry;
    const r = mcpSchema.safeParse(withType);
    if (!r.success) {
      problems.push(`acp.mcpServers entry #${i + 1}: ${r.error.issues.map((x) => `${x.path.join('.') || 'entry'}: ${x.message}`).join('; ')}.`);
      return;
    }
    const m = r.data;
    if (m.type === 'stdio')
      servers.push({ type: 'stdio', name: m.name, command: m.command, args: m.args, env: Object.entries(m.env).map(([name, value]) => ({ name, value })) });
    else servers.push({ type: m.type, name: m.name, url: m.url, headers: Object.entries(m.headers).map(([name, value]) => ({ name, value })) });
  });
  return { servers, problems };
}
