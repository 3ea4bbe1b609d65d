// RpcConnection over in-memory pipes (transportHarness.ts): requests both ways, notifications in
// order, unknown methods, `$/cancel_request`, close semantics and broken pipes.
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';
import { ConnectionClosedError, RpcError } from '../../../src/protocol/transport/errors';
import { OversizeLineError } from '../../../src/protocol/transport/ndjsonReader';
import { RpcConnection } from '../../../src/protocol/transport/rpcConnection';
import { closedPromise, setup } from './transportHarness';

describe('transport: RpcConnection', () => {
  it('keeps the connection alive after an over-cap line and reports it as an error event', async () => {
    const t = setup({ maxLineBytes: 1024 });
    const errors: Error[] = [];
    t.rpc.onError((e) => errors.push(e));
    t.rpc.onRequest('ping', () => ({ pong: true }));
    t.rpc.listen();
    t.send(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'y'.repeat(5000)}"}}\n`);
    t.send({ jsonrpc: '2.0', id: 2, method: 'ping', params: {} });
    assert.deepEqual(await t.sent.next(), { jsonrpc: '2.0', id: 2, result: { pong: true } });
    assert.equal(t.rpc.stats.oversizeLines, 1);
    assert.ok(errors.some((e) => e instanceof OversizeLineError));
    assert.ok(t.logs.some((l) => l.level === 'warn' && l.message.includes('Discarded')));
    t.rpc.dispose();
  });

  it('answers -32601 to an unknown request and ignores an unknown notification (logged at debug)', async () => {
    const t = setup();
    t.rpc.onRequest('known', () => ({}));
    t.rpc.listen();
    t.send({ jsonrpc: '2.0', method: 'x/unknown_notification', params: {} });
    t.send({ jsonrpc: '2.0', id: 'r1', method: 'x/unknown', params: {} });
    const reply = await t.sent.next();
    assert.equal(reply.id, 'r1');
    assert.equal((reply.error as { code: number }).code, -32601);
    assert.ok(t.logs.some((l) => l.level === 'debug' && l.message.includes('x/unknown_notification')));
    t.send({ jsonrpc: '2.0', id: 3, method: 'known', params: {} });
    assert.deepEqual(await t.sent.next(), { jsonrpc: '2.0', id: 3, result: {} });
    t.rpc.dispose();
  });

  it('answers each request of a batch with its own line, in order', async () => {
    const t = setup();
    const notified: unknown[] = [];
    t.rpc.onRequest('echo', (p) => p);
    t.rpc.onNotification('note', (p) => notified.push(p));
    t.rpc.listen();
    t.send([
      { jsonrpc: '2.0', id: 1, method: 'echo', params: { n: 1 } },
      { jsonrpc: '2.0', method: 'note', params: { n: 2 } },
      { jsonrpc: '2.0', id: 'b', method: 'echo', params: { n: 3 } },
    ]);
    const first = await t.sent.nextLine();
    const second = await t.sent.nextLine();
    assert.ok(!first.startsWith('[') && !second.startsWith('['), 'replies are not batched');
    assert.deepEqual(JSON.parse(first), { jsonrpc: '2.0', id: 1, result: { n: 1 } });
    assert.deepEqual(JSON.parse(second), { jsonrpc: '2.0', id: 'b', result: { n: 3 } });
    assert.deepEqual(notified, [{ n: 2 }]);
    t.rpc.dispose();
  });

  it('keeps string and numeric request ids as they are', async () => {
    const t = setup();
    t.rpc.onRequest('echo', (p) => p);
    t.rpc.listen();
    for (const id of ['abc', 0, 7, '7', 'ü-𝔘']) {
      t.send({ jsonrpc: '2.0', id, method: 'echo', params: { id } });
      const reply = await t.sent.next();
      assert.deepEqual(reply, { jsonrpc: '2.0', id, result: { id } });
    }
    // Our own requests: the agent's answer is matched by id.
    const pending = t.rpc.sendRequest('ask', { q: 1 });
    const req = await t.sent.next();
    assert.equal(typeof req.id, 'number');
    t.send({ jsonrpc: '2.0', id: req.id, result: { a: 1 } });
    assert.deepEqual(await pending, { a: 1 });
    t.rpc.dispose();
  });

  it('maps an error response to RpcError with code, message and data', async () => {
    const t = setup();
    t.rpc.listen();
    const pending = t.rpc.sendRequest('fails', {});
    const req = await t.sent.next();
    t.send({ jsonrpc: '2.0', id: req.id, error: { code: -32022, message: 'unsupported', data: { supported: [1] } } });
    await assert.rejects(
      pending,
      (e: unknown) => e instanceof RpcError && e.code === -32022 && e.method === 'fails' && (e.data as { supported: number[] }).supported[0] === 1,
    );
    t.rpc.dispose();
  });

  it('rejects every pending request when the agent output ends, after dispatching what came before', async () => {
    const t = setup();
    const order: string[] = [];
    t.rpc.onNotification('last', () => order.push('notification'));
    const closed = closedPromise(t.rpc).then((c) => {
      order.push('close');
      return c;
    });
    t.rpc.listen();
    const a = t.rpc.sendRequest('a', {});
    const b = t.rpc.sendRequest('b', {});
    await t.sent.next();
    await t.sent.next();
    t.send({ jsonrpc: '2.0', method: 'last', params: {} });
    t.agentOut.end();
    await assert.rejects(a, ConnectionClosedError);
    await assert.rejects(b, (e: unknown) => e instanceof ConnectionClosedError && e.method === 'b');
    assert.deepEqual(await closed, {});
    assert.deepEqual(order, ['notification', 'close']);
    await assert.rejects(t.rpc.sendRequest('c', {}), ConnectionClosedError);
    assert.equal(t.rpc.isClosed, true);
  });

  it('rejects pending requests on dispose and fires onClose once', async () => {
    const t = setup();
    let closes = 0;
    t.rpc.onClose(() => closes++);
    t.rpc.listen();
    const a = t.rpc.sendRequest('a', {});
    t.rpc.dispose();
    t.rpc.dispose();
    await assert.rejects(a, ConnectionClosedError);
    assert.equal(closes, 1);
  });

  it('sends $/cancel_request {requestId} when a request token is cancelled', async () => {
    const t = setup();
    t.rpc.listen();
    const source = new CancellationTokenSource();
    const pending = t.rpc.sendRequest('session/prompt', { sessionId: 's' }, source.token);
    const req = await t.sent.next();
    source.cancel();
    const cancel = await t.sent.next();
    assert.deepEqual(cancel, { jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: req.id } });
    t.send({ jsonrpc: '2.0', id: req.id, error: { code: -32800, message: 'Request cancelled' } });
    await assert.rejects(pending, (e: unknown) => e instanceof RpcError && e.code === -32800);
    t.rpc.dispose();
  });

  it('cancels the handler token when the agent sends $/cancel_request (running or still queued)', async () => {
    const t = setup();
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    t.rpc.onRequest(
      'slow',
      (_p, token) =>
        new Promise((_resolve, reject) => {
          const cancelled = (): void => reject(new ResponseError(-32800, 'cancelled'));
          if (token.isCancellationRequested) {
            cancelled();
            return;
          }
          token.onCancellationRequested(cancelled);
          started();
        }),
    );
    t.rpc.listen();
    // Running: the cancel arrives after the handler started.
    t.send({ jsonrpc: '2.0', id: 'q', method: 'slow', params: {} });
    await running;
    t.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'q' } });
    const reply = await t.sent.next();
    assert.equal(reply.id, 'q');
    assert.equal((reply.error as { code: number }).code, -32800);
    // Queued: request and cancel in the same chunk; the handler sees a cancelled token.
    t.send(
      `${JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'slow', params: {} })}\n${JSON.stringify({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 5 } })}\n`,
    );
    const reply2 = await t.sent.next();
    assert.equal(reply2.id, 5);
    assert.equal((reply2.error as { code: number }).code, -32800);
    t.rpc.dispose();
  });

  it('reports every message both ways through logger.wire', async () => {
    const t = setup();
    t.rpc.onRequest('echo', (p) => p);
    t.rpc.listen();
    t.send({ jsonrpc: '2.0', id: 1, method: 'echo', params: { a: 1 } });
    await t.sent.next();
    assert.deepEqual(t.wire, [
      { direction: 'receive', message: { jsonrpc: '2.0', id: 1, method: 'echo', params: { a: 1 } } },
      { direction: 'send', message: { jsonrpc: '2.0', id: 1, result: { a: 1 } } },
    ]);
    t.rpc.dispose();
  });

  it('survives a broken stdin: the request fails, the host does not crash', async () => {
    const agentOut = new PassThrough();
    const agentIn = new PassThrough();
    const rpc = new RpcConnection({ readable: agentOut, writable: agentIn });
    rpc.listen();
    agentIn.destroy(new Error('EPIPE'));
    await assert.rejects(rpc.sendRequest('x', {}), ConnectionClosedError);
    rpc.dispose();
  });
});
