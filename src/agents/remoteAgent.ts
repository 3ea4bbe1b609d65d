// Remote agents (entries of acp.agents with a `url`): the loader of their code, which activation
// never parses (dist/remote-agent.js: remoteOpen.ts, the `ws` library). Settings with no `url`
// never load it. Free of `vscode`.
import { lazyModule } from '../common/lazy';
import type { AgentEndpoint } from './agentEndpoint';
import type { AgentDefinition } from './agentConfig';
import type { RemoteSpec } from './remoteConfig';
import type * as Remote from './remoteOpen';
import type { L10n } from '../common/l10n';

export type { RemoteAccess, RemoteEndpointOptions, RemoteReason } from './remoteOpen';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously
const remote = lazyModule('remote-agent.js', () => require('./remoteOpen') as typeof Remote);

/** Opens a remote agent's endpoint (a definition with `remote`). */
export const openRemoteEndpoint = (def: AgentDefinition, o: Remote.RemoteEndpointOptions): AgentEndpoint => remote().openRemoteEndpoint(def, o);
/** Checks an entry's `url` and `headers` (remoteConfig.ts). */
export const parseRemote = (url: string, headers: Record<string, string>, l10n?: L10n): { spec?: RemoteSpec; problem?: string } =>
  remote().parseRemote(url, headers, l10n);
