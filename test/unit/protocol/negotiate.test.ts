// Version negotiation against scripted agents running as real child processes (test/agents).
// Every test also checks that everything the client sent matches the official schema.
import * as assert from 'node:assert/strict';
import { ConnectionClosedError, IncompatibleAgentError, InitializeTimeoutError, RpcError } from '../../../src/protocol/connect';
import { killAgents, start } from './outboundHarness';

type Obj = Record<string, unknown>;

function initializeParams(sent: Obj[]): Obj[] {
  return sent.filter((m) => m.method === 'initialize' && m.id !== undefined).map((m) => m.params as Obj);
}

describe('negotiation (real agent processes)', () => {
  afterEach(killAgents);

  describe('auto (offers v2)', () => {
    it('speaks v2 with a v2 agent, offering the hybrid initialize', async () => {
      const h = start('v2');
      const conn = await h.connecting;
      assert.equal(conn.version, 2);
      assert.equal(conn.agentInfo?.name, 'scripted-v2');
      const [init, ...more] = initializeParams(h.recorder.sent);
      assert.equal(more.length, 0, 'one initialize');
      assert.equal(init.protocolVersion, 2);
      assert.deepEqual(init.info, { name: 'acp-plans-tests', title: 'ACP Plans tests', version: '0.0.1' });
      assert.ok(init.capabilities !== undefined && init.clientCapabilities !== undefined && init.clientInfo !== undefined);
      h.recorder.assertAllValid(2);
      conn.dispose();
    });

    it('continues on v1 on the same connection when a v1 agent answers 1, with full v1 capabilities', async () => {
      const h = start('v1', {
        handlers: { readTextFile: (p) => Promise.resolve({ content: `contents of ${p.path}` }) },
      });
      const conn = await h.connecting;
      assert.equal(conn.version, 1);
      assert.equal(conn.agentInfo?.name, 'scripted-v1');
      assert.equal(conn.capabilities.loadSession, true);
      assert.equal(initializeParams(h.recorder.sent).length, 1, 'no second initialize, no respawn');
      const caps = initializeParams(h.recorder.sent)[0].clientCapabilities as Obj;
      assert.deepEqual(caps.fs, { readTextFile: true, writeTextFile: false });
      assert.equal(caps.terminal, false);
      assert.deepEqual(caps.plan, {}, 'the unstable plan opt-in reaches a v1 agent');
      // The v1 agent read those capabilities (it ignores the v2 fields): it calls fs.
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      const res = await conn.prompt(sessionId, [{ type: 'text', text: 'fs terminal' }]);
      assert.equal(res.stopReason, 'end_turn');
      assert.deepEqual(
        h.log.agentTexts().filter((t) => /^(fs|terminal):/.test(t)),
        ['fs: {"content":"contents of /work/README.md"}', 'terminal: not offered'],
      );
      h.recorder.assertAllValid(1);
      conn.dispose();
    });

    it('treats "protocolVersion 2" with a v1-shaped body (no info) as v1', async () => {
      const h = start('echo-v1');
      const conn = await h.connecting;
      assert.equal(conn.version, 1);
      assert.equal(conn.agentInfo?.name, 'scripted-v1');
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      assert.equal((await conn.prompt(sessionId, [{ type: 'text', text: 'hi' }])).stopReason, 'end_turn');
      h.recorder.assertAllValid(1);
      conn.dispose();
    });

    for (const [mode, answered, mention] of [
      ['version:3', 3, '3'],
      ['version:0', 0, '0'],
      ['string', '0.0.1', '"0.0.1"'],
    ] as const) {
      it(`rejects an agent that answers ${JSON.stringify(answered)} as incompatible, naming the answer`, async () => {
        const h = start(mode);
        const err = await h.connecting.then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(err instanceof IncompatibleAgentError, String(err));
        assert.equal(err.answered, answered);
        assert.ok(err.message.includes(`version ${mention}`), err.message);
        await h.agent.exited; // the transport was closed: the agent saw its stdin end
        h.recorder.assertAllValid(2);
      });
    }

    it('retries once with the highest known version from -32022 data.supported', async () => {
      const h = start('unsupported:1,5');
      const conn = await h.connecting;
      assert.equal(conn.version, 1);
      const inits = initializeParams(h.recorder.sent);
      assert.deepEqual(
        inits.map((p) => p.protocolVersion),
        [2, 1],
      );
      assert.equal(inits[1].info, undefined, 'the retry is a plain v1 initialize');
      h.recorder.assertAllValid(1);
      conn.dispose();
    });

    it('gives up when -32022 lists no version it knows', async () => {
      const h = start('unsupported:3');
      const err = await h.connecting.then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof IncompatibleAgentError, String(err));
      assert.deepEqual(err.answered, [3]);
      assert.match(err.message, /version\(s\) 3\b/);
      assert.equal(initializeParams(h.recorder.sent).length, 1);
      h.recorder.assertAllValid(2);
    });

    it('retries as v1 once when the v2 initialize fails another way', async () => {
      const h = start('fail-v2');
      const conn = await h.connecting;
      assert.equal(conn.version, 1);
      const inits = initializeParams(h.recorder.sent);
      assert.deepEqual(
        inits.map((p) => p.protocolVersion),
        [2, 1],
      );
      assert.ok(h.recorder.logs.some((l) => l.message.includes('retrying as v1')));
      h.recorder.assertAllValid(1);
      conn.dispose();
    });

    it('tolerates log lines and CRLF on the agent stdout', async () => {
      const h = start('v2', { agent: { noise: true, crlf: true } });
      const conn = await h.connecting;
      assert.equal(conn.version, 2);
      assert.ok(
        h.recorder.logs.some((l) => l.message.includes('scripted agent starting')),
        'the noise line is logged',
      );
      h.recorder.assertAllValid(2);
      conn.dispose();
    });
  });

  describe('pinned versions', () => {
    it('protocol 1 sends a plain v1 initialize and speaks v1', async () => {
      const h = start('v1', { connect: { protocol: 1 } });
      const conn = await h.connecting;
      assert.equal(conn.version, 1);
      const [init] = initializeParams(h.recorder.sent);
      assert.equal(init.protocolVersion, 1);
      assert.equal(init.info, undefined);
      h.recorder.assertAllValid(1);
      conn.dispose();
    });

    it('protocol 1 rejects an agent that answers v2', async () => {
      const h = start('v2', { connect: { protocol: 1 } });
      const err = await h.connecting.then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof IncompatibleAgentError, String(err));
      assert.match(err.message, /speaks ACP protocol version 2.*version 1 only/);
      h.recorder.assertAllValid(1);
    });

    it('protocol 2 sends a plain v2 initialize and speaks v2', async () => {
      const h = start('v2', { connect: { protocol: 2 } });
      const conn = await h.connecting;
      assert.equal(conn.version, 2);
      const [init] = initializeParams(h.recorder.sent);
      assert.equal(init.clientCapabilities, undefined);
      assert.equal(init.clientInfo, undefined);
      h.recorder.assertAllValid(2);
      conn.dispose();
    });

    it('protocol 2 rejects a v1 agent, and a v1 body labelled 2', async () => {
      for (const mode of ['v1', 'echo-v1']) {
        const h = start(mode, { connect: { protocol: 2 } });
        const err = await h.connecting.then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(err instanceof IncompatibleAgentError, `${mode}: ${String(err)}`);
        h.recorder.assertAllValid(2);
      }
    });

    it('protocol 2 does not fall back to v1 when initialize fails', async () => {
      const h = start('fail-v2', { connect: { protocol: 2 } });
      const err = await h.connecting.then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof RpcError && err.code === -32603, String(err));
      assert.equal(initializeParams(h.recorder.sent).length, 1);
    });
  });

  describe('failures', () => {
    it('times out a silent agent with a clear error and cancels the request', async () => {
      const h = start('hang', { connect: { initializeTimeoutMs: 300 } });
      const err = await h.connecting.then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof InitializeTimeoutError, String(err));
      assert.match(err.message, /did not answer "initialize" within 300 ms/);
      const [init] = h.recorder.sent;
      const cancel = h.recorder.sent.find((m) => m.method === '$/cancel_request');
      assert.deepEqual(cancel?.params, { requestId: init.id });
      h.recorder.assertAllValid(2);
    });

    it('reports an agent that exits during initialize as a closed connection', async () => {
      const h = start('exit');
      const err = await h.connecting.then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof ConnectionClosedError, String(err));
      assert.equal(await h.agent.exited, 3);
    });
  });
});
