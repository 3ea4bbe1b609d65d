// The NDJSON transport: byte-level framing, tolerance, batches, and the reader's slicing of long
// reads. The connection on top of it: rpcConnection.test.ts.
import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import * as fc from 'fast-check';
import type { Message } from 'vscode-jsonrpc/node';
import { END_OF_STREAM_METHOD, NdjsonMessageReader, OversizeLineError } from '../../../src/protocol/transport/ndjsonReader';
import { type LogEntry } from './transportHarness';

// ------------------------------------------------------------------ helpers

/** Runs bytes through a reader exactly as chunked; resolves with the messages and the stats. */
async function readChunks(chunks: Buffer[], maxLineBytes?: number) {
  const stream = Readable.from(chunks); // object mode: one 'data' event per chunk, as given
  const reader = new NdjsonMessageReader(stream, { maxLineBytes });
  const messages: unknown[] = [];
  const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
  reader.listen((m) => {
    if ((m as { method?: string }).method !== END_OF_STREAM_METHOD) messages.push(m);
  });
  await closed;
  return { messages, stats: reader.stats };
}

// ------------------------------------------------------------------ generators

const textArb = fc
  .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('\u2028', '\u2029', '\n', '\r\n', 'é', '😀', '\uFFFD', '"', '\\', '[', '{')), {
    maxLength: 6,
  })
  .map((parts) => parts.join(''));

const messageArb = fc.record({
  jsonrpc: fc.constant('2.0'),
  method: textArb,
  params: fc.record({ text: textArb, n: fc.integer(), nested: fc.jsonValue({ maxDepth: 2 }) }),
});

const noiseArb = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => {
  const t = s.replace(/^[ \t\r]+/, '');
  return !s.includes('\n') && t[0] !== '{' && t[0] !== '[';
});

type Item =
  { kind: 'message'; value: unknown; crlf: boolean } | { kind: 'batch'; value: unknown[]; crlf: boolean } | { kind: 'noise'; value: string; crlf: boolean };

const itemArb: fc.Arbitrary<Item> = fc.oneof(
  fc.record({ kind: fc.constant('message' as const), value: messageArb, crlf: fc.boolean() }),
  fc.record({ kind: fc.constant('batch' as const), value: fc.array(messageArb, { minLength: 1, maxLength: 3 }), crlf: fc.boolean() }),
  fc.record({ kind: fc.constant('noise' as const), value: noiseArb, crlf: fc.boolean() }),
);

function encode(items: Item[]): Buffer {
  return Buffer.from(
    items
      .map((it) => {
        const body = it.kind === 'noise' ? it.value : JSON.stringify(it.value);
        return `${body}${it.crlf ? '\r\n' : '\n'}`;
      })
      .join(''),
    'utf8',
  );
}

function expectedMessages(items: Item[]): unknown[] {
  const out: unknown[] = [];
  for (const it of items) {
    if (it.kind === 'message') out.push(JSON.parse(JSON.stringify(it.value)));
    if (it.kind === 'batch') for (const m of it.value) out.push(JSON.parse(JSON.stringify(m)));
  }
  return out;
}

function splitAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let prev = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(prev, p));
    prev = p;
  }
  chunks.push(bytes.subarray(prev));
  return chunks;
}

// ------------------------------------------------------------------ framing

describe('transport: NDJSON framing', () => {
  it('delivers the same messages however the byte stream is split (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(itemArb, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 24 }), async (items, cuts) => {
        const bytes = encode(items);
        const whole = await readChunks([bytes]);
        const split = await readChunks(splitAt(bytes, cuts));
        const oneByteEach = await readChunks([...bytes].map((b) => Buffer.from([b])));
        const expected = expectedMessages(items);
        assert.deepEqual(whole.messages, expected);
        assert.deepEqual(split.messages, expected);
        assert.deepEqual(oneByteEach.messages, expected);
        const noise = items.filter((it) => it.kind === 'noise' && /[^ \t\r]/.test(it.value)).length;
        assert.equal(split.stats.noiseLines, noise);
        assert.equal(split.stats.invalidUtf8Lines, 0);
      }),
      { numRuns: 150 },
    );
  });

  it('does not split a message on U+2028 / U+2029 inside a string', async () => {
    const msg = { jsonrpc: '2.0', method: 'x', params: { text: 'a\u2028b\u2029c' } };
    const line = `${JSON.stringify(msg)}\n`;
    assert.ok(line.includes('\u2028'), 'JSON.stringify leaves U+2028 raw, so the bytes E2 80 A8 are on the wire');
    const { messages } = await readChunks([Buffer.from(line)]);
    assert.deepEqual(messages, [msg]);
  });

  it('reassembles a UTF-8 character split across chunks', async () => {
    const bytes = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { t: '😀é' } })}\n`);
    const at = bytes.indexOf(Buffer.from('😀')) + 2; // inside the 4-byte sequence
    const { messages, stats } = await readChunks([bytes.subarray(0, at), bytes.subarray(at)]);
    assert.deepEqual(messages, [{ jsonrpc: '2.0', method: 'x', params: { t: '😀é' } }]);
    assert.equal(stats.invalidUtf8Lines, 0);
  });

  it('tolerates CRLF line endings and blank lines', async () => {
    const a = { jsonrpc: '2.0', method: 'a' };
    const b = { jsonrpc: '2.0', method: 'b', params: { x: 1 } };
    const { messages, stats } = await readChunks([Buffer.from(`${JSON.stringify(a)}\r\n\r\n  \n${JSON.stringify(b)}\r\n`)]);
    assert.deepEqual(messages, [a, b]);
    assert.equal(stats.noiseLines, 0);
  });

  it('counts and logs noise lines and keeps going', async () => {
    const logs: LogEntry[] = [];
    const stream = Readable.from([Buffer.from('Starting agent v1.2…\n{not json}\n42\n["x"]\n{"jsonrpc":"2.0","method":"ok"}\n')]);
    const reader = new NdjsonMessageReader(stream, {
      logger: {
        log: (level, message) => {
          logs.push({ level, message });
        },
      },
    });
    const got: Message[] = [];
    const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
    reader.listen((m) => {
      got.push(m);
    });
    await closed;
    assert.deepEqual(
      got.map((m) => (m as unknown as { method: string }).method),
      ['ok', END_OF_STREAM_METHOD],
    );
    assert.equal(reader.stats.noiseLines, 4); // log line, bad JSON, a number, a batch entry that is not an object
    assert.ok(
      logs.some((l) => l.message.includes('Starting agent')),
      'the noise is logged',
    );
  });

  it('decodes invalid UTF-8 with U+FFFD, counts it, and delivers the message', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","method":"m","params":{"t":"a'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('b"}}\n'),
      Buffer.from('{"jsonrpc":"2.0","method":"after"}\n'),
    ]);
    const { messages, stats } = await readChunks([bytes]);
    assert.deepEqual(messages, [
      { jsonrpc: '2.0', method: 'm', params: { t: 'a\uFFFD\uFFFDb' } },
      { jsonrpc: '2.0', method: 'after' },
    ]);
    assert.equal(stats.invalidUtf8Lines, 1);
  });

  it('drops an over-cap line without buffering it, and delivers a large under-cap line next to it', async () => {
    const cap = 256 * 1024;
    // A stream the reader may pause: on a busy machine it hands the rest of a read to the next turn.
    const src = Object.assign(new EventEmitter(), { pause: () => src, resume: () => src });
    const errors: Error[] = [];
    const reader = new NdjsonMessageReader(src as unknown as NodeJS.ReadableStream, { maxLineBytes: cap });
    reader.onError((e) => errors.push(e));
    const got: Message[] = [];
    const ended = new Promise<void>((resolve) => {
      reader.listen((m) => {
        got.push(m);
        if ((m as unknown as { method?: string }).method === END_OF_STREAM_METHOD) resolve();
      });
    });

    const big = { jsonrpc: '2.0', method: 'big', params: { data: 'x'.repeat(cap - 100) } };
    const bigLine = Buffer.from(`${JSON.stringify(big)}\n`);
    assert.ok(bigLine.length - 1 <= cap && bigLine.length - 1 > cap - 100);
    src.emit('data', bigLine);

    const chunk = Buffer.alloc(64 * 1024, 0x61);
    src.emit('data', Buffer.from('{"jsonrpc":"2.0","method":"huge","params":{"d":"'));
    for (let i = 0; i < 20; i++) {
      src.emit('data', chunk); // 1.25 MiB in all, well over the cap
      if (i >= 4) assert.equal(reader.bufferedBytes, 0, 'an over-cap line is not buffered');
    }
    src.emit('data', Buffer.from('"}}\n{"jsonrpc":"2.0","method":"after"}\n'));
    src.emit('end');
    await ended;

    assert.deepEqual(
      got.map((m) => (m as unknown as { method: string }).method),
      ['big', 'after', END_OF_STREAM_METHOD],
    );
    assert.equal((got[0] as unknown as typeof big).params.data.length, cap - 100);
    assert.equal(reader.stats.oversizeLines, 1);
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof OversizeLineError);
    assert.ok((errors[0] as OversizeLineError).bytes > cap);
  });

  it('delivers a final line that has no newline at end of stream', async () => {
    const { messages } = await readChunks([Buffer.from('{"jsonrpc":"2.0","method":"last"}')]);
    assert.deepEqual(messages, [{ jsonrpc: '2.0', method: 'last' }]);
  });
});

// ------------------------------------------------------------------ connection

describe('NdjsonMessageReader: a long read does not hold the event loop', () => {
  it('handles the lines of one read a slice at a time, pausing the stream between slices, all in order', async () => {
    const stream = new PassThrough();
    const reader = new NdjsonMessageReader(stream);
    const got: number[] = [];
    const turns: number[] = []; // how many messages had arrived each time the event loop turned
    let turning = true;
    const tick = (): void => {
      turns.push(got.length);
      if (turning) setImmediate(tick);
    };
    setImmediate(tick);
    const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
    let pausedSeen = false;
    reader.listen((m) => {
      const n = (m as { params?: { n: number } }).params?.n;
      if (n === undefined) return;
      got.push(n);
      pausedSeen ||= stream.isPaused();
      const until = performance.now() + 1;
      while (performance.now() < until) {
        /* a message that takes 1 ms to handle */
      }
    });
    // 60 lines in one write: about 60 ms of handling.
    stream.write(Array.from({ length: 60 }, (_, n) => JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { n } })).join('\n') + '\n');
    stream.end();
    await closed;
    turning = false;
    assert.deepEqual(
      got,
      Array.from({ length: 60 }, (_, n) => n),
      'every message, in order',
    );
    const between = turns.filter((k) => k > 0 && k < 60);
    assert.ok(between.length >= 3, `the event loop turned while the read was handled (at ${turns.join(', ')})`);
    assert.ok(pausedSeen, 'the stream was paused while lines waited');
  });

  it('shares one slice per turn among all connections, which take turns', async () => {
    const streams = [new PassThrough(), new PassThrough()];
    const got: string[] = [];
    const turns: number[] = []; // messages handled (both readers) each time the event loop turned
    let turning = true;
    const tick = (): void => {
      turns.push(got.length);
      if (turning) setImmediate(tick);
    };
    setImmediate(tick);
    const closed = streams.map((stream, r) => {
      const reader = new NdjsonMessageReader(stream);
      const done = new Promise<void>((resolve) => reader.onClose(() => resolve()));
      reader.listen((m) => {
        const n = (m as { params?: { n: number } }).params?.n;
        if (n === undefined) return;
        got.push(`${r}:${n}`);
        const until = performance.now() + 1;
        while (performance.now() < until) {
          /* a message that takes 1 ms to handle */
        }
      });
      return done;
    });
    // Two agents, 40 lines each in one write: about 80 ms of handling.
    for (const stream of streams) {
      stream.write(Array.from({ length: 40 }, (_, n) => JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { n } })).join('\n') + '\n');
      stream.end();
    }
    await Promise.all(closed);
    turning = false;
    for (const r of [0, 1]) {
      const mine = got.filter((x) => x.startsWith(`${r}:`));
      assert.deepEqual(
        mine,
        Array.from({ length: 40 }, (_, n) => `${r}:${n}`),
        `reader ${r}: every message, in order`,
      );
    }
    const perTurn = turns.slice(1).map((k, i) => k - turns[i]!);
    // One budget (8 ms) for both: a turn handles at most ~9 one-millisecond messages, not ~18.
    assert.ok(Math.max(...perTurn) <= 12, `messages handled per turn, both connections together: ${perTurn.join(', ')}`);
    const firstOf1 = got.indexOf('1:0');
    const lastOf0 = got.indexOf('0:39');
    assert.ok(firstOf1 < lastOf0, `the second connection's messages begin before the first's end (at ${firstOf1} of ${got.length})`);
  });

  it("the slice is the event loop turn's: many reads in one turn are handled a slice at a time", async () => {
    const stream = new PassThrough();
    const reader = new NdjsonMessageReader(stream);
    const got: number[] = [];
    const turns: number[] = [];
    let turning = true;
    const tick = (): void => {
      turns.push(got.length);
      if (turning) setImmediate(tick);
    };
    setImmediate(tick);
    const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
    reader.listen((m) => {
      const n = (m as { params?: { n: number } }).params?.n;
      if (n === undefined) return;
      got.push(n);
      const until = performance.now() + 1;
      while (performance.now() < until) {
        /* a message that takes 1 ms to handle */
      }
    });
    // 60 reads of one line each, all in this turn (a busy pipe: many reads per turn of the loop).
    for (let n = 0; n < 60; n++) stream.write(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { n } }) + '\n');
    stream.end();
    await closed;
    turning = false;
    assert.deepEqual(
      got,
      Array.from({ length: 60 }, (_, n) => n),
      'every message, in order',
    );
    const between = turns.filter((k) => k > 0 && k < 60);
    assert.ok(between.length >= 3, `the event loop turned while the reads were handled (at ${turns.join(', ')})`);
  });
});
