// The words of a remote agent's failed or ended connection: the layers below hand up a reason (a
// code and its data, src/agents/remoteErrors.ts); this says it in the window's language, as the
// predicate of a sentence whose subject is the agent's name ("Build Box could not connect to
// wss://build:8443: the server refused the credentials (HTTP 401).") and what to do (`detail`,
// "" when nothing). One sentence per code; a new code fails to compile here until it has its
// words. Free of `vscode` (unit-tested in plain Node): the words go through the `L10n` argument
// (`vscode.l10n` from remoteAgents.ts).
import type { L10n } from '../common/l10n';
import type { DropCause, RemoteReason } from '../app/remoteReasons';

export interface RemoteWords {
  readonly description: string;
  readonly detail: string;
}

const words = (description: string, detail = ''): RemoteWords => ({ description, detail });
const checkPath = (l10n: L10n): string => l10n.t('Check the path in the agent\'s "url" (servers following the Remote Transports RFD listen on /acp).');

/** Each code's words, from its data. */
const WORDS: { readonly [C in RemoteReason['code']]: (d: Extract<RemoteReason, { code: C }>['data'], l10n: L10n) => RemoteWords } = {
  'credentials-refused': (d, l10n) =>
    words(
      l10n.t('could not connect to {0}: the server refused the credentials (HTTP {1})', d.origin, d.status),
      l10n.t('Check the "headers" of this agent in acp.agents and store the secrets they name with "ACP: Set Agent Secret…".'),
    ),
  'initialize-refused': (d, l10n) => words(l10n.t('could not connect to {0}: the server answered HTTP {1} to initialize', d.origin, d.status), checkPath(l10n)),
  'upgrade-refused': (d, l10n) =>
    words(l10n.t('could not connect to {0}: the server answered HTTP {1} instead of opening a WebSocket', d.origin, d.status), checkPath(l10n)),
  'certificate-untrusted': (d, l10n) =>
    words(
      l10n.t('could not connect to {0}: its TLS certificate is not trusted ({1})', d.origin, certWords(d.cert, l10n)),
      l10n.t(
        "Use a certificate from an authority this computer trusts, or trust the server's certificate authority: name its PEM file in the NODE_EXTRA_CA_CERTS environment variable and restart VS Code, or add it to the system's trusted certificates (used where VS Code's \"http.systemCertificates\" setting applies).",
      ),
    ),
  'tls-failed': (d, l10n) =>
    words(
      l10n.t('could not connect to {0}: the TLS handshake failed ({1})', d.origin, d.detail),
      l10n.t('Check that the server speaks TLS on this port (wss:// and https:// need it).'),
    ),
  'host-not-found': (d, l10n) =>
    words(
      d.tryAgain
        ? l10n.t('could not connect: the host name "{0}" was not found (DNS, try again later)', d.host)
        : l10n.t('could not connect: the host name "{0}" was not found (DNS)', d.host),
      l10n.t('Check the host in the agent\'s "url" and your network.'),
    ),
  'not-loopback': (d, l10n) =>
    words(
      l10n.t('was not connected: {0}:// (unencrypted) is allowed only to this machine, but "{1}" resolves to {2}', d.scheme, d.host, d.addresses),
      l10n.t('Use wss:// or https:// to reach another machine, or a host name that resolves only to this machine (127.0.0.1, ::1).'),
    ),
  'connection-refused': (d, l10n) =>
    words(
      l10n.t('could not connect to {0}: the connection was refused (nothing listens on port {1})', d.origin, d.port),
      l10n.t('Check that the agent\'s server runs and the port in its "url".'),
    ),
  'no-answer': (d, l10n) =>
    words(l10n.t('could not connect to {0}: no answer within {1} s', d.origin, d.seconds), l10n.t('Check the address, and a firewall or proxy on the way.')),
  unreachable: (d, l10n) =>
    words(l10n.t('could not connect to {0}: the host cannot be reached ({1})', d.origin, d.errno), l10n.t('Check your network (VPN, Wi-Fi).')),
  reset: (d, l10n) =>
    words(
      l10n.t('could not connect to {0}: the connection was reset during the handshake', d.origin),
      l10n.t('Check that it is a WebSocket server, and the proxy on the way.'),
    ),
  'handshake-closed': (d, l10n) => words(l10n.t('could not connect to {0}: the connection closed during the handshake', d.origin)),
  'connect-failed': (d, l10n) => words(l10n.t('could not connect to {0}: {1}', d.origin, d.detail)),
  'prepare-failed': (d, l10n) => words(l10n.t('could not connect: {0}', d.detail)),
  'host-declined': (d, l10n) =>
    words(l10n.t('was not connected: connecting to {0} was not allowed', d.host), l10n.t('Start the agent again to see the confirmation.')),
  'secret-missing': (d, l10n) =>
    words(l10n.t('could not connect: the secret "{0}" its headers name is not set (run "ACP: Set Agent Secret…" to store it)', d.secret)),
  'stopped-before-connected': (_, l10n) => words(l10n.t('was stopped before it connected')),
  disconnected: (_, l10n) => words(l10n.t('was disconnected')),
  lost: (d, l10n) => lostWords(d.origin, d.cause, l10n),
};

export function remoteWords(r: RemoteReason, l10n: L10n): RemoteWords {
  return (WORDS[r.code] as (d: RemoteReason['data'], l10n: L10n) => RemoteWords)(r.data, l10n);
}

function lostWords(origin: string, cause: DropCause, l10n: L10n): RemoteWords {
  const lost = (why: string, detail = ''): RemoteWords => ({ description: l10n.t('lost its connection to {0}: {1}', origin, why), detail });
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
    case 'stream-closed':
      return lost(l10n.t('the server closed its event stream'));
    case 'error':
      return lost(cause.message);
  }
  return cause satisfies never;
}

/** Why a certificate is not trusted, for the codes people meet; the code itself for the others. */
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
