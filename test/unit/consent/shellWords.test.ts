import assert from 'node:assert/strict';
import { MAX_LINE, quoteWords, shellWords } from '../../../src/consent/shellWords';

const words = (line: string): string[] | string => {
  const r = shellWords(line);
  return r.ok ? r.words : r.reason;
};

describe('shellWords — a simple command or a refusal', () => {
  it('splits words with quotes and escapes as a POSIX shell does', () => {
    assert.deepEqual(words('npm test'), ['npm', 'test']);
    assert.deepEqual(words('  git\tlog   --oneline  '), ['git', 'log', '--oneline']);
    assert.deepEqual(words(`echo 'a b' "c d" e\\ f "" ''`), ['echo', 'a b', 'c d', 'e f', '', '']);
    assert.deepEqual(words(`echo "a\\"b" "a\\\\b" "a\\nb" 'a\\b'`), ['echo', 'a"b', 'a\\b', 'a\\nb', 'a\\b']);
    assert.deepEqual(words(`echo 'it'\\''s'`), ['echo', "it's"]);
    assert.deepEqual(words('git diff HEAD~1 HEAD^ main..feature a=b'), ['git', 'diff', 'HEAD~1', 'HEAD^', 'main..feature', 'a=b']);
    assert.deepEqual(words("echo '*' \"?\" '$HOME' '~'"), ['echo', '*', '?', '$HOME', '~']);
  });

  it('refuses what a shell would chain, substitute, redirect or expand', () => {
    const cases: [string, string][] = [
      ['a; b', 'compound'],
      ['a && b', 'compound'],
      ['a || b', 'compound'],
      ['a | b', 'compound'],
      ['a & b', 'compound'],
      ['(a)', 'compound'],
      ['a # c', 'compound'],
      ['a $X', 'substitution'],
      ['a "$X"', 'substitution'],
      ['a $(b)', 'substitution'],
      ['a `b`', 'substitution'],
      ['a "`b`"', 'substitution'],
      ["a $'x'", 'substitution'],
      ['a > b', 'redirect'],
      ['a < b', 'redirect'],
      ['a 2>&1', 'redirect'],
      ['rm *', 'pattern'],
      ['ls ?', 'pattern'],
      ['ls [ab]', 'pattern'],
      ['echo {a,b}', 'pattern'],
      ['cat ~/x', 'pattern'],
      ['A=~/x b', 'pattern'],
      ['x a:~/b', 'pattern'],
      ['a\nb', 'control'],
      ['a\rb', 'control'],
      ['a\u0000', 'control'],
      ['a\u202Eb', 'control'],
      ['a\u200Bb', 'control'],
      ['a\u2028b', 'control'],
      ["a 'b", 'unterminated'],
      ['a "b', 'unterminated'],
      ['a \\', 'unterminated'],
      ['', 'empty'],
      ['   ', 'empty'],
    ];
    for (const [line, reason] of cases) assert.equal(words(line), reason, JSON.stringify(line));
  });

  it('has bounds: length and word count; a hostile 1 MiB line is refused at once', () => {
    assert.equal(words('a'.repeat(MAX_LINE + 1)), 'too_long');
    assert.equal(words('a '.repeat(300)), 'too_long');
    assert.equal(words("'".repeat(1 << 20)), 'too_long');
    // Linear scanning: the longest accepted line of alternating quotes is split in one pass.
    const r = shellWords(`x ${"'a'".repeat(1300)}`);
    assert.ok(r.ok && r.words[1]!.length === 1300);
  });

  it('quoteWords is read back unchanged', () => {
    for (const w of [
      ['npm', 'test'],
      ['echo', "it's", 'a b', '', '$HOME', '*', '~', 'a"b', 'a\\b', '-n', '--x=y'],
    ]) {
      assert.deepEqual(words(quoteWords(w)), w);
    }
    assert.equal(quoteWords(['git', 'log', '--format=%H']), 'git log --format=%H');
    assert.equal(quoteWords(['echo', 'a b']), "echo 'a b'");
  });
});
