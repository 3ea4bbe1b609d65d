// The ACP connection (vscode-jsonrpc, the schemas, both version adapters) as AgentManager sees it:
// a bundle of its own (dist/protocol.js), loaded when the first agent starts, so activation and a
// window that never starts an agent do not parse it. What the rest of the extension reads of a
// connection's failures is in src/protocol/connectionErrors.ts (branded: `instanceof` holds across
// bundles). Free of `vscode`.
import { lazyModule } from '../common/lazy';
import type * as Connect from '../protocol/connect';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (src/common/lazy.ts)
const protocolModule = lazyModule('protocol.js', () => require('../protocol/connect') as typeof Connect);

/** `connect` from src/protocol/connect.ts, loaded on its first call. */
export const lazyConnect: typeof Connect.connect = (stream, options) => protocolModule().connect(stream, options);
