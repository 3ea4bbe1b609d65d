// Redaction of secrets in free text and command lines, for the logs and the wire trace. One pass
// over whitespace-separated words (linear; regular expressions only on bounded pieces). Masked:
//   - the value after a secret-looking flag: `--token X`, `--api-key=X`, `--password X`, `--key X`;
//   - header values: `-H "Authorization: Bearer X"`, `--header=Cookie:…`, and a credential header
//     anywhere (`Authorization: …`, `X-Api-Key: …`) up to the end of its quotes or line; a
//     `Bearer X`/`Basic X` credential anywhere; `-u user:PASSWORD`;
//   - `NAME=value` and `name: value` when the name announces a secret (`OPENAI_API_KEY=…`);
//   - in URLs (any scheme, redactUrls.ts): the user info, every query value, and path segments that look like
//     keys (secretShapes.ts);
//   - words that are keys by their shape anywhere (`sk-…`, `ghp_…`, `xoxb-…`, a JWT…).
// Names stay readable (`--token ***`, `Authorization: Bearer ***`, `?api_key=***`).
import { isSpace, redactUrls } from './redactUrls';
import { MASK, hasKeyPrefix, isAuthScheme, isSecretHeader, isSecretName, maskKnownSecrets } from './secretShapes';

type Pending =
  | undefined
  | 'value' // the next word is a secret
  | 'credential' // the next word is masked if it looks like a credential (after `Bearer`)
  | 'header' // the next word starts a header (`Name: value`)
  | 'userpass' // the next word is `user:password`
  | 'rest' // a header value continues to the end of the quotes (or of the line)
  | 'restFirst'; // … and this is its first word (an auth scheme is kept)

const HEADER_FLAGS = new Set(['-H', '--header', '--proxy-header', '--headers']);
const USER_FLAGS = new Set(['-u', '--user', '--proxy-user']);

/** Carries flag and quote state from word to word (and from argument to argument). */
class Scanner {
  pending: Pending;
  /** The quote open before this word (free text), if any. */
  quote: string | undefined;
  /** The quote a value in this word ends at: the open one, or one this word opens. */
  private active: string | undefined;

  /** One word (no whitespace in it); returns it, redacted. */
  word(w: string): string {
    const p = this.pending;
    this.pending = undefined;
    this.active = this.quote ?? (w[0] === '"' || w[0] === "'" ? w[0] : undefined);
    let out: string;
    switch (p) {
      case 'value':
        out = maskWord(w);
        break;
      case 'credential':
        out = w.length >= 8 ? maskWord(w) : this.plain(w);
        break;
      case 'userpass':
        out = maskAfter(w, w.indexOf(':'));
        break;
      case 'header':
        out = this.header(w);
        break;
      case 'rest':
      case 'restFirst':
        out = this.rest(w, p === 'restFirst');
        break;
      case undefined:
        out = this.plain(w);
        break;
      default:
        out = p satisfies never;
    }
    this.trackQuotes(w);
    return out;
  }

  /** A line break (free text) or the end of an argument: header values end there. */
  boundary(): void {
    if (this.pending === 'rest' || this.pending === 'restFirst') this.pending = undefined;
    this.quote = undefined;
  }

  private trackQuotes(w: string): void {
    const first = w[0];
    if (this.quote === undefined) {
      if ((first === '"' || first === "'") && !(w.length > 1 && w.endsWith(first))) this.quote = first;
    } else if (w.endsWith(this.quote)) {
      this.quote = undefined;
    }
  }

  /** Inside a credential header's value: everything is masked to the closing quote. */
  private rest(w: string, first: boolean): string {
    const close = this.active === undefined ? -1 : w.indexOf(this.active);
    const body = close === -1 ? w : w.slice(0, close);
    if (close === -1) this.pending = 'rest';
    if (first && isAuthScheme(body)) {
      if (close === -1) this.pending = 'rest';
      return w;
    }
    return close === -1 ? MASK : MASK + w.slice(close);
  }

  /** `Name:value…` or `Name:` (the value in the next words), after `-H` or as a word of text. */
  private header(w: string): string {
    let lead = 0;
    while (lead < w.length && (w[lead] === '"' || w[lead] === "'")) lead++;
    const colon = w.indexOf(':', lead);
    if (colon <= lead || !isSecretHeader(w.slice(lead, colon))) return this.plain(w);
    const after = w.slice(colon + 1);
    if (after === '' || after === '"' || after === "'") {
      this.pending = 'restFirst';
      return w;
    }
    // The value starts in this word (`Authorization:Bearer`…).
    const close = this.active ? after.indexOf(this.active) : -1;
    if (close === -1) this.pending = 'rest';
    const kept = isAuthScheme(close === -1 ? after : after.slice(0, close));
    if (kept) return w;
    return `${w.slice(0, colon + 1)}${MASK}${close === -1 ? '' : after.slice(close)}`;
  }

  /** A word with no pending state: flags, headers, assignments, URLs, key-shaped words. */
  private plain(w: string): string {
    const quotes = w[0] === '"' || w[0] === "'" ? 1 : 0;
    if (w[quotes] === '-' && w.length > quotes + 1) {
      const flag = this.flag(w.slice(quotes));
      if (flag !== undefined) return w.slice(0, quotes) + flag;
    }
    if (w.includes('://')) return maskKeys(redactUrls(w));
    let lead = 0;
    while (lead < w.length && (w[lead] === '"' || w[lead] === "'" || w[lead] === '{' || w[lead] === '(')) lead++;
    const colon = w.indexOf(':', lead);
    if (colon > lead) {
      const name = stripQuotes(w.slice(lead, colon));
      if (isCredentialHeader(name)) return w.slice(0, lead) + this.header(w.slice(lead));
    }
    let r = w;
    if (colon !== -1) {
      const pairs = maskColonPairs(r);
      r = pairs.text;
      if (pairs.valueNext) this.pending = 'value';
    }
    if (r.indexOf('=', lead) > lead) r = maskAssignments(r, lead);
    if (r !== w) return maskKeys(r);
    const core = stripQuotes(w).toLowerCase();
    if (core === 'bearer' || core === 'basic') this.pending = 'credential';
    return maskKeys(w);
  }

  private flag(w: string): string | undefined {
    const eq = w.indexOf('=');
    const name = eq === -1 ? w : w.slice(0, eq);
    if (HEADER_FLAGS.has(name)) {
      if (eq === -1) {
        this.pending = 'header';
        return w;
      }
      return w.slice(0, eq + 1) + this.header(w.slice(eq + 1));
    }
    if (eq === -1 && w.startsWith('-H') && w.length > 2 && w[1] === 'H' && w[2] !== '-') return `-H${this.header(w.slice(2))}`;
    if (USER_FLAGS.has(name)) {
      if (eq === -1) {
        this.pending = 'userpass';
        return w;
      }
      return w.slice(0, eq + 1) + maskAfter(w.slice(eq + 1), w.slice(eq + 1).indexOf(':'));
    }
    if (!isSecretName(name)) return undefined;
    if (eq === -1) {
      this.pending = 'value';
      return w;
    }
    return `${name}=${maskWord(w.slice(eq + 1))}`;
  }
}

/** Redacts free text (a command line, a log line, a message). */
export function redactText(text: string): string {
  const s = maskKnownSecrets(text);
  const sc = new Scanner();
  let out = '';
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) {
      let j = i;
      while (j < n && isSpace(s.charCodeAt(j))) {
        if (s.charCodeAt(j) === 0x0a) sc.boundary();
        j++;
      }
      out += s.slice(i, j);
      i = j;
      continue;
    }
    let j = i;
    while (j < n && !isSpace(s.charCodeAt(j))) j++;
    out += sc.word(s.slice(i, j));
    i = j;
  }
  return out;
}

/** Redacts a command's argument list: flags and their values may be separate arguments. */
export function redactArgList(args: readonly string[]): string[] {
  const sc = new Scanner();
  return args.map((a) => {
    const pending = sc.pending;
    // An argument is one shell word: after `--token`, all of it is the value.
    if (pending === 'value') {
      sc.pending = undefined;
      return MASK;
    }
    const out = redactWordsOf(sc, maskKnownSecrets(a));
    sc.boundary();
    return out;
  });
}

function redactWordsOf(sc: Scanner, a: string): string {
  let out = '';
  let i = 0;
  while (i < a.length) {
    let j = i;
    if (isSpace(a.charCodeAt(i))) {
      while (j < a.length && isSpace(a.charCodeAt(j))) j++;
      out += a.slice(i, j);
    } else {
      while (j < a.length && !isSpace(a.charCodeAt(j))) j++;
      out += sc.word(a.slice(i, j));
    }
    i = j;
  }
  return out;
}

// ------------------------------------------------------------------ pieces

function stripQuotes(w: string): string {
  let a = 0;
  let b = w.length;
  while (a < b && (w[a] === '"' || w[a] === "'")) a++;
  while (b > a && (w[b - 1] === '"' || w[b - 1] === "'" || w[b - 1] === ',' || w[b - 1] === ';')) b--;
  return w.slice(a, b);
}

/** The whole word masked; surrounding quotes and a trailing `,`/`;`/`)` kept. */
function maskWord(w: string): string {
  let a = 0;
  let b = w.length;
  while (a < b && (w[a] === '"' || w[a] === "'")) a++;
  while (b > a && isWordTail(w[b - 1])) b--;
  return a === b ? w : `${w.slice(0, a)}${MASK}${w.slice(b)}`;
}

function isWordTail(c: string | undefined): boolean {
  return c === '"' || c === "'" || c === ',' || c === ';' || c === ')' || c === '}' || c === ']';
}

/** Header names whose value is a credential (as opposed to `password:` in text, a key-value). */
function isCredentialHeader(name: string): boolean {
  const n = name.toLowerCase();
  return n === 'authorization' || n === 'proxy-authorization' || n === 'cookie' || n === 'set-cookie' || (n.startsWith('x-') && isSecretName(n));
}

/** Everything after index `at` masked (the whole word when `at` is -1, e.g. `-u TOKEN`). */
function maskAfter(w: string, at: number): string {
  return at === -1 ? maskWord(w) : w.slice(0, at + 1) + maskWord(w.slice(at + 1));
}

/**
 * `name:value` pairs in a word (`{"password":"x","user":"bob"}`, `token:abc`): values of secret
 * names masked; `valueNext` when the word ends with a secret name and its colon (`password:`).
 */
function maskColonPairs(w: string): { text: string; valueNext: boolean } {
  let out = '';
  let done = 0;
  let i = w.indexOf(':');
  while (i !== -1) {
    let a = i;
    while (a > done && !isNameBreak(w.charCodeAt(a - 1))) a--;
    if (!isSecretName(stripQuotes(w.slice(a, i)))) {
      i = w.indexOf(':', i + 1);
      continue;
    }
    let v = i + 1;
    const q = w[v];
    if (v >= w.length || ((q === '"' || q === "'") && v + 1 >= w.length)) return { text: out + w.slice(done), valueNext: true };
    let end: number;
    if (q === '"' || q === "'") {
      v++;
      end = w.indexOf(q, v);
      if (end === -1) end = w.length;
    } else {
      end = v;
      while (end < w.length && !isValueEnd(w.charCodeAt(end))) end++;
    }
    out += `${w.slice(done, v)}${MASK}`;
    done = end;
    i = w.indexOf(':', end);
  }
  return { text: out + w.slice(done), valueNext: false };
}

function isNameBreak(c: number): boolean {
  return c === 0x7b || c === 0x2c || c === 0x28 || c === 0x5b || c === 0x3b || c === 0x3a; // { , ( [ ; :
}

function isValueEnd(c: number): boolean {
  return c === 0x2c || c === 0x3b || c === 0x7d || c === 0x5d || c === 0x29 || c === 0x26; // , ; } ] ) &
}

/** `NAME=value` pairs (joined by `&`, `;` or `,`): values of secret names masked. */
function maskAssignments(w: string, from: number): string {
  let out = w.slice(0, from);
  let i = from;
  while (i <= w.length) {
    let j = i;
    while (j < w.length && w[j] !== '&' && w[j] !== ';' && w[j] !== ',') j++;
    const pair = w.slice(i, j);
    const eq = pair.indexOf('=');
    out += eq > 0 && isSecretName(pair.slice(0, eq)) ? `${pair.slice(0, eq + 1)}${maskWord(pair.slice(eq + 1))}` : pair;
    if (j < w.length) out += w[j];
    i = j + 1;
  }
  return out;
}

/** Key-shaped pieces of a word (split on characters a key never contains) masked. */
function maskKeys(w: string): string {
  let out = '';
  let i = 0;
  while (i < w.length) {
    let j = i;
    while (j < w.length && !isPieceBreak(w.charCodeAt(j))) j++;
    const piece = w.slice(i, j);
    out += piece.length >= 10 && hasKeyPrefix(piece) ? MASK : piece;
    if (j < w.length) out += w[j];
    i = j + 1;
  }
  return out;
}

function isPieceBreak(c: number): boolean {
  // " ' ` = : , ; ( ) [ ] { } < > & ? # / @ \
  return (
    c === 0x22 ||
    c === 0x27 ||
    c === 0x60 ||
    c === 0x3d ||
    c === 0x3a ||
    c === 0x2c ||
    c === 0x3b ||
    c === 0x28 ||
    c === 0x29 ||
    c === 0x5b ||
    c === 0x5d ||
    c === 0x7b ||
    c === 0x7d ||
    c === 0x3c ||
    c === 0x3e ||
    c === 0x26 ||
    c === 0x3f ||
    c === 0x23 ||
    c === 0x2f ||
    c === 0x40 ||
    c === 0x5c
  );
}
