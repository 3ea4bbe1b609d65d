// Archive links are checked physically: a chain of links each of which stays inside lexically
// (`sub/up -> ..`, `sub/up2 -> up/..`) can still resolve outside the install folder once the first
// link is followed. Such an install is refused and nothing is left behind (no version folder, no
// temp folder); links that resolve inside are kept.
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { extractArchive } from '../../../src/registry/extract';
import { installBinary } from '../../../src/registry/installer';
import type { RegistryEntry } from '../../../src/registry/schema';
import { tarGz, zip, type TarItem } from './support/archives';
import { TestServer } from './support/server';
import { german } from '../l10n/german';

const SCRIPT = '#!/bin/sh\necho agent\n';

function binaryEntry(archive: string): RegistryEntry {
  return {
    id: 'chain-agent',
    name: 'Chain Agent',
    version: '1.0.0',
    description: 'd',
    license: 'MIT',
    distribution: { binary: { 'linux-x86_64': { archive, cmd: './bin/agent' } } },
  };
}

const CHAINS: { title: string; items: TarItem[] }[] = [
  {
    title: 'sub/up -> .., sub/up2 -> up/..',
    items: [
      { name: 'sub/', type: 'directory' },
      { name: 'sub/up', type: 'symlink', linkname: '..' },
      { name: 'sub/up2', type: 'symlink', linkname: 'up/..' },
    ],
  },
  {
    title: 'a longer chain up and back down to a sibling',
    items: [
      { name: 'a/b/', type: 'directory' },
      { name: 'a/b/up', type: 'symlink', linkname: '../..' },
      { name: 'a/b/c', type: 'symlink', linkname: 'up/../x' },
    ],
  },
  {
    title: 'a link to a link that climbs out',
    items: [
      { name: 'sub/', type: 'directory' },
      { name: 'sub/up', type: 'symlink', linkname: '..' },
      { name: 'sub/up2', type: 'symlink', linkname: 'up/..' },
      { name: 'alias', type: 'symlink', linkname: 'sub/up2' },
    ],
  },
];

describe('registry archive links are checked physically', function () {
  this.timeout(20000);
  let server: TestServer;
  let base: string;
  let root: string;
  beforeEach(async () => {
    server = await new TestServer().start();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-reg-chain-'));
    root = path.join(base, 'storage', 'registry');
  });
  afterEach(async () => {
    await server.stop().catch(() => undefined);
    fs.rmSync(base, { recursive: true, force: true });
  });

  for (const chain of CHAINS) {
    it(`refuses the install of a tar.gz holding ${chain.title}; nothing is left`, async () => {
      const archive = await tarGz([{ name: 'bin/agent', body: SCRIPT, mode: 0o755 }, ...chain.items]);
      server.routes.set('/a.tar.gz', { body: archive });
      await assert.rejects(
        installBinary(binaryEntry(server.url('/a.tar.gz')), 'linux-x86_64', root, { maxDownloadBytes: 1 << 20 }),
        /resolves outside the install folder|points at nothing/,
      );
      assert.deepEqual(fs.readdirSync(path.join(root, 'tmp')), [], 'no temp folder');
      assert.equal(fs.existsSync(path.join(root, 'agents', 'chain-agent', '1.0.0')), false, 'no version folder');
    });
  }

  it('refuses the same chain in a zip', async () => {
    const dest = path.join(base, 'zip-out');
    fs.mkdirSync(dest);
    const file = path.join(base, 'a.zip');
    fs.writeFileSync(
      file,
      zip([
        { name: 'sub/', mode: 0o040755 },
        { name: 'sub/up', symlink: '..' },
        { name: 'sub/up2', symlink: 'up/..' },
      ]),
    );
    await assert.rejects(extractArchive(file, 'zip', dest, { rawName: 'agent' }), /resolves outside the install folder/);
  });

  it("refuses in the user's language (L10n)", async () => {
    const dest = path.join(base, 'zip-de');
    fs.mkdirSync(dest);
    const file = path.join(base, 'b.zip');
    fs.writeFileSync(file, zip([{ name: 'up', symlink: '../..' }]));
    await assert.rejects(extractArchive(file, 'zip', dest, { rawName: 'agent', l10n: german }), /Installationsordner/);
  });

  it('keeps links whose whole chain stays inside', async () => {
    const archive = await tarGz([
      { name: 'bin/agent', body: SCRIPT, mode: 0o755 },
      { name: 'lib/v1/data.txt', body: 'data' },
      { name: 'lib/current', type: 'symlink', linkname: 'v1' },
      { name: 'lib/data', type: 'symlink', linkname: 'current/data.txt' },
      { name: 'sub/', type: 'directory' },
      { name: 'sub/up', type: 'symlink', linkname: '..' },
      { name: 'sub/lib', type: 'symlink', linkname: 'up/lib' },
    ]);
    server.routes.set('/ok.tar.gz', { body: archive });
    const r = await installBinary(binaryEntry(server.url('/ok.tar.gz')), 'linux-x86_64', root, { maxDownloadBytes: 1 << 20 });
    assert.equal(fs.readFileSync(path.join(r.installDir, 'lib', 'data'), 'utf8'), 'data');
    assert.equal(fs.readFileSync(path.join(r.installDir, 'sub', 'lib', 'data'), 'utf8'), 'data');
  });
});
