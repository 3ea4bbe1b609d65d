// The transcript's terminal buffer under appends from a client terminal: no second copy of the
// raw text grows with them, and a cut never keeps half of a character.
import { strict as assert } from 'node:assert';
import { TerminalBuffer } from '../../../src/state/terminalBuffer';
import { Transcript } from '../../../src/state/transcript';

const S = 'sess-1';

describe('TerminalBuffer: client terminal appends', () => {
  it('keeps no raw copy of appended text (memory stays at the cap), and a later snapshot replaces', () => {
    const t = new TerminalBuffer('c1', 'client', 1000);
    const chunk = 'x'.repeat(10_000);
    for (let i = 0; i < 100; i++) t.appendText(chunk); // 1,000,000 characters in
    assert.equal(t.length, 1000);
    // Internal, on purpose: the raw copy kept to diff snapshots is what grew without a bound.
    assert.equal((t as unknown as { lastRaw: string | null }).lastRaw, null);
    t.setText('fresh');
    assert.equal(t.text, 'fresh');
  });

  it('never keeps half a surrogate pair when one chunk is over the cap', () => {
    const t = new TerminalBuffer('c1', 'client', 3);
    t.appendText('a😀😀'); // a, high, low, high, low: the last 3 units start with a low surrogate
    assert.equal(t.text, '😀');
    assert.ok(t.truncated);
  });

  it('client output arrives as appends in the transcript, exit status last', () => {
    const tr = new Transcript();
    const changes: unknown[] = [];
    tr.onDidChange((c) => changes.push(c));
    tr.appendClientTerminalOutput(S, 'c1', '');
    tr.appendClientTerminalOutput(S, 'c1', 'one\n');
    tr.appendClientTerminalOutput(S, 'c1', 'two\n');
    tr.appendClientTerminalOutput(S, 'c1', '', { exitCode: 0, signal: null });
    const t = tr.session(S)!.terminal('c1')!;
    assert.equal(t.text, 'one\ntwo\n');
    assert.deepEqual(t.exitStatus, { exitCode: 0, signal: null });
    const appends = changes.filter((c) => (c as { kind?: string }).kind === 'terminal').map((c) => (c as { append: boolean }).append);
    // Output while running is appended; the exit re-renders once (it changes the header).
    assert.deepEqual(appends, [true, true, true, false]);
  });
});
