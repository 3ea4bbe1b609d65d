// Why a remote agent's connection did not open, or ended: a reason (a code and its data) for each
// cause a person can act on — refused credentials, another HTTP answer, an untrusted or failed
// TLS handshake, an unknown host name, plain ws/http to a name that is not this machine, a refused
// or unanswered connection, the peer closing it, a peer that stopped answering pings, an oversized
// message, a peer that stopped reading. The views word them (src/ui/remoteWords.ts: the predicate
// of a sentence whose subject is the agent's name, and what to do); this layer only tells them
// apart, and masks the secrets a server's words may echo (`masked`). Free of `vscode`.
import { hostKey as originOf } from './remoteConfig';

const CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Why an open connection ended, when this side ended it (or saw it die). */
export type DropCause =
  | { readonly kind: 'closed'; readonly code: number; readonly reason: string }
  | { readonly kind: 'silent'; readonly afterMs: number }
  | { readonly kind: 'oversize'; readonly limit: number }
  | { readonly kind: 'backlog'; readonly bytes: number }
  /** The server ended its event stream (streamable HTTP). */
  | { readonly kind: 'stream-closed' }
  | { readonly kind: 'error'; readonly message: string };

type Origin = { readonly origin: string };

/**
 * Why a remote agent's connection did not open, or ended. `origin` is where it connects
 * (`wss://host:port`, no path, no query); `status` an HTTP status.
 */
export type RemoteReason =
  // before it opened
  | { readonly code: 'credentials-refused'; readonly data: Origin & { readonly status: string } }
  /** Another HTTP answer to `initialize` (streamable HTTP). */
  | { readonly code: 'initialize-refused'; readonly data: Origin & { readonly status: string } }
  /** Another HTTP answer than opening a WebSocket. */
  | { readonly code: 'upgrade-refused'; readonly data: Origin & { readonly status: string } }
  /** `cert`: Node's code for why (DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED…). */
  | { readonly code: 'certificate-untrusted'; readonly data: Origin & { readonly cert: string } }
  | { readonly code: 'tls-failed'; readonly data: Origin & { readonly detail: string } }
  | { readonly code: 'host-not-found'; readonly data: { readonly host: string; readonly tryAgain: boolean } }
  /** Plain `ws://` or `http://` to a name that resolves to another machine (`addresses`: what it resolved to). */
  | { readonly code: 'not-loopback'; readonly data: { readonly host: string; readonly scheme: string; readonly addresses: string } }
  | { readonly code: 'connection-refused'; readonly data: Origin & { readonly port: string } }
  | { readonly code: 'no-answer'; readonly data: Origin & { readonly seconds: number } }
  | { readonly code: 'unreachable'; readonly data: Origin & { readonly errno: string } }
  | { readonly code: 'reset'; readonly data: Origin }
  | { readonly code: 'handshake-closed'; readonly data: Origin }
  | { readonly code: 'connect-failed'; readonly data: Origin & { readonly detail: string } }
  /** The opener (confirmation, secrets) failed unexpectedly. */
  | { readonly code: 'prepare-failed'; readonly data: { readonly detail: string } }
  | { readonly code: 'host-declined'; readonly data: { readonly host: string } }
  | { readonly code: 'secret-missing'; readonly data: { readonly secret: string } }
  // ended by this side
  | { readonly code: 'stopped-before-connected'; readonly data: Readonly<Record<string, never>> }
  | { readonly code: 'disconnected'; readonly data: Readonly<Record<string, never>> }
  // an open connection lost
  | { readonly code: 'lost'; readonly data: Origin & { readonly cause: DropCause } };

/** The reasons that ended it before it opened (`EndpointExit.failedToOpen`). */
export function neverOpened(r: RemoteReason): boolean {
  return r.code !== 'lost' && r.code !== 'stopped-before-connected' && r.code !== 'disconnected';
}

/**
 * The reason with every text in it masked by `mask` (the log's redaction: the secrets the headers
 * named, credentials by their shape): a server's words (a close reason, an error) may echo a
 * header, and the reason becomes a sentence people read, copy and paste.
 */
export function masked(r: RemoteReason, mask: (s: string) => string): RemoteReason {
  return { code: r.code, data: maskStrings(r.data, mask) } as RemoteReason;
}

function maskStrings(v: unknown, mask: (s: string) => string): unknown {
  if (typeof v === 'string') return mask(v);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskStrings(x, mask)]));
}

/**
 * A failure before the connection opened (the `error` of the WebSocket handshake). `http`: the
 * streamable HTTP transport, whose other HTTP answer came to `initialize`, not to a WebSocket upgrade.
 */
export function connectFailure(err: Error & { code?: string }, url: string, timeoutMs: number, http = false): RemoteReason {
  const origin = originOf(url);
  const u = new URL(url);
  const code = err.code ?? '';
  const status = /Unexpected server response: (\d{3})/.exec(err.message)?.[1];
  if (status === '401' || status === '403') return { code: 'credentials-refused', data: { origin, status } };
  if (status) return { code: http ? 'initialize-refused' : 'upgrade-refused', data: { origin, status } };
  if (CERT_CODES.has(code)) return { code: 'certificate-untrusted', data: { origin, cert: code } };
  if (code.startsWith('ERR_SSL') || code === 'EPROTO' || /SSL routines|TLS/i.test(err.message))
    return { code: 'tls-failed', data: { origin, detail: code || err.message } };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL')
    return { code: 'host-not-found', data: { host: u.hostname, tryAgain: code === 'EAI_AGAIN' } };
  if (code === 'ECONNREFUSED')
    return { code: 'connection-refused', data: { origin, port: u.port || (u.protocol === 'wss:' || u.protocol === 'https:' ? '443' : '80') } };
  if (code === 'ETIMEDOUT' || /handshake has timed out/.test(err.message))
    return { code: 'no-answer', data: { origin, seconds: Math.round(timeoutMs / 1000) } };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return { code: 'unreachable', data: { origin, errno: code } };
  if (code === 'ECONNRESET') return { code: 'reset', data: { origin } };
  return { code: 'connect-failed', data: { origin, detail: err.message } };
}

/** How an open connection ended. */
export function lost(cause: DropCause, url: string): RemoteReason {
  return { code: 'lost', data: { origin: originOf(url), cause } };
}

/** The connection closed during its opening handshake. */
export function handshakeClosed(url: string): RemoteReason {
  return { code: 'handshake-closed', data: { origin: originOf(url) } };
}
