// Icons only from where the index may send us: a remote index cannot make the picker connect to this
// machine or a private network (IP literals, or names resolving there, each address checked before
// connecting, the connection made to the checked address); a local index may. No traffic leaves the
// machine: names are resolved by a fake resolver, and the only servers are on 127.0.0.1.
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import type { AddressInfo } from 'net';
import { loadIcons } from '../../../src/registry/icons';
import { isPublicAddress, publicLookup, type Resolve, type Resolved } from '../../../src/registry/publicAddress';
import type { RegistryEntry } from '../../../src/registry/schema';
import { TestServer } from './support/server';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"></svg>';
const REMOTE_INDEX = 'https://registry.example/index.json';

const withIcon = (id: string, icon: string): RegistryEntry => ({
  id,
  name: id,
  version: '1.0.0',
  description: 'd',
  license: 'MIT',
  icon,
  distribution: { npx: { package: 'x' } },
});

describe('registry icons come only from where the index may send us', function () {
  this.timeout(20000);
  let http: TestServer;
  let tls: net.Server;
  let tlsConnections: number;
  let dir: string;
  let lookups: string[];
  const resolveTo =
    (answers: Record<string, string[]>): Resolve =>
    (hostname) => {
      lookups.push(hostname);
      return Promise.resolve((answers[hostname] ?? []).map((address): Resolved => ({ address, family: net.isIP(address) })));
    };
  const tlsPort = (): number => (tls.address() as AddressInfo).port;

  beforeEach(async () => {
    http = await new TestServer().start();
    http.routes.set('/icon.svg', { body: SVG, headers: { 'content-type': 'image/svg+xml' } });
    tlsConnections = 0;
    tls = net.createServer((s) => {
      tlsConnections++;
      s.destroy();
    });
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-reg-icons-'));
    lookups = [];
  });
  afterEach(async () => {
    await http.stop();
    await new Promise<void>((r) => tls.close(() => r()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a remote index naming icons at 127.0.0.1 literal addresses: nothing is fetched, no connection is made', async () => {
    const icons = await loadIcons(
      [withIcon('plain', http.url('/icon.svg')), withIcon('tls', `https://127.0.0.1:${tlsPort()}/icon.svg`)],
      REMOTE_INDEX,
      dir,
      undefined,
      resolveTo({}),
    );
    assert.equal(icons.size, 0);
    assert.deepEqual(http.requests, []);
    assert.equal(tlsConnections, 0);
  });

  it('a remote index naming icons at private addresses or names that resolve to them: refused before connecting', async () => {
    const icons = await loadIcons(
      [
        withIcon('ten', 'https://10.0.0.1/icon.svg'),
        withIcon('linklocal', 'https://169.254.169.254/icon.svg'),
        withIcon('v6', 'https://[fe80::1]/icon.svg'),
        withIcon('mapped', 'https://[::ffff:127.0.0.1]/icon.svg'),
        withIcon('named', `https://icons.evil.example:${tlsPort()}/icon.svg`),
        withIcon('mixed', `https://mixed.evil.example:${tlsPort()}/icon.svg`),
        withIcon('localhost', `https://localhost:${tlsPort()}/icon.svg`),
      ],
      REMOTE_INDEX,
      dir,
      undefined,
      resolveTo({ 'icons.evil.example': ['127.0.0.1'], 'mixed.evil.example': ['93.184.216.34', '10.1.2.3'] }),
    );
    assert.equal(icons.size, 0);
    assert.equal(tlsConnections, 0);
    assert.deepEqual(lookups.sort(), ['icons.evil.example', 'mixed.evil.example']);
  });

  it('a local index may name icons on this machine', async () => {
    const icons = await loadIcons([withIcon('plain', '/icon.svg')], http.url('/index.json'), dir, undefined, resolveTo({}));
    assert.equal(icons.size, 1);
    assert.equal(fs.readFileSync(icons.get('plain')!, 'utf8'), SVG);
  });

  it('the lookup a connection uses answers only with checked public addresses', async () => {
    const lookup = publicLookup(resolveTo({ 'ok.example': ['93.184.216.34', '2606:2800:220:1::1'], 'bad.example': ['93.184.216.34', '127.0.0.1'] }), 'icon');
    const one = (host: string, options: { family?: number; all?: boolean }) =>
      new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) =>
        lookup(host, options as never, (err: Error | null, address: unknown, family?: number) => resolve({ err, address, family })),
      );
    assert.deepEqual(await one('ok.example', { family: 4 }), { err: null, address: '93.184.216.34', family: 4 });
    const all = await one('ok.example', { all: true });
    assert.equal(all.err, null);
    assert.deepEqual(all.address, [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    const bad = await one('bad.example', { all: true });
    assert.match(String(bad.err?.message), /resolves to 127\.0\.0\.1/);
  });

  it('knows which addresses are public', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1::1', '100.63.255.255', '172.32.0.1', '::ffff:8.8.8.8']) assert.ok(isPublicAddress(ip), ip);
    for (const ip of [
      '127.0.0.1',
      '127.9.9.9',
      '0.0.0.0',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      'not an address',
    ])
      assert.ok(!isPublicAddress(ip), ip);
  });
});
