// Hostile input at the transport: lines nested a million deep, requests with unusable ids, and
// cancellations of reused ids. Each test sends the hostile line and a valid one in the same chunk.
import * as assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import * as fc from 'fast-check';
import { ResponseError, type CancellationToken, type Message } from 'vscode-jsonrpc/node';
import { MAX_JSON_DEPTH, nestingDepth, outlineMessages } from '../../../src/protocol/transport/jsonDepth';
import { END_OF_STREAM_METHOD, NdjsonMessageReader } from '../../../src/protocol/transport/ndjsonReader';
import { setup } from './transportHarness';

const MILLION = 1_000_000;
const deepArray = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;

async function readOneChunk(text: string) {
  const logs: string[] = [];
  const reader = new NdjsonMessageReader(Readable.from([Buffer.from(text)]), { logger: { log: (_l, m) => logs.push(m) } });
  const got: Message[] = [];
  const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
  reader.listen((m) => {
    if ((m as { method?: string }).method !== END_OF_STREAM_METHOD) got.push(m);
  });
  await closed;
  return { got, stats: reader.stats, logs };
}

/** Depth of a parsed JSON value, iteratively (the reference for the byte scan). */
function depthOf(v: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop() as [unknown, number];
    if (x === null || typeof x !== 'object') continue;
    max = Math.max(max, d + 1);
    for (const c of Object.values(x)) stack.push([c, d + 1]);
  }
  return max;
}

describe('transport limits: nesting depth', () => {
  it('refuses a line nested 1,000,000 deep (array or object) and still delivers the next message of the chunk', async () => {
    const after = { jsonrpc: '2.0', method: 'after', params: {} };
    for (const deep of [deepArray(MILLION), deepObject(MILLION), `[${deepArray(MILLION)}]`, '['.repeat(MILLION)]) {
      const { got, stats, logs } = await readOneChunk(`${deep}\n${line(after)}`);
      assert.deepEqual(got, [after]);
      assert.equal(stats.tooDeepLines, 1);
      assert.ok(
        logs.some((l) => l.includes(`deeper than ${MAX_JSON_DEPTH} levels`)),
        logs.join('\n'),
      );
    }
  });

  it('accepts exactly MAX_JSON_DEPTH levels (one more inside a batch) and refuses one more', async () => {
    const nested = (n: number): unknown => {
      let v: unknown = 1;
      for (let i = 0; i < n; i++) v = [v];
      return v;
    };
    const msg = (n: number) => ({ jsonrpc: '2.0', method: 'm', params: { v: nested(n - 2) } }); // object + params = 2
    assert.equal(depthOf(msg(MAX_JSON_DEPTH)), MAX_JSON_DEPTH);
    const ok = await readOneChunk(line(msg(MAX_JSON_DEPTH)) + line([msg(MAX_JSON_DEPTH)]));
    assert.equal(ok.got.length, 2);
    assert.equal(ok.stats.tooDeepLines, 0);
    const refused = await readOneChunk(line(msg(MAX_JSON_DEPTH + 1)) + line([msg(MAX_JSON_DEPTH + 1)]));
    assert.equal(refused.got.length, 0);
    assert.equal(refused.stats.tooDeepLines, 2);
  });

  it('answers each request of a too-deep line with -32600 and its id, and keeps serving', async () => {
    const t = setup();
    let handled = 0;
    t.rpc.onRequest('echo', (p) => {
      handled++;
      return p;
    });
    t.rpc.listen();
    const deepParams = deepObject(MILLION);
    t.send(
      `{"jsonrpc":"2.0","id":"a\\"b","method":"echo","params":${deepParams}}\n` +
        `{"jsonrpc":"2.0","method":"echo","params":${deepParams},"id":7}\n` +
        `[{"jsonrpc":"2.0","id":8,"method":"echo","params":{}},{"jsonrpc":"2.0","method":"note","params":${deepArray(MILLION)}}]\n` +
        line({ jsonrpc: '2.0', id: 9, method: 'echo', params: { ok: true } }),
    );
    const replies = [await t.sent.next(), await t.sent.next(), await t.sent.next(), await t.sent.next()];
    const byId = new Map(replies.map((r) => [r.id, r]));
    for (const id of ['a"b', 7, 8]) {
      const error = byId.get(id)?.error as { code: number; message: string } | undefined;
      assert.equal(error?.code, -32600, `id ${String(id)}: ${JSON.stringify(replies)}`);
      assert.match(error.message, /nested deeper than 128 levels/);
    }
    assert.deepEqual(byId.get(9), { jsonrpc: '2.0', id: 9, result: { ok: true } });
    assert.equal(handled, 1, 'only the valid request reached the handler');
    assert.equal(t.rpc.stats.tooDeepLines, 3);
    t.rpc.dispose();
  });

  it('measures the depth of any JSON exactly, brackets and escapes inside strings included (property)', () => {
    const tricky = fc.constantFrom('[', ']', '{', '}', '"', '\\', '\\"', '\\\\', 'é😀', '\u2028');
    const str = fc.array(fc.oneof(tricky, fc.string({ maxLength: 4 })), { maxLength: 6 }).map((p) => p.join(''));
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        str,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('v'), { maxLength: 3 }),
        fc.dictionary(str, tie('v'), { maxKeys: 3 }),
      ),
    })).v;
    fc.assert(
      fc.property(value, (v) => {
        const bytes = Buffer.from(JSON.stringify(v));
        const d = depthOf(v);
        assert.equal(nestingDepth(bytes, 0, bytes.length, 1000), d);
        if (d > 1) assert.equal(nestingDepth(bytes, 0, bytes.length, d - 1), d, 'stops one past the limit');
      }),
      { numRuns: 500 },
    );
  });

  it('finds the method and id of every message of a line without parsing it (property)', () => {
    const id = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null), fc.constant({}), fc.constant([1]));
    const msg = fc.record(
      {
        jsonrpc: fc.constant('2.0'),
        method: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
        id: fc.option(id, { nil: undefined }),
        params: fc.jsonValue({ maxDepth: 3 }),
      },
      { requiredKeys: ['jsonrpc'] },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          msg.map((m) => [m, false] as const),
          fc.array(msg, { minLength: 1, maxLength: 3 }).map((b) => [b, true] as const),
        ),
        ([v, batch]) => {
          const bytes = Buffer.from(JSON.stringify(v));
          const messages = (batch ? v : [v]) as { method?: string; id?: unknown }[];
          const expected = messages.map((m) => ({
            hasMethod: m.method !== undefined,
            ...(m.id !== undefined ? { id: typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null } : {}),
          }));
          assert.deepEqual(outlineMessages(bytes, 0, bytes.length), expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('transport limits: request ids', () => {
  it('answers a request whose id is null, an object, an array or a boolean with -32600 and id null', async () => {
    const t = setup();
    let handled = 0;
    t.rpc.onRequest('echo', (p) => {
      handled++;
      return p;
    });
    t.rpc.listen();
    for (const id of [null, { x: 1 }, [1], true]) {
      t.send(line({ jsonrpc: '2.0', id, method: 'echo', params: {} }) + line({ jsonrpc: '2.0', id: 'next', method: 'echo', params: { n: 1 } }));
      const reply = await t.sent.next();
      assert.equal(reply.id, null, JSON.stringify(reply));
      assert.equal((reply.error as { code: number }).code, -32600);
      assert.deepEqual(await t.sent.next(), { jsonrpc: '2.0', id: 'next', result: { n: 1 } });
    }
    assert.equal(handled, 4, 'only the valid requests reached the handler');
    assert.equal(t.rpc.stats.invalidRequests, 4);
    assert.ok(t.logs.some((l) => l.level === 'warn' && l.message.includes('a null id')));
    t.rpc.dispose();
  });

  it('answers a request whose method is not a string with -32600 and its id', async () => {
    const t = setup();
    t.rpc.listen();
    t.send(line({ jsonrpc: '2.0', id: 4, method: 42 }));
    const reply = await t.sent.next();
    assert.equal(reply.id, 4);
    assert.equal((reply.error as { code: number }).code, -32600);
    t.rpc.dispose();
  });
});

describe('transport limits: cancellation of reused ids', () => {
  /** A handler that parks each call until the test settles it; `cancelled` counts cancelled tokens. */
  function parked() {
    const calls: { params: unknown; token: CancellationToken; resolve: (v: unknown) => void }[] = [];
    const waiters: (() => void)[] = [];
    const handler = (params: unknown, token: CancellationToken) =>
      new Promise<unknown>((resolve, reject) => {
        calls.push({ params, token, resolve });
        if (token.isCancellationRequested) reject(new ResponseError(-32800, 'cancelled'));
        token.onCancellationRequested(() => reject(new ResponseError(-32800, 'cancelled')));
        waiters.splice(0).forEach((w) => w());
      });
    const count = async (n: number): Promise<void> => {
      while (calls.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    return { calls, handler, count };
  }

  it('a $/cancel_request cancels the second prompt that reuses the id, after the first was answered', async () => {
    const t = setup();
    const p = parked();
    t.rpc.onRequest('ask', p.handler);
    t.rpc.listen();
    t.send(line({ jsonrpc: '2.0', id: 1, method: 'ask', params: { n: 'first' } }));
    await p.count(1);
    t.send(line({ jsonrpc: '2.0', id: 1, method: 'ask', params: { n: 'second' } }));
    await p.count(2);
    p.calls[0].resolve({ answer: 'first' }); // the user answers the first prompt
    assert.deepEqual(await t.sent.next(), { jsonrpc: '2.0', id: 1, result: { answer: 'first' } });
    // A round trip later the first request is over on every count; then the agent cancels id 1.
    t.send(line({ jsonrpc: '2.0', id: 'ping', method: 'ping', params: {} }));
    assert.equal((await t.sent.next()).id, 'ping');
    t.send(line({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 1 } }));
    const reply = await t.sent.next();
    assert.equal(reply.id, 1);
    assert.equal((reply.error as { code: number }).code, -32800);
    assert.equal(p.calls[1].token.isCancellationRequested, true, 'the second prompt was cancelled');
    t.rpc.dispose();
  });

  it('a cancel with nothing in flight is forgotten: a later request reusing the id runs normally', async () => {
    const t = setup();
    const p = parked();
    t.rpc.onRequest('ask', p.handler);
    t.rpc.listen();
    t.send(line({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 3 } }) + line({ jsonrpc: '2.0', id: 3, method: 'ask', params: {} }));
    await p.count(1);
    assert.equal(p.calls[0].token.isCancellationRequested, false);
    p.calls[0].resolve('done');
    assert.deepEqual(await t.sent.next(), { jsonrpc: '2.0', id: 3, result: 'done' });
    assert.ok(t.logs.some((l) => l.message.includes('no such request in flight')));
    t.rpc.dispose();
  });

  it('a cancel read behind a queued request cancels it (and only it) when it starts', async () => {
    const t = setup();
    const p = parked();
    t.rpc.onRequest('ask', p.handler);
    t.rpc.listen();
    t.send(
      line({ jsonrpc: '2.0', id: 'x', method: 'ask', params: { n: 1 } }) +
        line({ jsonrpc: '2.0', id: 'y', method: 'ask', params: { n: 2 } }) +
        line({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'y' } }) +
        line({ jsonrpc: '2.0', id: 'y', method: 'ask', params: { n: 3 } }),
    );
    await p.count(3);
    assert.deepEqual(
      p.calls.map((c) => c.token.isCancellationRequested),
      [false, true, false],
    );
    const reply = await t.sent.next();
    assert.equal(reply.id, 'y');
    assert.equal((reply.error as { code: number }).code, -32800);
    p.calls[0].resolve('x done');
    p.calls[2].resolve('y done');
    const rest = [await t.sent.next(), await t.sent.next()];
    assert.deepEqual(rest.map((r) => r.result).sort(), ['x done', 'y done']);
    t.rpc.dispose();
  });

  it("ignores LSP's $/cancelRequest (not ACP)", async () => {
    const t = setup();
    const p = parked();
    t.rpc.onRequest('ask', p.handler);
    t.rpc.listen();
    t.send(line({ jsonrpc: '2.0', id: 5, method: 'ask', params: {} }));
    await p.count(1);
    t.send(line({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 5 } }) + line({ jsonrpc: '2.0', id: 6, method: 'ask', params: {} }));
    await p.count(2);
    assert.equal(p.calls[0].token.isCancellationRequested, false);
    t.rpc.dispose();
  });
});
