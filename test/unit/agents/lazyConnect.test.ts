// The ACP connection as the extension loads it: dist/protocol.js, a bundle of its own with its own
// copies of every class. The errors the supervisor tells apart (src/agents/supervisorConnect.ts)
// must still be recognised when that bundle makes them: a stream that closes before `initialize`
// is answered (ConnectionClosedError), and an agent that never answers (InitializeTimeoutError).
// And the extension bundle itself no longer carries the connection library.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Connect from '../../../src/protocol/connect';
import type { ConnectOptions } from '../../../src/protocol/api';
import { memoryStreamPair } from '../../../src/protocol/connect';
import { ConnectionClosedError, InitializeTimeoutError } from '../../../src/protocol/connectionErrors';
import { SentLines } from '../protocol/transportHarness';

const DIST = path.join(__dirname, '../../../../dist');

describe('the connection loaded on first use (dist/protocol.js)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle `node esbuild.mjs` builds, as the extension loads it
  const shipped = require(path.join(DIST, 'protocol.js')) as typeof Connect;
  const options = (initializeTimeoutMs: number): ConnectOptions => ({
    protocol: 1,
    clientInfo: { name: 'acp-plans-tests', version: '0.0.1' },
    initializeTimeoutMs,
    handlers: { onEvent: () => undefined, requestPermission: () => Promise.resolve({ outcome: 'cancelled' }) },
  });

  it('rejects with an error this bundle recognises as ConnectionClosedError when the stream ends first', async () => {
    const pair = memoryStreamPair();
    const connecting = shipped.connect(pair.client, options(30_000));
    await new SentLines(pair.agent.readable).next();
    pair.agent.writable.end();
    const err = await connecting.catch((e: unknown) => e);
    assert.ok(err instanceof ConnectionClosedError, String(err));
    assert.notEqual((err as object).constructor, ConnectionClosedError, 'made by the other bundle');
  });

  it('rejects with an error this bundle recognises as InitializeTimeoutError when the agent never answers', async () => {
    const pair = memoryStreamPair();
    const err = await shipped.connect(pair.client, options(50)).catch((e: unknown) => e);
    assert.ok(err instanceof InitializeTimeoutError, String(err));
    assert.equal((err as InitializeTimeoutError).timeoutMs, 50);
    assert.ok(!(err instanceof ConnectionClosedError));
    pair.agent.writable.end();
  });

  it('is not part of the extension bundle', () => {
    const bundle = fs.readFileSync(path.join(DIST, 'extension.js'), 'utf8');
    assert.match(bundle, /require\("\.\/protocol\.js"\)/);
    assert.doesNotMatch(bundle, /vscode-jsonrpc|ContentLength|Content-Length/);
  });
});
