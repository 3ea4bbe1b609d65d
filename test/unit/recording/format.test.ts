// The recording file format: what we write reads back (header, time, direction, message), the
// interop suite's recordings read as they are, and bad lines are reported by number and skipped,
// never a failed read, including hostile ones (deep nesting, garbage, huge counts).
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { describeBadLines, headerLine, indexRecording, messageLine, readMessage, RECORDING_FORMAT } from '../../../src/recording/format';
import { fixture } from './support';

const buf = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('recording format', () => {
  it('reads back what it writes: header, time, direction and message, in order', () => {
    const t0 = Date.UTC(2025, 4, 1, 12, 0, 0, 123);
    const text =
      headerLine({ agent: 'Demo Agent', agentId: 'demo', redacted: true }) +
      messageLine('send', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, t0) +
      messageLine('receive', { jsonrpc: '2.0', id: 1, result: { protocolVersion: 2 } }, t0 + 250);
    const bytes = buf(text);
    const index = indexRecording(bytes);
    assert.equal(index.header?.format, RECORDING_FORMAT);
    assert.equal(index.header?.agentId, 'demo');
    assert.deepEqual(index.bad, []);
    const [a, b] = index.messages.map((r) => readMessage(bytes, r));
    assert.deepEqual([a.line, a.dir, a.time, a.msgs[0].method], [2, 'send', t0, 'initialize']);
    assert.deepEqual([b.line, b.dir, b.time, b.msgs[0].id], [3, 'receive', t0 + 250, 1]);
  });

  it('reads the interop recordings ({"dir","msg"} lines without times)', () => {
    const bytes = fixture('codex-acp-0.16.0.ndjson');
    const index = indexRecording(bytes);
    assert.equal(index.header?.agent, 'codex-acp');
    assert.equal(index.messages.length, 23);
    assert.deepEqual(index.bad, []);
    const first = readMessage(bytes, index.messages[0]);
    assert.equal(first.time, undefined);
    assert.equal(first.dir, 'send');
    assert.equal(first.msgs[0].method, 'initialize');
  });

  it('reports bad lines by number with the reason, skips them, and keeps every good line', () => {
    const good = (id: number) => JSON.stringify({ dir: 'receive', msg: { jsonrpc: '2.0', id, result: {} } });
    const lines = [
      good(1),
      '{not json',
      JSON.stringify({ dir: 'sideways', msg: { jsonrpc: '2.0', method: 'x' } }),
      '',
      JSON.stringify({ dir: 'send', msg: { hello: 1 } }),
      `{"dir":"send","msg":${'['.repeat(200)}${']'.repeat(200)}}`,
      '   ',
      `${good(2)}\r`,
      '[1,2]',
      JSON.stringify({ recording: { agent: 'late header' } }),
      good(3),
    ];
    const bytes = buf(lines.join('\n'));
    const index = indexRecording(bytes);
    assert.deepEqual(
      index.messages.map((r) => r.line),
      [1, 8, 11],
    );
    assert.deepEqual(
      index.messages.map((r) => readMessage(bytes, r).msgs[0].id),
      [1, 2, 3],
    );
    assert.deepEqual(
      index.bad.map((b) => b.line),
      [2, 3, 5, 6, 9, 10],
    );
    assert.match(index.bad[0].reason, /not JSON/);
    assert.match(index.bad[3].reason, /nested deeper/);
    const text = describeBadLines(index)!;
    assert.match(text, /^6 of 9 lines could not be read and were skipped: line 2 \(not JSON\), line 3 /);
    assert.match(text, /and 1 more\.$/);
  });

  it('a batch (array of messages) is one line of several messages', () => {
    const bytes = buf(
      JSON.stringify({
        dir: 'receive',
        msg: [
          { jsonrpc: '2.0', method: 'a' },
          { jsonrpc: '2.0', method: 'b' },
        ],
      }),
    );
    const m = readMessage(bytes, indexRecording(bytes).messages[0]);
    assert.deepEqual(
      m.msgs.map((x) => x.method),
      ['a', 'b'],
    );
  });

  it('a million-deep line is refused before parsing (no stack overflow), in linear time', () => {
    const deep = `{"dir":"send","msg":${'['.repeat(1_000_000)}`;
    const t = performance.now();
    const index = indexRecording(buf(`${deep}\n${deep}`));
    assert.deepEqual(
      index.bad.map((b) => b.line),
      [1, 2],
    );
    assert.ok(performance.now() - t < 2000);
  });

  it('never throws on arbitrary input; every non-blank line is either a message or a bad line', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.json(), fc.constant('{"dir":"send","msg":{"method":"m"}}'))), (lines) => {
        const index = indexRecording(buf(lines.join('\n')));
        const nonBlank = lines
          .join('\n')
          .split('\n')
          .filter((l) => !/^[ \t]*\r?$/.test(l)).length;
        assert.equal(index.messages.length + index.bad.length + (index.header ? 1 : 0), nonBlank);
      }),
      { numRuns: 300 },
    );
  });
});
