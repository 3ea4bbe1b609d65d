import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { AnsiSanitizer, sanitizeTerminalText } from '../../../src/state/transcript/ansi';
import { TerminalBuffer } from '../../../src/state/terminalBuffer';
import { Transcript } from '../../../src/state/transcript';
import { b64, ev, S } from './builders';

describe('TerminalBuffer: bytes and UTF-8', () => {
  it('decodes a character split across base64 chunks', () => {
    const bytes = Buffer.from('é→😀', 'utf8'); // 2 + 3 + 4 bytes
    const t = new TerminalBuffer('t', 'display');
    // every byte in its own chunk, each chunk base64-encoded on its own
    for (const byte of bytes) t.appendBase64(b64(Uint8Array.of(byte)));
    assert.equal(t.text, 'é→😀');
    assert.ok(!t.text.includes('\uFFFD'));
  });

  it('gives the same text however a byte stream is cut into chunks (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.array(fc.nat(), { maxLength: 10 }), (s, cuts) => {
        const bytes = Buffer.from(s, 'utf8');
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const t = new TerminalBuffer('t', 'display');
        let prev = 0;
        for (const p of [...points, bytes.length]) {
          t.appendBase64(b64(bytes.subarray(prev, p)));
          prev = p;
        }
        assert.equal(t.text, sanitizeTerminalText(s));
      }),
    );
  });

  it('flushes an incomplete sequence as a replacement character on exit', () => {
    const t = new TerminalBuffer('t', 'display');
    t.appendBase64(b64(Uint8Array.of(0x61, 0xe2, 0x86)));
    assert.equal(t.text, 'a');
    t.finish();
    assert.equal(t.text, 'a\uFFFD');
  });

  it('replaces the buffer on a snapshot', () => {
    const tr = new Transcript();
    tr.apply(ev.termChunk('t1', b64('old output\n')));
    tr.apply(ev.termUpdate('t1', { command: 'ls', output: b64('new') }));
    tr.apply(ev.termChunk('t1', b64(' + more')));
    const t = tr.session(S)!.terminal('t1')!;
    assert.equal(t.text, 'new + more');
    assert.equal(t.command, 'ls');
    tr.apply(ev.termUpdate('t1', { exitStatus: { exitCode: 0 } }));
    assert.equal(t.text, 'new + more', 'an omitted output leaves the buffer');
    assert.deepEqual(t.exitStatus, { exitCode: 0 });
  });

  it('caps the text, dropping the oldest chunks', () => {
    const t = new TerminalBuffer('t', 'display', 100);
    for (let i = 0; i < 50; i++) t.appendText(`line ${String(i).padStart(3, '0')}\n`); // 9 chars each
    assert.ok(t.length <= 100);
    assert.ok(t.truncated);
    assert.ok(t.text.endsWith('line 049\n'));
    assert.ok(!t.text.includes('line 000'));
    assert.equal(t.textFrom(t.endChunkIndex - 1), 'line 049\n');
  });

  it('turns a growing client terminal text into appends', () => {
    const tr = new Transcript();
    const changes: unknown[] = [];
    tr.onDidChange((c) => changes.push(c));
    tr.setClientTerminalOutput(S, 'c1', 'npm test\n');
    tr.setClientTerminalOutput(S, 'c1', 'npm test\npassing\n');
    const t = tr.session(S)!.terminal('c1')!;
    assert.equal(t.text, 'npm test\npassing\n');
    assert.equal(t.chunkCount, 2, 'appended, not rebuilt');
    tr.setClientTerminalOutput(S, 'c1', 'truncated head\n', { exitCode: 1 });
    assert.equal(t.text, 'truncated head\n');
    assert.deepEqual(t.exitStatus, { exitCode: 1 });
    assert.deepEqual(changes, [
      { sessionId: S, kind: 'terminal', terminalId: 'c1', append: true },
      { sessionId: S, kind: 'terminal', terminalId: 'c1', append: true },
      { sessionId: S, kind: 'terminal', terminalId: 'c1', append: false },
    ]);
  });
});

describe('AnsiSanitizer', () => {
  it('removes colours, cursor moves, OSC titles and hyperlinks', () => {
    const raw = '\x1b[1;31mred\x1b[0m \x1b[2K\x1b[?25lok\x1b]0;title\x07 \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ \x1b(Bdone\x1bM';
    assert.equal(sanitizeTerminalText(raw), 'red ok link done');
  });

  it('handles sequences split across chunks', () => {
    const s = new AnsiSanitizer();
    const out = ['a\x1b', '[3', '1mb\x1b]0;ti', 'tle\x1b', '\\c'].map((c) => s.push(c)).join('');
    assert.equal(out, 'abc');
  });

  it('drops control characters, keeps tabs and newlines, maps CR to one newline', () => {
    assert.equal(sanitizeTerminalText('a\x00b\x07c\x08d\x7fe\tf\r\ng\rh\n'), 'abcde\tf\ng\nh\n');
    const s = new AnsiSanitizer();
    assert.equal(s.push('x\r') + s.push('\ny'), 'x\ny', 'CR LF split across chunks is one newline');
  });

  it('drops C1 controls and lets text after an aborted sequence through', () => {
    assert.equal(sanitizeTerminalText('a\u009bb'), 'ab');
    assert.equal(sanitizeTerminalText('\x1b[12é'), 'é');
  });

  it('never lets ESC or other controls through (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 20 }), { maxLength: 8 }), (chunks) => {
        const s = new AnsiSanitizer();
        const out = chunks.map((c) => s.push(c)).join('');
        const bad = [...out].filter((ch) => {
          const c = ch.charCodeAt(0);
          return (c < 0x20 && c !== 0x0a && c !== 0x09) || (c >= 0x7f && c <= 0x9f);
        });
        assert.deepEqual(bad, [], JSON.stringify(out));
      }),
    );
  });
});
