// Remote agent entries (src/agents/remoteConfig.ts, agentConfig.ts): which URLs are accepted, the
// `${secret:NAME}` references in headers and their resolution, the known-secret masking of the
// logs (redact.ts), and the reasons a connection fails or ends (remoteErrors.ts) with their words
// (src/ui/remoteWords.ts).
import * as assert from 'node:assert/strict';
import { parseAgentSettings } from '../../../src/agents/agentConfig';
import { MissingSecretError, displayUrl, hostKey, isLoopbackHost, parseRemote, resolveHeaders, secretNames } from '../../../src/agents/remoteConfig';
import { addKnownSecret, redact, redactText } from '../../../src/agents/redact';
import { connectFailure, lost, neverOpened, type DropCause } from '../../../src/agents/remoteErrors';
import { english, type L10n } from '../../../src/common/l10n';
import { remoteWords } from '../../../src/ui/remoteWords';
import { german } from '../l10n/german';

const err = (message: string, code?: string): Error & { code?: string } => Object.assign(new Error(message), code ? { code } : {});
/** A failure before the connection opened, in words. */
const describeConnectError = (e: Error & { code?: string }, url: string, ms: number, l10n: L10n = english, http = false) =>
  remoteWords(connectFailure(e, url, ms, http), l10n);
/** How an open connection ended, in words. */
const describeDrop = (cause: DropCause, url: string, l10n: L10n = english) => remoteWords(lost(cause, url), l10n);

describe('remote agent settings', () => {
  it('accepts wss:// and https:// anywhere, ws:// and http:// only to this machine', () => {
    assert.equal(parseRemote('wss://build.example.com/acp', {}).spec?.transport, 'websocket');
    assert.equal(parseRemote('https://build.example.com/acp', {}).spec?.transport, 'http');
    assert.equal(parseRemote('ws://127.0.0.1:8080/acp', {}).spec?.url, 'ws://127.0.0.1:8080/acp');
    assert.ok(parseRemote('ws://[::1]:8080/acp', {}).spec);
    assert.ok(parseRemote('http://localhost:1/acp', {}).spec);
    assert.match(parseRemote('ws://build.example.com/acp', {}).problem!, /allowed only to this machine .*use wss:\/\//);
    assert.match(parseRemote('http://10.0.0.2/acp', {}).problem!, /use https:\/\//);
    assert.match(parseRemote('ftp://x/acp', {}).problem!, /must start with wss:\/\//);
    assert.match(parseRemote('not a url', {}).problem!, /not a valid URL/);
    assert.match(parseRemote('wss://me:pw@x/acp', {}).problem!, /user name or password/);
    assert.ok(isLoopbackHost('127.1.2.3') && isLoopbackHost('app.localhost') && !isLoopbackHost('127.0.0.1.nip.io'));
  });

  it('checks header names and secret names', () => {
    assert.match(parseRemote('wss://x/acp', { 'Bad Name': 'v' }).problem!, /not a valid header name/);
    assert.match(parseRemote('wss://x/acp', { Upgrade: 'v' }).problem!, /set by the connection itself/);
    assert.match(parseRemote('wss://x/acp', { A: '${secret:bad name}' }).problem!, /secret names are/);
    assert.deepEqual(secretNames({ A: 'Bearer ${secret:tok}', B: '${secret:tok}-${secret:other}' }), ['tok', 'other']);
  });

  it('makes an acp.agents entry with a url a remote agent, and names the problems of bad ones', () => {
    const r = parseAgentSettings(
      [
        { name: 'Remote', url: 'wss://agents.example.com/acp', headers: { Authorization: 'Bearer ${secret:tok}' }, protocol: '2' },
        { name: 'Both', url: 'wss://x/acp', command: 'x' },
        { name: 'Neither' },
        { name: 'Plain', url: 'ws://agents.example.com/acp' },
      ],
      true,
    );
    assert.equal(r.agents.length, 1);
    assert.deepEqual(r.agents[0]!.remote, { url: 'wss://agents.example.com/acp', transport: 'websocket', headers: { Authorization: 'Bearer ${secret:tok}' } });
    assert.equal(r.agents[0]!.protocol, 2);
    assert.deepEqual(r.problems, [
      'acp.agents entry "Both": has both "command" and "url"; keep one.',
      'acp.agents entry "Neither": needs a "command" (the executable to run) or a "url" (a remote agent).',
      'acp.agents entry "Plain": "url" uses ws:// (unencrypted) to agents.example.com; that is allowed only to this machine (localhost, 127.0.0.1, ::1): use wss://.',
    ]);
  });

  it('shows hosts and URLs without their query values', () => {
    assert.equal(hostKey('wss://a.example:8443/acp?token=x'), 'wss://a.example:8443');
    assert.equal(displayUrl('wss://a.example/acp?token=abc&x=1#f'), 'wss://a.example/acp?token=***&x=***');
  });
});

describe('remote agent secrets', () => {
  it('resolves ${secret:NAME} from the store, and names a missing one', async () => {
    const store: Record<string, string> = { tok: 'tok-123456' };
    const seen: string[] = [];
    const h = await resolveHeaders(
      { Authorization: 'Bearer ${secret:tok}', X: 'plain' },
      (n) => Promise.resolve(store[n]),
      (v) => seen.push(v),
    );
    assert.deepEqual(h, { Authorization: 'Bearer tok-123456', X: 'plain' });
    assert.deepEqual(seen, ['tok-123456']);
    await assert.rejects(
      resolveHeaders({ A: '${secret:absent}' }, () => Promise.resolve(undefined)),
      (e: unknown) => e instanceof MissingSecretError && /the secret "absent" its headers name is not set \(run "ACP: Set Agent Secret…"/.test(e.message),
    );
  });

  it('masks a secret read for a connection wherever it shows up in the logs, whatever its shape', () => {
    const value = 'plainword4242';
    assert.equal(redactText(`the server said ${value}.`), `the server said ${value}.`);
    addKnownSecret(value);
    assert.equal(redactText(`the server said ${value}.`), 'the server said ***.');
    assert.deepEqual(redact({ params: { echo: `x${value}y` }, list: [value] }), { params: { echo: 'x***y' }, list: ['***'] });
    addKnownSecret('abc'); // too short to mask safely: ignored
    assert.equal(redactText('abc'), 'abc');
  });
});

describe('remote connection failures, as sentences', () => {
  const url = 'wss://agents.example.com:8443/acp';
  it('names each cause and what to do', () => {
    const d = (e: Error & { code?: string }) => describeConnectError(e, url, 15000);
    assert.equal(
      d(err('Unexpected server response: 403')).description,
      'could not connect to wss://agents.example.com:8443: the server refused the credentials (HTTP 403)',
    );
    assert.equal(
      d(err('Unexpected server response: 404')).description,
      'could not connect to wss://agents.example.com:8443: the server answered HTTP 404 instead of opening a WebSocket',
    );
    assert.equal(
      d(err('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT')).description,
      'could not connect to wss://agents.example.com:8443: its TLS certificate is not trusted (it is self-signed)',
    );
    assert.match(d(err('wrong version number', 'ERR_SSL_WRONG_VERSION_NUMBER')).description, /the TLS handshake failed \(ERR_SSL_WRONG_VERSION_NUMBER\)$/);
    assert.equal(d(err('getaddrinfo ENOTFOUND', 'ENOTFOUND')).description, 'could not connect: the host name "agents.example.com" was not found (DNS)');
    assert.equal(
      d(err('connect ECONNREFUSED', 'ECONNREFUSED')).description,
      'could not connect to wss://agents.example.com:8443: the connection was refused (nothing listens on port 8443)',
    );
    assert.equal(d(err('Opening handshake has timed out')).description, 'could not connect to wss://agents.example.com:8443: no answer within 15 s');
    for (const e of [err('Unexpected server response: 401'), err('x', 'ECONNREFUSED')]) assert.equal(neverOpened(connectFailure(e, url, 15000)), true);
    assert.equal(neverOpened(lost({ kind: 'silent', afterMs: 1 }, url)), false);
  });

  it('says how an open connection ended', () => {
    assert.equal(
      describeDrop({ kind: 'closed', code: 1006, reason: '' }, url).description,
      'lost its connection to wss://agents.example.com:8443: the connection dropped without a close message (code 1006)',
    );
    assert.equal(
      describeDrop({ kind: 'silent', afterMs: 25400 }, url).description,
      'lost its connection to wss://agents.example.com:8443: the server stopped answering (no reply to pings for 25 s)',
    );
  });

  it('speaks the language of VS Code (German here), with the same facts', () => {
    const e = describeConnectError(err('connect ECONNREFUSED', 'ECONNREFUSED'), url, 15000, german);
    assert.equal(
      e.description,
      'konnte keine Verbindung zu wss://agents.example.com:8443 herstellen: Die Verbindung wurde abgewiesen (auf Port 8443 lauscht nichts)',
    );
    assert.equal(e.detail, 'Prüfen Sie, ob der Server des Agents läuft, und den Port in seiner „url“.');
    assert.match(describeConnectError(err('x', 'DEPTH_ZERO_SELF_SIGNED_CERT'), url, 15000, german).description, /\(es ist selbstsigniert\)$/);
    assert.equal(
      describeDrop({ kind: 'silent', afterMs: 25400 }, url, german).description,
      'hat die Verbindung zu wss://agents.example.com:8443 verloren: der Server antwortet nicht mehr (keine Antwort auf Pings seit 25 s)',
    );
    assert.equal(
      parseRemote('ftp://x/acp', {}, german).problem,
      '„url“ muss mit wss:// (WebSocket) oder https:// (streamable HTTP) beginnen, nicht mit ftp://',
    );
  });

  it('over streamable HTTP, another HTTP answer came to initialize', () => {
    assert.equal(
      describeConnectError(err('Unexpected server response: 404'), 'https://agents.example.com/acp', 0, english, true).description,
      'could not connect to https://agents.example.com: the server answered HTTP 404 to initialize',
    );
    assert.equal(
      describeConnectError(err('connect ECONNREFUSED', 'ECONNREFUSED'), 'https://agents.example.com/acp', 0).description,
      'could not connect to https://agents.example.com: the connection was refused (nothing listens on port 443)',
    );
  });
});
