// Remote agents, loaded on first use (dist/remote-agent.js, through remoteAgent.ts): checking an
// entry's `url` and `headers` (remoteConfig.ts) and opening its endpoint. Before the first byte
// goes out it asks RemoteAccess (the VS Code side, given by the composition root) to confirm the
// host — the first time only, remembered per host — and reads the secrets the headers name from
// SecretStorage (each value masked in the logs and in every sentence from then on); then the host
// name is resolved (plain ws/http only to loopback, remoteResolve.ts) and the WebSocket endpoint
// (wsEndpoint.ts, with the `ws` library) connects, or for an `https://` url the streamable HTTP
// endpoint (httpEndpoint.ts, with the ACP SDK's HTTP client). How it failed or ended reaches
// people as a reason (remoteErrors.ts) the VS Code side words. Free of `vscode`.
import type { AgentEndpoint } from './agentEndpoint';
import type { AgentDefinition } from './agentConfig';
import { MissingSecretError, hostKey, resolveHeaders, secretNames } from './remoteConfig';
import { addKnownSecret } from './redaction';
import { CookieJar, WebSocketEndpoint } from './wsEndpoint';
import { HttpEndpoint, MemoryAcpCookieStore } from './httpEndpoint';
import type { DescribeReason, Preparation } from './remoteEndpoint';
import type { Resolver } from './remoteResolve';

export { parseRemote } from './remoteConfig';
export type { RemoteReason } from './remoteErrors';

/** What opening a remote agent needs from VS Code. */
export interface RemoteAccess {
  /** A secret's stored value (SecretStorage), or undefined when it is not set. */
  secret(name: string): Promise<string | undefined>;
  /**
   * Before the first connection to a host (remembered per host): shows the URL, the header names
   * and the secrets they use, and resolves true to go ahead.
   */
  confirmHost(c: { agentName: string; url: string; host: string; headerNames: string[]; secrets: string[] }): Promise<boolean>;
  /** Why a connection did not open or ended, in the window's language. */
  readonly describe: DescribeReason;
  /** Resolves a remote agent's host name (remoteResolve.ts; the system's resolver when absent). */
  readonly resolve?: Resolver;
}

export interface RemoteEndpointOptions {
  readonly access: RemoteAccess;
  readonly maxMessageBytes: number;
  log(level: 'info' | 'warn', message: string): void;
}

/** One cookie jar per agent id, kept across reconnects for this window's life (the RFD's session affinity). */
const jars = new Map<string, CookieJar>();
const httpJars = new Map<string, MemoryAcpCookieStore>();

function jarOf<T>(all: Map<string, T>, id: string, make: () => T): T {
  let jar = all.get(id);
  if (!jar) all.set(id, (jar = make()));
  return jar;
}

export function openRemoteEndpoint(def: AgentDefinition, o: RemoteEndpointOptions): AgentEndpoint {
  const remote = def.remote!;
  const options = {
    url: remote.url,
    maxMessageBytes: o.maxMessageBytes,
    describe: o.access.describe,
    log: (level: 'info' | 'warn', m: string): void => o.log(level, `${def.name}: ${m}`),
    prepare: () => prepare(def, o.access),
    ...(o.access.resolve ? { resolve: o.access.resolve } : {}),
  };
  if (remote.transport === 'http') return new HttpEndpoint({ ...options, cookies: jarOf(httpJars, def.id, () => new MemoryAcpCookieStore()) });
  return new WebSocketEndpoint({ ...options, cookies: jarOf(jars, def.id, () => new CookieJar()) });
}

/** Before the first byte goes out: the host confirmed (once per host), the headers' secrets read. */
async function prepare(def: AgentDefinition, access: RemoteAccess): Promise<Preparation> {
  const remote = def.remote!;
  const host = hostKey(remote.url);
  const secrets = secretNames(remote.headers);
  const ok = await access.confirmHost({ agentName: def.name, url: remote.url, host, headerNames: Object.keys(remote.headers), secrets });
  if (!ok) return { refused: { code: 'host-declined', data: { host } } };
  try {
    return { headers: await resolveHeaders(remote.headers, (n) => access.secret(n), addKnownSecret) };
  } catch (err) {
    if (!(err instanceof MissingSecretError)) throw err;
    return { refused: { code: 'secret-missing', data: { secret: err.secret } } };
  }
}
