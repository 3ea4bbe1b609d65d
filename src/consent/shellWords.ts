// Shell words: splits a command line the way a POSIX shell would, for a deliberately small subset.
//
// Contract:
// - `shellWords(line)` returns the words of a *simple* command (spaces/tabs between words, single
//   quotes, double quotes, backslash escapes) or says why the line is not one. It never guesses:
//   anything a shell would chain (`;` `&` `|` newline), substitute (`$` and backticks, also inside
//   double quotes), redirect (`<` `>`), group (`(` `)`), comment (`#` at a word start) or expand
//   differently depending on the files present (unquoted `*` `?` `[` `]` `{` `}`, `~` at a word
//   start or after `=`/`:`) makes the line `unsupported`, and no rule is ever made from it or matches it.
// - Control characters and invisible direction/format characters are refused too: what the user
//   is shown must be what runs.
// - Linear time, one pass, no regular expressions; at most MAX_LINE characters and MAX_WORDS words.
//   A hand-written scanner rather than a library: rules need a *recognizer* that refuses everything
//   outside a safe subset, while shell parsing libraries try to accept everything (and expand `$VAR`
//   with an environment), which is the opposite of what consent needs.
// - `quoteWords(words)` is the inverse: `shellWords(quoteWords(w))` gives back `w` for any words
//   without refused characters. Used to show a rule's command exactly as it will be matched.

export const MAX_LINE = 4096;
export const MAX_WORDS = 256;

export type ShellWordsRefusal = 'empty' | 'too_long' | 'control' | 'compound' | 'substitution' | 'redirect' | 'pattern' | 'unterminated';
export type ShellWords = { ok: true; words: string[] } | { ok: false; reason: ShellWordsRefusal };

/** Why a command line gets no rule, in words for the user. */
export const REFUSAL_TEXT: Record<ShellWordsRefusal, string> = {
  empty: 'the command is empty',
  too_long: `the command is longer than ${MAX_LINE} characters or has more than ${MAX_WORDS} words`,
  control: 'the command contains control or invisible characters',
  compound: 'it chains several commands (;, &&, ||, |, &, a newline, parentheses or a comment)',
  substitution: 'it substitutes text when it runs ($VAR, $(…) or backticks)',
  redirect: 'it redirects input or output (< or >)',
  pattern: 'it contains a file pattern (*, ?, [ ], { } or a leading ~) whose meaning depends on the files present',
  unterminated: 'a quote or an escape is not closed',
};

/** C0/C1 controls, DEL, line/paragraph separators, bidi and zero-width format characters. */
export function isRefusedChar(c: number): boolean {
  if (c < 0x20) return c !== 0x09;
  if (c >= 0x7f && c <= 0x9f) return true;
  if (c === 0xad || c === 0x061c || c === 0x180e || c === 0xfeff) return true;
  if (c >= 0x200b && c <= 0x200f) return true;
  if (c >= 0x2028 && c <= 0x202e) return true;
  if (c >= 0x2060 && c <= 0x206f) return true;
  return c >= 0xfff9 && c <= 0xfffb;
}

const CHAIN = new Set([';', '&', '|', '(', ')', '\n', '\r']);
const PATTERN = new Set(['*', '?', '[', ']', '{', '}']);

export function shellWords(line: string): ShellWords {
  if (line.length > MAX_LINE) return { ok: false, reason: 'too_long' };
  for (let i = 0; i < line.length; i++) if (isRefusedChar(line.charCodeAt(i))) return { ok: false, reason: 'control' };
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const n = line.length;
  while (i < n) {
    const ch = line[i]!;
    if (ch === ' ' || ch === '\t') {
      if (inWord) {
        words.push(word);
        word = '';
        inWord = false;
        if (words.length > MAX_WORDS) return { ok: false, reason: 'too_long' };
      }
      i++;
      continue;
    }
    if (CHAIN.has(ch)) return { ok: false, reason: 'compound' };
    if (ch === '$' || ch === '`') return { ok: false, reason: 'substitution' };
    if (ch === '<' || ch === '>') return { ok: false, reason: 'redirect' };
    // `~` expands at a word start and after `=` or `:` (assignments, `a=~/x` in bash).
    const tilde = ch === '~' && (!inWord || line[i - 1] === '=' || line[i - 1] === ':');
    if (PATTERN.has(ch) || tilde) return { ok: false, reason: 'pattern' };
    if (ch === '#' && !inWord) return { ok: false, reason: 'compound' };
    if (ch === '\\') {
      if (i + 1 >= n) return { ok: false, reason: 'unterminated' };
      word += line[i + 1];
      inWord = true;
      i += 2;
      continue;
    }
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { ok: false, reason: 'unterminated' };
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (ch === '"') {
      const r = doubleQuoted(line, i + 1);
      if (!r.ok) return r;
      word += r.text;
      inWord = true;
      i = r.end + 1;
      continue;
    }
    word += ch;
    inWord = true;
    i++;
  }
  if (inWord) words.push(word);
  if (words.length > MAX_WORDS) return { ok: false, reason: 'too_long' };
  if (words.length === 0) return { ok: false, reason: 'empty' };
  return { ok: true, words };
}

/** The text of a double-quoted string starting at `from` (after the opening quote). */
function doubleQuoted(line: string, from: number): { ok: true; text: string; end: number } | { ok: false; reason: ShellWordsRefusal } {
  let text = '';
  for (let i = from; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"') return { ok: true, text, end: i };
    if (ch === '$' || ch === '`') return { ok: false, reason: 'substitution' };
    if (ch === '\\') {
      const next = line[i + 1];
      if (next === undefined) return { ok: false, reason: 'unterminated' };
      // Inside double quotes a backslash escapes only these; before anything else it is kept.
      if (next === '"' || next === '\\' || next === '$' || next === '`') {
        text += next;
        i++;
        continue;
      }
    }
    text += ch;
  }
  return { ok: false, reason: 'unterminated' };
}

const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Shell-quotes words so that `shellWords` reads them back unchanged; plain words stay bare. */
export function quoteWords(words: readonly string[]): string {
  return words.map((w) => (w !== '' && PLAIN.test(w) ? w : `'${w.split("'").join(`'\\''`)}'`)).join(' ');
}
