// An archive in a format that is not unpacked (xz, Zstandard, 7-Zip, …) is refused with its format
// named, and nothing is left behind: it was once kept as the agent's "binary", which then failed to start.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { installBinary } from '../../../src/registry/installer';
import type { RegistryEntry } from '../../../src/registry/schema';
import { TestServer } from './support/server';

const entry = (archive: string): RegistryEntry => ({
  id: 'test-agent',
  name: 'Test Agent',
  version: '1.0.0',
  description: 'd',
  license: 'MIT',
  distribution: { binary: { 'linux-x86_64': { archive, cmd: './agent' } } },
});

/** A real .tar.xz when xz is installed, else the xz header and bytes (the kind is read from the first bytes). */
function tarXz(dir: string): Buffer {
  try {
    fs.writeFileSync(path.join(dir, 'agent'), '#!/bin/sh\necho agent\n');
    execFileSync('tar', ['-cJf', 'agent.tar.xz', 'agent'], { cwd: dir, stdio: 'ignore' });
    return fs.readFileSync(path.join(dir, 'agent.tar.xz'));
  } catch {
    return Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), crypto.randomBytes(200)]);
  }
}

describe('registry binary install: formats that are not unpacked', function () {
  this.timeout(20000);
  let server: TestServer;
  let base: string;
  beforeEach(async () => {
    server = await new TestServer().start();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-reg-formats-'));
  });
  afterEach(async () => {
    await server.stop().catch(() => undefined);
    fs.rmSync(base, { recursive: true, force: true });
  });

  const cases: [string, string, () => Buffer][] = [
    ['xz', '/agent.tar.xz', () => tarXz(base)],
    ['Zstandard', '/agent.tar.zst', () => Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), crypto.randomBytes(64)])],
    ['7-Zip', '/agent.7z', () => Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]), crypto.randomBytes(64)])],
  ];
  for (const [format, file, body] of cases) {
    it(`refuses ${file} naming the ${format} format, and installs nothing`, async () => {
      server.routes.set(file, { body: body() });
      const root = path.join(base, 'registry');
      await assert.rejects(installBinary(entry(server.url(file)), 'linux-x86_64', root, { maxDownloadBytes: 1024 * 1024 }), (err: Error) => {
        assert.equal(
          err.message,
          `The archive of Test Agent is in the ${format} format, which is not unpacked (zip, tar, tar.gz and tar.bz2 are); nothing was installed.`,
        );
        return true;
      });
      assert.deepEqual(fs.readdirSync(path.join(root, 'tmp')), [], 'no temp folder left');
      assert.equal(fs.existsSync(path.join(root, 'agents')), false, 'no version folder');
    });
  }
});
