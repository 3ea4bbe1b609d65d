import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { JwksSource, parseJwksLocation } from '../../../src/intent/jwksSource';
import { generateSigningKey, makeJwks } from '../../../src/intent/keys';
import { german } from '../l10n/german';

describe('JwksSource', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'acp-jwks-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const writeKeys = (name: string, content: unknown): string => {
    const file = path.join(dir, name);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };

  it('classifies setting values', () => {
    assert.deepEqual(parseJwksLocation(''), { kind: 'none' });
    assert.deepEqual(parseJwksLocation(undefined), { kind: 'none' });
    assert.deepEqual(parseJwksLocation('https://keys.example/v1/keys/jwks'), { kind: 'https', url: 'https://keys.example/v1/keys/jwks' });
    assert.deepEqual(parseJwksLocation('/etc/acp/jwks.json'), { kind: 'file', path: '/etc/acp/jwks.json' });
    assert.deepEqual(parseJwksLocation('file:///etc/acp/jwks.json'), { kind: 'file', path: '/etc/acp/jwks.json' });
    assert.deepEqual(parseJwksLocation('C:\\keys\\jwks.json'), { kind: 'file', path: 'C:\\keys\\jwks.json' });
    assert.equal(parseJwksLocation('~/jwks.json').kind, 'file');
    const http = parseJwksLocation('http://keys.example/jwks');
    assert.equal(http.kind, 'invalid');
    assert.match(http.kind === 'invalid' ? http.error : '', /Refusing to load intent keys over plain http:/);
    const errorOf = (setting: string): string => {
      const loc = parseJwksLocation(setting);
      return loc.kind === 'invalid' ? loc.error : `not refused: ${loc.kind}`;
    };
    assert.match(errorOf('keys/jwks.json'), /must be absolute/);
    assert.match(errorOf('ftp://x/jwks'), /Unsupported scheme "ftp:"/);
  });

  it('loads a local key file and caches it for the TTL', async () => {
    const key = generateSigningKey('k1');
    const file = writeKeys('jwks.json', makeJwks([key.publicJwk]));
    let now = 0;
    const src = new JwksSource(file, { ttlMs: 1000, now: () => now });
    const first = await src.get();
    assert.equal(first.state, 'loaded');
    assert.deepEqual(first.state === 'loaded' && first.jwks.keys.map((k) => k.kid), ['k1']);

    writeKeys('jwks.json', makeJwks([generateSigningKey('k2').publicJwk]));
    now = 999;
    const cached = await src.get();
    assert.deepEqual(cached.state === 'loaded' && cached.jwks.keys.map((k) => k.kid), ['k1'], 'still cached');
    const reloaded = await src.reload();
    assert.deepEqual(reloaded.state === 'loaded' && reloaded.jwks.keys.map((k) => k.kid), ['k2'], 'reload on demand');

    writeKeys('jwks.json', makeJwks([generateSigningKey('k3').publicJwk]));
    now = 999 + 1001;
    const expired = await src.get();
    assert.deepEqual(expired.state === 'loaded' && expired.jwks.keys.map((k) => k.kid), ['k3'], 'reloaded after the TTL');
  });

  it('explains what is wrong with a key file', async () => {
    const cases: [string, RegExp][] = [
      [path.join(dir, 'missing.json'), /does not exist/],
      [writeKeys('bad.json', '{not json'), /not valid JSON/],
      [writeKeys('shape.json', { keys: 'x' }), /expected an object with a "keys" array/],
      [writeKeys('private.json', { keys: [{ ...generateSigningKey('p').publicJwk, d: 'secret' }] }), /private key/],
      [writeKeys('rsa.json', { keys: [{ kty: 'RSA', kid: 'r', n: 'x', e: 'AQAB' }] }), /no public Ed25519 signing key/],
      [dir, /is not a file/],
      ['http://keys.example/jwks', /plain http:/],
    ];
    for (const [setting, message] of cases) {
      const r = await new JwksSource(setting).get();
      assert.equal(r.state, 'error', setting);
      assert.match(r.state === 'error' ? r.error : '', message);
    }
    assert.deepEqual(await new JwksSource('').get(), { state: 'none' });
  });

  it('fetches https URLs and refuses redirects to http, errors and oversized sets', async () => {
    const jwks = makeJwks([generateSigningKey('remote').publicJwk]);
    const requested: string[] = [];
    const respond =
      (body: string, init: ResponseInit = {}, url?: string) =>
      async (input: string | URL | Request): Promise<Response> => {
        requested.push(String(input));
        const res = new Response(body, init);
        if (url) Object.defineProperty(res, 'url', { value: url });
        return res;
      };
    const ok = await new JwksSource('https://keys.example/jwks', { fetch: respond(JSON.stringify(jwks)) as typeof fetch }).get();
    assert.equal(ok.state, 'loaded');
    assert.deepEqual(requested, ['https://keys.example/jwks']);

    const cases: [typeof fetch, RegExp][] = [
      [respond(JSON.stringify(jwks), {}, 'http://keys.example/jwks') as typeof fetch, /redirected to a non-https address/],
      [respond('nope', { status: 404 }) as typeof fetch, /HTTP 404/],
      [respond('x'.repeat(300 * 1024)) as typeof fetch, /larger than/],
      [
        (async () => {
          throw new TypeError('getaddrinfo ENOTFOUND keys.example');
        }) as typeof fetch,
        /ENOTFOUND/,
      ],
    ];
    for (const [f, message] of cases) {
      const r = await new JwksSource('https://keys.example/jwks', { fetch: f }).get();
      assert.match(r.state === 'error' ? r.error : `loaded?! ${r.state}`, message);
    }
  });

  it('shares one load between concurrent callers and forgets it on a new location', async () => {
    let calls = 0;
    const jwks = JSON.stringify(makeJwks([generateSigningKey('a').publicJwk]));
    const f = (async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      return new Response(jwks);
    }) as typeof fetch;
    const src = new JwksSource('https://keys.example/jwks', { fetch: f });
    await Promise.all([src.get(), src.get(), src.get()]);
    assert.equal(calls, 1);
    src.setLocation('');
    assert.deepEqual(await src.get(), { state: 'none' });
  });

  it("says what went wrong in the user's language (l10n)", async () => {
    const http = parseJwksLocation('http://keys.example/jwks', german);
    assert.match(http.kind === 'invalid' ? http.error : '', /^Intent-Schlüssel werden nicht über unverschlüsseltes http: geladen\./);
    const missing = path.join(tmpdir(), 'acp-no-such-jwks-file.json');
    const r = await new JwksSource(missing, { l10n: german }).get();
    assert.deepEqual(r, { state: 'error', error: `Die Intent-Schlüsseldatei ${missing} existiert nicht.`, from: missing });
  });
});
