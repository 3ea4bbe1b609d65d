// Remote agents, loaded on first use (dist/remote-agent.js, through remoteAgent.ts): checking an
// entry's `url` and `headers` (remoteConfig.ts) and opening its endpoint. Before the first byte
// goes out it asks RemoteAccess (the VS Code side, given by the composition root) to confirm the
// host — the first time only, remembered per host — and reads the secrets the headers name from
// SecretStorage (each value masked in the logs from then on); then the WebSocket endpoint
// (wsEndpoint.ts, with the `ws` library) connects, or for an `https://` url the streamable HTTP
// endpoint (httpEndpoint.ts, with the ACP SDK's HTTP client). Free of `vscode`.
import type { AgentEndpoint } from './agentEndpoint';
import type { AgentDefinition } from './agentConfig';
import { MissingSecretError, hostKey, resolveHeaders, secretNames } from './remoteConfig';
import { addKnownSecret } from './redaction';
import { english, type L10n } from '../common/l10n';
import { CookieJar, WebSocketEndpoint, type Preparation } from './wsEndpoint';
import { HttpEndpoint, MemoryAcpCookieStore } from './httpEndpoint';

export { parseRemote } from './remoteConfig';

/** What opening a remote agent needs from VS Code. */
export interface RemoteAccess {
  /** A secret's stored value (SecretStorage), or undefined when it is not set. */
  secret(name: string): Promise<string | undefined>;
  /**
   * Before the first connection to a host (remembered per host): shows the URL, the header names
   * and the secrets they use, and resolves true to go ahead.
   */
  confirmHost(c: { agentName: string; url: string; host: string; headerNames: string[]; secrets: string[] }): Promise<boolean>;
}

export interface RemoteEndpointOptions {
  readonly access: RemoteAccess;
  readonly maxMessageBytes: number;
  /** The words of what a person reads (`vscode.l10n` in the product); English when absent. */
  readonly l10n?: L10n;
  log(level: 'info' | 'warn', message: string): void;
}

/** One cookie jar per agent id, kept across reconnects for this window's life (the RFD's session affinity). */
const jars = new Map<string, CookieJar>();
const httpJars = new Map<string, MemoryAcpCookieStore>();

export function openRemoteEndpoint(def: AgentDefinition, o: RemoteEndpointOptions): AgentEndpoint {
  const remote = def.remote!;
  const log = (level: 'info' | 'warn', m: string): void => o.log(level, `${def.name}: ${m}`);
  if (remote.transport === 'http') {
    let store = httpJars.get(def.id);
    if (!store) httpJars.set(def.id, (store = new MemoryAcpCookieStore()));
    return new HttpEndpoint({ url: remote.url, maxMessageBytes: o.maxMessageBytes, l10n: o.l10n, cookies: store, log, prepare: () => prepare(def, o) });
  }
  let jar = jars.get(def.id);
  if (!jar) jars.set(def.id, (jar = new CookieJar()));
  return new WebSocketEndpoint({ url: remote.url, maxMessageBytes: o.maxMessageBytes, l10n: o.l10n, cookies: jar, log, prepare: () => prepare(def, o) });
}

/** Before the first byte goes out: the host confirmed (once per host), the headers' secrets read. */
async function prepare(def: AgentDefinition, o: RemoteEndpointOptions): Promise<Preparation> {
  const remote = def.remote!;
  const host = hostKey(remote.url);
  const secrets = secretNames(remote.headers);
  const l10n = o.l10n ?? english;
  const ok = await o.access.confirmHost({ agentName: def.name, url: remote.url, host, headerNames: Object.keys(remote.headers), secrets });
  if (!ok)
    return {
      refused: {
        description: l10n.t('was not connected: connecting to {0} was not allowed', host),
        detail: ` ${l10n.t('Start the agent again to see the confirmation.')}`,
        failedToOpen: true,
      },
    };
  try {
    return { headers: await resolveHeaders(remote.headers, (n) => o.access.secret(n), addKnownSecret) };
  } catch (err) {
    if (!(err instanceof MissingSecretError)) throw err;
    return {
      refused: {
        description: l10n.t('could not connect: the secret "{0}" its headers name is not set (run "ACP: Set Agent Secret…" to store it)', err.secret),
        detail: '',
        failedToOpen: true,
      },
    };
  }
}
