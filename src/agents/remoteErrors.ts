// How a remote agent's connection failed or ended, as EndpointExits: the predicate of a sentence
// whose subject is the agent's name ("Build Box could not connect to wss://build:8443: the server
// refused the credentials (HTTP 401)."), with what to do in `detail`. One sentence per cause a
// person can act on: refused credentials, another HTTP answer, an untrusted or failed TLS
// handshake, an unknown host name, a refused or unanswered connection, the peer closing it, a
// peer that stopped answering pings, an oversized message, a peer that stopped reading.
// Free of `vscode`.
import type { EndpointExit } from './agentEndpoint';

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

const CERT_WORDS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'a self-signed certificate is in its chain',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it was issued for another host name',
};

/** Where it connects, for people: `wss://host:port` (no path, no query). */
export function originOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
}

/** A failure before the connection opened (the `error` of the WebSocket handshake). */
export function describeConnectError(err: Error & { code?: string }, url: string, timeoutMs: number): EndpointExit {
  const origin = originOf(url);
  const u = new URL(url);
  const code = err.code ?? '';
  const status = /Unexpected server response: (\d{3})/.exec(err.message)?.[1];
  const fail = (description: string, detail: string): EndpointExit => ({ description, detail, failedToOpen: true });
  if (status === '401' || status === '403')
    return fail(
      `could not connect to ${origin}: the server refused the credentials (HTTP ${status})`,
      ` Check the "headers" of this agent in acp.agents and store the secrets they name with "ACP: Set Agent Secret…".`,
    );
  if (status)
    return fail(
      `could not connect to ${origin}: the server answered HTTP ${status} instead of opening a WebSocket`,
      ` Check the path in the agent's "url" (servers following the Remote Transports RFD listen on /acp).`,
    );
  if (CERT_CODES.has(code))
    return fail(
      `could not connect to ${origin}: its TLS certificate is not trusted (${CERT_WORDS[code] ?? code})`,
      ` Use a certificate from an authority this computer trusts, or trust the server's certificate authority: name its PEM file in the NODE_EXTRA_CA_CERTS environment variable and restart VS Code, or add it to the system's trusted certificates (used where VS Code's "http.systemCertificates" setting applies).`,
    );
  if (code.startsWith('ERR_SSL') || code === 'EPROTO' || /SSL routines|TLS/i.test(err.message))
    return fail(
      `could not connect to ${origin}: the TLS handshake failed (${code || err.message})`,
      ` Check that the server speaks TLS on this port (wss:// and https:// need it).`,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL')
    return fail(
      `could not connect: the host name "${u.hostname}" was not found (DNS${code === 'EAI_AGAIN' ? ', try again later' : ''})`,
      ` Check the host in the agent's "url" and your network.`,
    );
  if (code === 'ECONNREFUSED')
    return fail(
      `could not connect to ${origin}: the connection was refused (nothing listens on port ${u.port || (u.protocol === 'wss:' ? '443' : '80')})`,
      ` Check that the agent's server runs and the port in its "url".`,
    );
  if (code === 'ETIMEDOUT' || /handshake has timed out/.test(err.message))
    return fail(
      `could not connect to ${origin}: no answer within ${Math.round(timeoutMs / 1000)} s`,
      ` Check the address, and a firewall or proxy on the way.`,
    );
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return fail(`could not connect to ${origin}: the host cannot be reached (${code})`, ` Check your network (VPN, Wi-Fi).`);
  if (code === 'ECONNRESET')
    return fail(
      `could not connect to ${origin}: the connection was reset during the handshake`,
      ` Check that it is a WebSocket server, and the proxy on the way.`,
    );
  return fail(`could not connect to ${origin}: ${err.message}`, '');
}

/** Why an open connection ended, when this side ended it (or saw it die). */
export type DropCause =
  | { kind: 'closed'; code: number; reason: string }
  | { kind: 'silent'; afterMs: number }
  | { kind: 'oversize'; limit: number }
  | { kind: 'backlog'; bytes: number }
  | { kind: 'error'; message: string };

/** How an open connection ended. */
export function describeDrop(cause: DropCause, url: string): EndpointExit {
  const origin = originOf(url);
  const lost = (why: string, detail = ''): EndpointExit => ({ description: `lost its connection to ${origin}: ${why}`, detail });
  switch (cause.kind) {
    case 'closed':
      if (cause.code === 1006 || cause.code === 1005)
        return lost(`the connection dropped without a close message (code ${cause.code})`, ' The server or the network went away.');
      return lost(`the server closed it (code ${cause.code}${cause.reason ? `, "${cause.reason.slice(0, 120)}"` : ''})`);
    case 'silent':
      return lost(`the server stopped answering (no reply to pings for ${Math.round(cause.afterMs / 1000)} s)`, ' The server or the network may be down.');
    case 'oversize':
      return lost(`the server sent a message larger than ${cause.limit} bytes (the acp.maxLineBytes limit)`);
    case 'backlog':
      return lost(`the server stopped reading (${Math.round(cause.bytes / 1024 / 1024)} MiB waiting to be sent)`);
    case 'error':
      return lost(cause.message);
    default:
      return cause satisfies never;
  }
}
