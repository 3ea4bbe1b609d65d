// How a remote agent's connection failed or ended, as EndpointExits: the predicate of a sentence
// whose subject is the agent's name ("Build Box could not connect to wss://build:8443: the server
// refused the credentials (HTTP 401)."), with what to do in `detail`. One sentence per cause a
// person can act on: refused credentials, another HTTP answer, an untrusted or failed TLS
// handshake, an unknown host name, a refused or unanswered connection, the peer closing it, a
// peer that stopped answering pings, an oversized message, a peer that stopped reading.
// Free of `vscode`.
import type { EndpointExit } from './agentEndpoint';
import { english, type L10n } from '../common/l10n';

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

function certWords(code: string, l10n: L10n): string {
  switch (code) {
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return l10n.t('it is self-signed');
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return l10n.t('a self-signed certificate is in its chain');
    case 'CERT_HAS_EXPIRED':
      return l10n.t('it has expired');
    case 'CERT_NOT_YET_VALID':
      return l10n.t('it is not valid yet');
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return l10n.t('it was issued for another host name');
    default:
      return code;
  }
}

/** Where it connects, for people: `wss://host:port` (no path, no query). */
export function originOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
}

/**
 * A failure before the connection opened (the `error` of the WebSocket handshake). `http`: the
 * streamable HTTP transport, whose other HTTP answer came to `initialize`, not to a WebSocket upgrade.
 */
export function describeConnectError(err: Error & { code?: string }, url: string, timeoutMs: number, l10n: L10n = english, http = false): EndpointExit {
  const origin = originOf(url);
  const u = new URL(url);
  const code = err.code ?? '';
  const status = /Unexpected server response: (\d{3})/.exec(err.message)?.[1];
  const fail = (description: string, detail: string): EndpointExit => ({ description, detail: detail && ` ${detail}`, failedToOpen: true });
  if (status === '401' || status === '403')
    return fail(
      l10n.t('could not connect to {0}: the server refused the credentials (HTTP {1})', origin, status),
      l10n.t('Check the "headers" of this agent in acp.agents and store the secrets they name with "ACP: Set Agent Secret…".'),
    );
  if (status && http)
    return fail(
      l10n.t('could not connect to {0}: the server answered HTTP {1} to initialize', origin, status),
      l10n.t('Check the path in the agent\'s "url" (servers following the Remote Transports RFD listen on /acp).'),
    );
  if (status)
    return fail(
      l10n.t('could not connect to {0}: the server answered HTTP {1} instead of opening a WebSocket', origin, status),
      l10n.t('Check the path in the agent\'s "url" (servers following the Remote Transports RFD listen on /acp).'),
    );
  if (CERT_CODES.has(code))
    return fail(
      l10n.t('could not connect to {0}: its TLS certificate is not trusted ({1})', origin, certWords(code, l10n)),
      l10n.t(
        "Use a certificate from an authority this computer trusts, or trust the server's certificate authority: name its PEM file in the NODE_EXTRA_CA_CERTS environment variable and restart VS Code, or add it to the system's trusted certificates (used where VS Code's \"http.systemCertificates\" setting applies).",
      ),
    );
  if (code.startsWith('ERR_SSL') || code === 'EPROTO' || /SSL routines|TLS/i.test(err.message))
    return fail(
      l10n.t('could not connect to {0}: the TLS handshake failed ({1})', origin, code || err.message),
      l10n.t('Check that the server speaks TLS on this port (wss:// and https:// need it).'),
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL')
    return fail(
      code === 'EAI_AGAIN'
        ? l10n.t('could not connect: the host name "{0}" was not found (DNS, try again later)', u.hostname)
        : l10n.t('could not connect: the host name "{0}" was not found (DNS)', u.hostname),
      l10n.t('Check the host in the agent\'s "url" and your network.'),
    );
  if (code === 'ECONNREFUSED')
    return fail(
      l10n.t('could not connect to {0}: the connection was refused (nothing listens on port {1})', origin, u.port || (u.protocol === 'wss:' ? '443' : '80')),
      l10n.t('Check that the agent\'s server runs and the port in its "url".'),
    );
  if (code === 'ETIMEDOUT' || /handshake has timed out/.test(err.message))
    return fail(
      l10n.t('could not connect to {0}: no answer within {1} s', origin, Math.round(timeoutMs / 1000)),
      l10n.t('Check the address, and a firewall or proxy on the way.'),
    );
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return fail(l10n.t('could not connect to {0}: the host cannot be reached ({1})', origin, code), l10n.t('Check your network (VPN, Wi-Fi).'));
  if (code === 'ECONNRESET')
    return fail(
      l10n.t('could not connect to {0}: the connection was reset during the handshake', origin),
      l10n.t('Check that it is a WebSocket server, and the proxy on the way.'),
    );
  return fail(l10n.t('could not connect to {0}: {1}', origin, err.message), '');
}

/** Why an open connection ended, when this side ended it (or saw it die). */
export type DropCause =
  | { kind: 'closed'; code: number; reason: string }
  | { kind: 'silent'; afterMs: number }
  | { kind: 'oversize'; limit: number }
  | { kind: 'backlog'; bytes: number }
  | { kind: 'error'; message: string };

/** How an open connection ended. */
export function describeDrop(cause: DropCause, url: string, l10n: L10n = english): EndpointExit {
  const origin = originOf(url);
  const lost = (why: string, detail = ''): EndpointExit => ({
    description: l10n.t('lost its connection to {0}: {1}', origin, why),
    detail: detail && ` ${detail}`,
  });
  switch (cause.kind) {
    case 'closed':
      if (cause.code === 1006 || cause.code === 1005)
        return lost(l10n.t('the connection dropped without a close message (code {0})', cause.code), l10n.t('The server or the network went away.'));
      return lost(
        cause.reason
          ? l10n.t('the server closed it (code {0}, "{1}")', cause.code, cause.reason.slice(0, 120))
          : l10n.t('the server closed it (code {0})', cause.code),
      );
    case 'silent':
      return lost(
        l10n.t('the server stopped answering (no reply to pings for {0} s)', Math.round(cause.afterMs / 1000)),
        l10n.t('The server or the network may be down.'),
      );
    case 'oversize':
      return lost(l10n.t('the server sent a message larger than {0} bytes (the acp.maxLineBytes limit)', cause.limit));
    case 'backlog':
      return lost(l10n.t('the server stopped reading ({0} MiB waiting to be sent)', Math.round(cause.bytes / 1024 / 1024)));
    case 'error':
      return lost(cause.message);
    default:
      return cause satisfies never;
  }
}
