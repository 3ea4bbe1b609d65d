// Loading the index from a local server: the URL policy, conditional requests against the cache,
// offline → the cached copy and its age, bad answers → clear errors (the cache keeps the last good copy).
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkUrl, DownloadError } from '../../../src/registry/http';
import { describeAge, loadIndex } from '../../../src/registry/indexSource';
import { german } from '../l10n/german';
import { RegistryIndexError } from '../../../src/registry/schema';
import { rawEntry } from './fixtures';
import { TestServer } from './support/server';

const body = (ids: string[]): string => JSON.stringify({ version: '1.0.0', agents: ids.map(rawEntry), extensions: [] });

describe('registry URL policy', () => {
  it('allows https anywhere and plain http only to this machine', () => {
    assert.equal(checkUrl('https://cdn.example.com/r.json', 'x').host, 'cdn.example.com');
    for (const ok of ['http://127.0.0.1:8080/r.json', 'http://127.5.6.7/r', 'http://localhost/r', 'http://[::1]:3000/r', 'http://a.localhost/r'])
      assert.doesNotThrow(() => checkUrl(ok, 'x'), ok);
    for (const bad of ['http://example.com/r.json', 'http://127.0.0.1.nip.io/r', 'http://10.0.0.1/r', 'http://localhost.evil.com/r', 'http://[::2]/r']) {
      assert.throws(() => checkUrl(bad, 'ACP Registry'), /plain http, which is allowed only for this machine/, bad);
    }
    assert.throws(() => checkUrl('file:///etc/passwd', 'x'), /not an https address/);
    assert.throws(() => checkUrl('ftp://x/y', 'x'), /not an https address/);
    assert.throws(() => checkUrl('nonsense', 'x'), /is not a URL/);
  });

  it('says it in the language of VS Code (German here)', () => {
    assert.throws(() => checkUrl('nonsense', german.t('ACP Registry'), german), { message: 'ACP Registry: „nonsense“ ist keine URL.' });
    assert.equal(describeAge(3 * 3600_000, german), german.t('{0} hours', 3));
  });
});

describe('registry index loading', () => {
  let server: TestServer;
  let cacheDir: string;
  beforeEach(async () => {
    server = await new TestServer().start();
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-reg-idx-'));
  });
  afterEach(async () => {
    await server.stop().catch(() => undefined);
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  it('caches the index and revalidates with If-None-Match (304 keeps the copy)', async () => {
    let n = 0;
    server.routes.set('/r.json', {
      handler: (req, res) => {
        n++;
        if (req.headers['if-none-match'] === '"v1"') {
          res.statusCode = 304;
          res.end();
          return;
        }
        res.setHeader('etag', '"v1"');
        res.end(body(['gemini', 'auggie']));
      },
    });
    const first = await loadIndex(server.url('/r.json'), { cacheDir, now: () => 1000 });
    assert.deepEqual(
      first.index.agents.map((a) => a.id),
      ['gemini', 'auggie'],
    );
    assert.equal(first.staleBecause, undefined);
    const second = await loadIndex(server.url('/r.json'), { cacheDir, now: () => 5000 });
    assert.equal(server.requests[1]!.headers['if-none-match'], '"v1"');
    assert.deepEqual(
      second.index.agents.map((a) => a.id),
      ['gemini', 'auggie'],
    );
    assert.equal(second.fetchedAt, 5000);
    assert.equal(n, 2);
  });

  it('revalidates with If-Modified-Since when the registry gives Last-Modified', async () => {
    const lm = 'Wed, 04 Feb 2026 10:00:00 GMT';
    server.routes.set('/r.json', {
      handler: (req, res) => {
        if (req.headers['if-modified-since'] === lm) {
          res.statusCode = 304;
          res.end();
          return;
        }
        res.setHeader('last-modified', lm);
        res.end(body(['gemini']));
      },
    });
    await loadIndex(server.url('/r.json'), { cacheDir });
    const again = await loadIndex(server.url('/r.json'), { cacheDir });
    assert.equal(server.requests[1]!.headers['if-modified-since'], lm);
    assert.deepEqual(
      again.index.agents.map((a) => a.id),
      ['gemini'],
    );
  });

  it('offline: the cached copy, with why and when it was fetched', async () => {
    server.routes.set('/r.json', { body: body(['gemini']) });
    const url = server.url('/r.json');
    await loadIndex(url, { cacheDir, now: () => 1_000 });
    await server.stop();
    const offline = await loadIndex(url, { cacheDir, now: () => 99_999 });
    assert.deepEqual(
      offline.index.agents.map((a) => a.id),
      ['gemini'],
    );
    assert.equal(offline.fetchedAt, 1_000);
    assert.match(offline.staleBecause!, /Could not reach the ACP Registry http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(describeAge(3 * 3600_000), '3 hours');
    assert.equal(describeAge(20_000), 'less than a minute');
    assert.equal(describeAge(5 * 86400_000), '5 days');
  });

  it('404 without a cached copy is a clear error; with one, the copy and the status', async () => {
    const url = server.url('/missing.json');
    await assert.rejects(
      loadIndex(url, { cacheDir }),
      (e: Error) => e instanceof DownloadError && /answered HTTP 404/.test(e.message) && /No copy of the registry is cached yet/.test(e.message),
    );
    server.routes.set('/missing.json', { body: body(['auggie']) });
    await loadIndex(url, { cacheDir });
    server.routes.delete('/missing.json');
    const r = await loadIndex(url, { cacheDir });
    assert.match(r.staleBecause!, /answered HTTP 404/);
    assert.deepEqual(
      r.index.agents.map((a) => a.id),
      ['auggie'],
    );
  });

  it('invalid JSON is an error and never replaces the cached copy', async () => {
    const url = server.url('/r.json');
    server.routes.set('/r.json', { body: body(['gemini']) });
    await loadIndex(url, { cacheDir });
    server.routes.set('/r.json', { body: '{"agents": [' });
    await assert.rejects(loadIndex(url, { cacheDir }), (e: Error) => e instanceof RegistryIndexError && /did not send valid JSON/.test(e.message));
    server.routes.set('/r.json', { status: 500, body: 'boom' });
    const r = await loadIndex(url, { cacheDir });
    assert.deepEqual(
      r.index.agents.map((a) => a.id),
      ['gemini'],
      'the good copy is still cached',
    );
  });

  it('a cached copy of another URL is not used', async () => {
    server.routes.set('/a.json', { body: body(['gemini']) });
    await loadIndex(server.url('/a.json'), { cacheDir });
    await assert.rejects(loadIndex(server.url('/b.json'), { cacheDir }), /No copy of the registry is cached yet/);
  });

  it('refuses an index over 8 MiB', async () => {
    server.routes.set('/big.json', { body: Buffer.alloc(8 * 1024 * 1024 + 10, 0x20) });
    await assert.rejects(loadIndex(server.url('/big.json'), { cacheDir }), /larger than 8388608 bytes/);
  });

  it('follows a redirect, and refuses one to plain http elsewhere', async () => {
    server.routes.set('/old.json', { status: 302, headers: { location: '/new.json' } });
    server.routes.set('/new.json', { body: body(['gemini']) });
    assert.equal((await loadIndex(server.url('/old.json'), { cacheDir })).index.agents.length, 1);
    server.routes.set('/evil.json', { status: 302, headers: { location: 'http://example.com/r.json' } });
    await assert.rejects(loadIndex(server.url('/evil.json'), { cacheDir }), /plain http/);
  });
});
