// The remote side of an `acp.agents` entry: a `url` instead of a `command` (the Remote Transports
// RFD: a WebSocket at `wss://…`, streamable HTTP at `https://…`; `ws://` and `http://` only to this
// machine), and `headers` whose values may name a secret kept in VS Code's SecretStorage:
// `"Authorization": "Bearer ${secret:NAME}"`. The secret's value is read only when connecting and
// never stored in settings, definitions or logs. Free of `vscode`.
import { english, type L10n } from '../common/l10n';

/** What a definition with a `url` connects to. */
export interface RemoteSpec {
  /** Normalized (`new URL(…).href`). */
  readonly url: string;
  readonly transport: 'websocket' | 'http';
  /** As configured: values may hold `${secret:NAME}` references. */
  readonly headers: Readonly<Record<string, string>>;
}

/** `${secret:NAME}`: NAME of letters, digits, `.`, `_`, `-` (1–64). */
const SECRET_REF = /\$\{secret:([A-Za-z0-9._-]{1,64})\}/g;
const ANY_REF = /\$\{secret:([^}]*)\}/g;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the WebSocket handshake owns; a configured one would break it. */
const RESERVED = new Set([
  'host',
  'connection',
  'upgrade',
  'content-length',
  'transfer-encoding',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
]);

/** Host names and addresses that are this machine (plain `ws://`/`http://` is allowed only to them). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Checks a configured url and headers; a problem is a sentence fragment naming what to fix. */
export function parseRemote(url: string, headers: Record<string, string>, l10n: L10n = english): { spec?: RemoteSpec; problem?: string } {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return { problem: l10n.t('"url" is not a valid URL (expected wss://host/path or https://host/path)') };
  }
  const scheme = u.protocol.slice(0, -1);
  if (!['wss', 'ws', 'https', 'http'].includes(scheme))
    return { problem: l10n.t('"url" must start with wss:// (WebSocket) or https:// (streamable HTTP), not {0}://', scheme) };
  if ((scheme === 'ws' || scheme === 'http') && !isLoopbackHost(u.hostname))
    return {
      problem: l10n.t(
        '"url" uses {0}:// (unencrypted) to {1}; that is allowed only to this machine (localhost, 127.0.0.1, ::1): use {2}://',
        scheme,
        u.hostname,
        scheme === 'ws' ? 'wss' : 'https',
      ),
    };
  if (u.username || u.password)
    return { problem: l10n.t('"url" must not carry a user name or password; put credentials in "headers" with {0}', '${secret:NAME}') };
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) return { problem: l10n.t('"headers": "{0}" is not a valid header name', name) };
    if (RESERVED.has(name.toLowerCase())) return { problem: l10n.t('"headers": "{0}" is set by the connection itself and cannot be configured', name) };
    for (const m of value.matchAll(ANY_REF))
      if (!/^[A-Za-z0-9._-]{1,64}$/.test(m[1]!))
        return { problem: l10n.t('"headers": "{0}" names a secret "{1}"; secret names are 1–64 letters, digits, ".", "_" or "-"', name, m[1]!) };
    if (/[\r\n]/.test(value)) return { problem: l10n.t('"headers": the value of "{0}" must be one line', name) };
  }
  return { spec: { url: u.href, transport: scheme === 'ws' || scheme === 'wss' ? 'websocket' : 'http', headers: { ...headers } } };
}

/** The secret names the headers refer to, in order, each once. */
export function secretNames(headers: Readonly<Record<string, string>>): string[] {
  const names = new Set<string>();
  for (const v of Object.values(headers)) for (const m of v.matchAll(SECRET_REF)) names.add(m[1]!);
  return [...names];
}

export class MissingSecretError extends Error {
  override readonly name = 'MissingSecretError';
  constructor(readonly secret: string) {
    super(`the secret "${secret}" its headers name is not set (run "ACP: Set Agent Secret…" to store it)`);
  }
}

/**
 * The headers with every `${secret:NAME}` replaced by its stored value. Rejects with
 * MissingSecretError naming the first secret that is not stored. `found` receives each value
 * (so the logs can mask it wherever it shows up).
 */
export async function resolveHeaders(
  headers: Readonly<Record<string, string>>,
  lookup: (name: string) => Promise<string | undefined>,
  found: (value: string) => void = () => undefined,
): Promise<Record<string, string>> {
  const values = new Map<string, string>();
  for (const name of secretNames(headers)) {
    const v = await lookup(name);
    if (v === undefined || v === '') throw new MissingSecretError(name);
    values.set(name, v);
    found(v);
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = v.replace(SECRET_REF, (_, n: string) => values.get(n)!);
  return out;
}

/** The origin a confirmation is remembered for (`wss://host:port`). */
export function hostKey(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
}

/** The URL for people: query values masked (they may carry tokens), no fragment. */
export function displayUrl(url: string): string {
  const u = new URL(url);
  for (const k of [...u.searchParams.keys()]) u.searchParams.set(k, '***');
  u.hash = '';
  return u.href;
}
