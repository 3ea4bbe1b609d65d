// What a secret looks like, for redaction (redactText.ts): names that announce one, and values
// that are one by their shape. Every check here works on one bounded piece (a name, a URL path
// segment, a word): no regular expression ever runs over unbounded text.

export const MASK = '***';

/**
 * Values known to be secrets whatever their shape: the secrets a remote agent's headers named
 * (`${secret:NAME}`), added when they are read from SecretStorage for a connection. Masked wherever
 * they appear, before any other rule.
 */
const knownSecrets = new Set<string>();

/** Masks `value` from now on (values shorter than 4 characters are ignored: they would mask ordinary text). */
export function addKnownSecret(value: string): void {
  if (value.length >= 4) knownSecrets.add(value);
}

/** `s` with every known secret replaced by MASK. */
export function maskKnownSecrets(s: string): string {
  if (knownSecrets.size === 0) return s;
  let out = s;
  for (const v of knownSecrets) if (out.includes(v)) out = out.split(v).join(MASK);
  return out;
}

/** Longest name checked (a longer "name" is text, not a flag or a key). */
const MAX_NAME = 64;

/** Parts of a name (flag, variable, key) that announce a secret value. */
const SECRET_PARTS = [
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'apikey',
  'api-key',
  'api_key',
  'accesskey',
  'access-key',
  'access_key',
  'privatekey',
  'private-key',
  'private_key',
  'credential',
  'cookie',
  'bearer',
  'authorization',
];
/** Whole names that do. */
const SECRET_NAMES = new Set(['key', 'pass', 'pw', 'auth', 'private', 'client-key', 'client_key']);

/** `--api-key`, `OPENAI_API_KEY`, `"password"`, `X-Auth-Token`: a name whose value is a secret. */
export function isSecretName(raw: string): boolean {
  if (raw.length === 0 || raw.length > MAX_NAME) return false;
  let start = 0;
  while (start < raw.length && (raw[start] === '-' || raw[start] === '"' || raw[start] === "'")) start++;
  let end = raw.length;
  while (end > start && (raw[end - 1] === '"' || raw[end - 1] === "'")) end--;
  const name = raw.slice(start, end).toLowerCase();
  if (SECRET_NAMES.has(name)) return true;
  if (SECRET_PARTS.some((p) => name.includes(p))) return true;
  // `auth` as a part (`x-auth-token`, `auth_header`, `basic-auth`), but not `author`.
  const i = name.indexOf('auth');
  return i !== -1 && !name.startsWith('or', i + 4);
}

/**
 * A JSON member whose value is a secret (`apiKey`, `password`, `authorization`…). Narrower than
 * isSecretName: ACP's own fields (`authMethods`, `sessionId`) stay readable in the trace.
 */
export function isSecretField(key: string): boolean {
  if (key.length === 0 || key.length > MAX_NAME) return false;
  const k = key.toLowerCase();
  if (k === 'key' || k === 'pass' || k === 'pw' || k === 'private') return true;
  return SECRET_PARTS.some((p) => k.includes(p)) || k.includes('private');
}

/** HTTP headers whose value is a credential. */
export function isSecretHeader(name: string): boolean {
  const n = name.toLowerCase();
  return n === 'authorization' || n === 'proxy-authorization' || n === 'cookie' || n === 'set-cookie' || isSecretName(n);
}

/** Authorization schemes kept in front of a masked credential (`Bearer ***`). */
export function isAuthScheme(word: string): boolean {
  const w = word.toLowerCase();
  return w === 'bearer' || w === 'basic' || w === 'token' || w === 'digest' || w === 'bot' || w === 'apikey' || w === 'negotiate';
}

/** Prefixes of well-known key formats (OpenAI, GitHub, GitLab, Slack, AWS, Google, Hugging Face…). */
const KEY_PREFIXES = [
  'sk-',
  'sk_',
  'rk_',
  'pk_live_',
  'ghp_',
  'gho_',
  'ghu_',
  'ghs_',
  'ghr_',
  'github_pat_',
  'glpat-',
  'xoxa-',
  'xoxb-',
  'xoxp-',
  'xoxr-',
  'xoxs-',
  'xapp-',
  'AKIA',
  'ASIA',
  'AIza',
  'ya29.',
  'hf_',
  'npm_',
  'pypi-',
  'shpat_',
  'shpss_',
  'SG.',
  'dop_v1_',
  'sq0atp-',
  'eyJ',
];

function isKeyChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x2d ||
    c === 0x5f ||
    c === 0x2e ||
    c === 0x2b ||
    c === 0x2f ||
    c === 0x3d ||
    c === 0x7e
  ); // - _ . + / = ~
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** `sk-…`, `ghp_…`, `xoxb-…`, `AKIA…`, a JWT: a known key format with a body of 10+ key characters. */
export function hasKeyPrefix(word: string): boolean {
  for (const p of KEY_PREFIXES) {
    if (!word.startsWith(p)) continue;
    let body = 0;
    let digit = false;
    for (let i = p.length; i < word.length; i++) {
      const c = word.charCodeAt(i);
      if (!isKeyChar(c)) break;
      body++;
      if (isDigit(c)) digit = true;
    }
    if (body >= 20 || (body >= 10 && digit)) return true;
  }
  return false;
}

/**
 * A URL path segment (or fragment) that is a key by its shape: a known key format; a bot token
 * (`bot123:ABC…`, `123456:ABC…`); a long token with a run of 8+ characters mixing letters and
 * digits (random keys; not slugs like `2024-01-15-release-notes`); 32+ hex digits (dashes aside).
 */
export function looksLikeKey(segment: string): boolean {
  if (segment.length < 8 || segment.length > 4096) return segment.length > 4096;
  if (hasKeyPrefix(segment)) return true;
  const colon = segment.indexOf(':');
  if (colon > 0 && colon < segment.length - 1 && /^(bot)?\d{3,}$/i.test(segment.slice(0, colon))) return true;
  let alnum = 0;
  let hex = 0;
  let hexOnly = true;
  let run = 0;
  let runLetter = false;
  let runDigit = false;
  let mixedRun = false;
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    const letter = isLetter(c);
    const digit = isDigit(c);
    if (letter || digit) {
      alnum++;
      run++;
      runLetter ||= letter;
      runDigit ||= digit;
      if (run >= 8 && runLetter && runDigit) mixedRun = true;
    } else {
      run = 0;
      runLetter = false;
      runDigit = false;
    }
    if (isHex(c)) hex++;
    else if (c !== 0x2d) hexOnly = false;
  }
  return (alnum >= 20 && mixedRun) || (hexOnly && hex >= 32);
}
