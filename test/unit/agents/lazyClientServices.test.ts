// The client services loaded on first use (src/agents/lazyClientServices.ts): nothing is loaded
// before an agent calls a terminal service, releasing terminals before then does nothing, and the
// stand-in handlers reach the real service. And the answer an agent reads when the shipped
// terminal bundle (dist/terminals.js, with its own copy of RpcError) refuses a request keeps its
// code through the connection (-32602, not -32603: RpcError is recognised across bundles).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LazyTerminals } from '../../../src/agents/lazyClientServices';
import type * as Terminals from '../../../src/agents/terminalService';
import type { AcpConnection } from '../../../src/protocol/api';
import { connect, memoryStreamPair } from '../../../src/protocol/connect';
import { ErrorCodes, RpcError } from '../../../src/protocol/transport/errors';
import { SentLines } from '../protocol/transportHarness';

const node = process.execPath;
const NODE_OPTIONS = [{ name: 'NODE_OPTIONS', value: '--require /tmp/x.js' }];

describe('client services loaded on first use', () => {
  let ws: string;
  let approved: string[];
  const options = (): Terminals.TerminalServiceOptions => ({
    onOutput: () => undefined,
    roots: () => [ws],
    approve: (req) => {
      approved.push(req.command);
      return Promise.resolve(true);
    },
  });

  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-lazy-term-')));
    approved = [];
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('LazyTerminals loads the terminal service on the first terminal call and passes each call on', async () => {
    const terminals = new LazyTerminals(options());
    terminals.releaseAll();
    const t = terminals.forConnection('agent:A');
    assert.equal(terminals.loaded, false);
    // The service's own refusal, with its code.
    await assert.rejects(
      t.create({ sessionId: 's1', command: node, env: NODE_OPTIONS }),
      (e: unknown) => e instanceof RpcError && e.code === ErrorCodes.InvalidParams && /NODE_OPTIONS/.test(e.message),
    );
    assert.equal(terminals.loaded, true);
    const { terminalId } = await t.create({ sessionId: 's1', command: node, args: ['-e', 'process.stdout.write("ok")'] });
    assert.deepEqual(approved, [node]);
    assert.deepEqual(await t.waitForExit({ sessionId: 's1', terminalId }), { exitCode: 0, signal: null });
    assert.equal((await t.output({ sessionId: 's1', terminalId })).output, 'ok');
    // Another connection of the same agent does not reach this one's terminal.
    await assert.rejects(terminals.forConnection('agent:A').output({ sessionId: 's1', terminalId }), /Unknown terminal/);
    await t.release({ sessionId: 's1', terminalId });
    terminals.releaseAll();
  });

  describe('the shipped terminal bundle behind a connection', () => {
    let conn: AcpConnection | undefined;
    afterEach(() => conn?.dispose());

    it('answers a refused terminal/create with -32602 and the reason, as the service in place does', async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle `node esbuild.mjs` builds, as the extension loads it
      const shipped = require(path.join(__dirname, '../../../../dist/terminals.js')) as typeof Terminals;
      const service = new shipped.TerminalService(options());
      const refusal = await service
        .forConnection('agent:A')
        .create({ sessionId: 's1', command: node, env: NODE_OPTIONS })
        .catch((e: unknown) => e);
      // Its RpcError is another class than this bundle's, and still one.
      assert.notEqual((refusal as object).constructor, RpcError);
      assert.ok(refusal instanceof RpcError);

      const pair = memoryStreamPair();
      const fromClient = new SentLines(pair.agent.readable);
      const send = (m: Record<string, unknown>): void => void pair.agent.writable.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
      const connecting = connect(pair.client, {
        protocol: 1,
        clientInfo: { name: 'acp-plans-tests', version: '0.0.1' },
        handlers: {
          onEvent: () => undefined,
          requestPermission: () => Promise.resolve({ outcome: 'cancelled' }),
          terminal: service.forConnection('agent:A'),
        },
      });
      const init = await fromClient.next();
      send({ id: init.id as number, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
      conn = await connecting;
      send({ id: 'a1', method: 'terminal/create', params: { sessionId: 's1', command: node, env: NODE_OPTIONS } });
      const answer = await fromClient.next();
      assert.equal(answer.id, 'a1');
      const error = answer.error as { code: number; message: string };
      assert.equal(error.code, ErrorCodes.InvalidParams);
      assert.match(error.message, /NODE_OPTIONS/);
      service.dispose();
    });
  });
});
