// Binary installs from a local server: every archive kind, and every bad input ends in a clear
// error with nothing left behind (no version folder, no temp folder, nothing outside).
import assert from 'node:assert/strict';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CancelledError } from '../../../src/registry/http';
import { installBinary, NoBuildError, prune } from '../../../src/registry/installer';
import type { RegistryEntry } from '../../../src/registry/schema';
import { FIXTURES, entry } from './fixtures';
import { tarGz, zip } from './support/archives';
import { TestServer } from './support/server';
import { BUNZIP_WORKER } from './support/worker';

const MiB = 1024 * 1024;
const SCRIPT = '#!/bin/sh\necho agent "$@"\n';

function binaryEntry(archive: string, extra: { cmd?: string; sha256?: string; args?: string[] } = {}): RegistryEntry {
  return {
    id: 'test-agent',
    name: 'Test Agent',
    version: '1.0.0',
    description: 'd',
    license: 'MIT',
    distribution: {
      binary: {
        'linux-x86_64': {
          archive,
          cmd: extra.cmd ?? './bin/agent',
          ...(extra.sha256 ? { sha256: extra.sha256 } : {}),
          ...(extra.args ? { args: extra.args } : {}),
        },
      },
    },
  };
}

/** Every file and folder under `dir` (relative), sorted. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const n of fs.readdirSync(d)) {
      const p = path.join(d, n);
      out.push(path.relative(dir, p));
      if (fs.lstatSync(p).isDirectory()) walk(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.sort();
}

describe('registry binary install', function () {
  this.timeout(20000);
  let server: TestServer;
  let base: string;
  let root: string;
  beforeEach(async () => {
    server = await new TestServer().start();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-reg-inst-'));
    root = path.join(base, 'storage', 'registry');
  });
  afterEach(async () => {
    await server.stop().catch(() => undefined);
    fs.rmSync(base, { recursive: true, force: true });
  });

  const serve = (p: string, body: Buffer, extra: Partial<Parameters<TestServer['routes']['set']>[1]> = {}): string => {
    server.routes.set(p, { body, ...extra });
    return server.url(p);
  };
  const install = (e: RegistryEntry, opts: Partial<Parameters<typeof installBinary>[3]> = {}) =>
    installBinary(e, 'linux-x86_64', root, { maxDownloadBytes: 10 * MiB, ...opts });
  /** Nothing installed, no temp folder left, nothing written beside the storage. */
  const assertNothingLeft = (): void => {
    assert.deepEqual(
      tree(path.join(root, 'agents')).filter((p) => p !== 'test-agent'),
      [],
      'no version folder',
    );
    assert.deepEqual(tree(path.join(root, 'tmp')), [], 'no temp folder');
    assert.deepEqual(fs.readdirSync(base), ['storage'], 'nothing outside the storage');
  };

  it('tar.gz: unpacks into agents/<id>/<version>, cmd executable, links inside kept, sha256 checked', async () => {
    const archive = await tarGz([
      { name: 'bin/', type: 'directory' },
      { name: 'bin/agent', body: SCRIPT, mode: 0o644 },
      { name: 'lib/data.txt', body: 'data' },
      { name: 'lib/link', type: 'symlink', linkname: 'data.txt' },
      { name: 'lib/copy', type: 'link', linkname: 'lib/data.txt' },
    ]);
    const sha = crypto.createHash('sha256').update(archive).digest('hex');
    let progress = 0;
    const r = await install(binaryEntry(serve('/a.tar.gz', archive), { sha256: sha.toUpperCase(), args: ['acp'] }), {
      onProgress: (got) => {
        progress = got;
      },
    });
    const dir = path.join(root, 'agents', 'test-agent', '1.0.0');
    assert.equal(r.installDir, dir);
    assert.equal(r.kind, 'tar.gz');
    assert.equal(r.sha256, sha);
    assert.equal(progress, archive.length);
    assert.deepEqual(r.launch, { command: path.join(dir, 'bin', 'agent'), args: ['acp'], env: {} });
    assert.deepEqual(tree(dir), ['bin', 'bin/agent', 'lib', 'lib/copy', 'lib/data.txt', 'lib/link']);
    assert.ok((fs.statSync(r.launch.command).mode & 0o111) !== 0, 'made executable');
    assert.equal(fs.readlinkSync(path.join(dir, 'lib/link')), 'data.txt');
    assert.equal(fs.readFileSync(path.join(dir, 'lib/copy'), 'utf8'), 'data');
    assert.deepEqual(tree(path.join(root, 'tmp')), []);
  });

  it('zip (with Unix modes and an inside symlink)', async () => {
    const archive = zip([
      { name: 'agent-1.0/', mode: 0o040755 },
      { name: 'agent-1.0/agent', body: SCRIPT, mode: 0o100755 },
      { name: 'agent-1.0/current', symlink: 'agent' },
    ]);
    const r = await install(binaryEntry(serve('/a.zip', archive), { cmd: 'agent-1.0/current' }));
    assert.equal(r.kind, 'zip');
    assert.equal(fs.readFileSync(r.launch.command, 'utf8'), SCRIPT);
    assert.ok((fs.statSync(r.launch.command).mode & 0o111) !== 0);
  });

  it('tar.bz2 (test/fixtures/registry/hello.tar.bz2)', async () => {
    const r = await install(binaryEntry(serve('/hello.tar.bz2', fs.readFileSync(path.join(FIXTURES, 'hello.tar.bz2')))), { bunzipWorker: BUNZIP_WORKER });
    assert.equal(r.kind, 'tar.bz2');
    assert.equal(fs.readFileSync(r.launch.command, 'utf8'), '#!/bin/sh\necho hello\n');
    assert.deepEqual(tree(r.installDir), ['README', 'bin', 'bin/agent']);
  });

  it('a raw binary is saved as the cmd and made executable', async () => {
    const r = await install(binaryEntry(serve('/agent', Buffer.from(SCRIPT)), { cmd: './agent' }));
    assert.equal(r.kind, 'raw');
    assert.deepEqual(tree(r.installDir), ['agent']);
    assert.ok((fs.statSync(r.launch.command).mode & 0o111) !== 0);
  });

  const failures: [string, () => Promise<{ e: RegistryEntry; opts?: Partial<Parameters<typeof installBinary>[3]> }>, RegExp][] = [
    ['archive 404', async () => ({ e: binaryEntry(server.url('/nothing.tar.gz')) }), /answered HTTP 404.*nothing was installed/],
    [
      'a truncated download (connection closed early)',
      async () => ({ e: binaryEntry(serve('/cut.tar.gz', await tarGz([{ name: 'bin/agent', body: SCRIPT.repeat(4000) }]), { cutAfter: 100 })) }),
      /cut short|interrupted/,
    ],
    [
      'a truncated archive (complete download of half a gzip)',
      async () => ({ e: binaryEntry(serve('/half.tar.gz', (await tarGz([{ name: 'bin/agent', body: crypto.randomBytes(20000) }])).subarray(0, 3000))) }),
      /could not be unpacked.*damaged or cut short/,
    ],
    [
      'sha256 mismatch',
      async () => ({ e: binaryEntry(serve('/a.tar.gz', await tarGz([{ name: 'bin/agent', body: SCRIPT }])), { sha256: 'a'.repeat(64) }) }),
      /does not match the registry's sha256 \(expected a{64}, got [0-9a-f]{64}\)/,
    ],
    [
      'over the size cap (announced)',
      async () => ({ e: binaryEntry(serve('/big.bin', Buffer.alloc(2 * MiB))), opts: { maxDownloadBytes: MiB } }),
      /is 2\.0 MiB, over the 1\.0 MiB limit/,
    ],
    [
      'over the size cap (chunked, no length)',
      async () => ({ e: binaryEntry(serve('/big2.bin', Buffer.alloc(2 * MiB), { chunked: true })), opts: { maxDownloadBytes: MiB } }),
      /over the 1\.0 MiB limit.*stopped/,
    ],
    [
      'a "../" entry (tar)',
      async () => ({
        e: binaryEntry(
          serve(
            '/dots.tar.gz',
            await tarGz([
              { name: 'bin/agent', body: SCRIPT },
              { name: '../../evil', body: 'x' },
            ]),
          ),
        ),
      }),
      /"\.\.\/\.\.\/evil" goes up with "\.\."/,
    ],
    [
      'a nested "a/../../" entry (tar)',
      async () => ({ e: binaryEntry(serve('/dots2.tar.gz', await tarGz([{ name: 'a/../../evil', body: 'x' }]))) }),
      /goes up with/,
    ],
    [
      'an absolute entry (tar)',
      async () => ({ e: binaryEntry(serve('/abs.tar.gz', await tarGz([{ name: '/tmp/acp-evil', body: 'x' }]))) }),
      /is an absolute path; it is refused/,
    ],
    [
      'a symlink out (tar)',
      async () => ({
        e: binaryEntry(
          serve(
            '/ln.tar.gz',
            await tarGz([
              { name: 'bin/agent', body: SCRIPT },
              { name: 'bin/out', type: 'symlink', linkname: '../../../../etc' },
            ]),
          ),
        ),
      }),
      /symlink "bin\/out" points outside the install folder/,
    ],
    [
      'an absolute symlink (tar)',
      async () => ({
        e: binaryEntry(
          serve(
            '/ln2.tar.gz',
            await tarGz([
              { name: 'bin/agent', body: SCRIPT },
              { name: 'passwd', type: 'symlink', linkname: '/etc/passwd' },
            ]),
          ),
        ),
      }),
      /points outside the install folder/,
    ],
    [
      'a symlink inside a linked folder that then climbs out (tar)',
      async () => ({
        e: binaryEntry(
          serve(
            '/ln3.tar.gz',
            await tarGz([
              { name: 'bin/agent', body: SCRIPT },
              { name: 'here', type: 'symlink', linkname: '.' },
              { name: 'here/up', type: 'symlink', linkname: '..' },
            ]),
          ),
        ),
      }),
      /lies inside another link/,
    ],
    [
      'a hard link to a file outside (tar)',
      async () => ({ e: binaryEntry(serve('/hl.tar.gz', await tarGz([{ name: 'bin/agent', type: 'link', linkname: '../../../etc/passwd' }]))) }),
      /goes up with/,
    ],
    [
      'a special file (tar)',
      async () => ({
        e: binaryEntry(
          serve(
            '/fifo.tar.gz',
            await tarGz([
              { name: 'bin/agent', body: SCRIPT },
              { name: 'pipe', type: 'fifo' },
            ]),
          ),
        ),
      }),
      /special file "pipe" \(fifo\)/,
    ],
    [
      'a "../" entry (zip)',
      async () => ({
        e: binaryEntry(
          serve(
            '/dots.zip',
            zip([
              { name: 'bin/agent', body: SCRIPT },
              { name: '../evil', body: 'x' },
            ]),
          ),
        ),
      }),
      /would land outside the install folder/,
    ],
    [
      'an absolute entry (zip)',
      async () => ({ e: binaryEntry(serve('/abs.zip', zip([{ name: '/tmp/acp-evil', body: 'x' }]))) }),
      /would land outside the install folder/,
    ],
    [
      'a symlink out (zip)',
      async () => ({
        e: binaryEntry(
          serve(
            '/ln.zip',
            zip([
              { name: 'bin/agent', body: SCRIPT },
              { name: 'bin/out', symlink: '../../x' },
            ]),
          ),
        ),
      }),
      /symlink "bin\/out" points outside/,
    ],
    [
      'an entry listed twice',
      async () => ({
        e: binaryEntry(
          serve(
            '/dup.tar.gz',
            await tarGz([
              { name: 'bin/agent', body: SCRIPT },
              { name: 'bin/agent', body: 'evil' },
            ]),
          ),
        ),
      }),
      /lists "bin\/agent" twice/,
    ],
    [
      'an archive without the cmd',
      async () => ({ e: binaryEntry(serve('/nocmd.tar.gz', await tarGz([{ name: 'README', body: 'x' }]))) }),
      /has no file "\.\/bin\/agent"/,
    ],
    [
      'a cmd that is a link to outside the folder (refused as a link first)',
      async () => ({ e: binaryEntry(serve('/cmdln.tar.gz', await tarGz([{ name: 'bin/agent', type: 'symlink', linkname: '/bin/sh' }]))) }),
      /points outside/,
    ],
    [
      'too many entries',
      async () => ({
        e: binaryEntry(serve('/many.tar.gz', await tarGz(Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, body: 'x' }))))),
        opts: { limits: { maxEntries: 20, maxBytes: MiB } },
      }),
      /more than 20 entries/,
    ],
    [
      'unpacking to more than the limit (a gzip bomb)',
      async () => ({
        e: binaryEntry(serve('/bomb.tar.gz', await tarGz([{ name: 'bin/agent', body: Buffer.alloc(3 * MiB) }]))),
        opts: { limits: { maxEntries: 10, maxBytes: MiB } },
      }),
      /unpacks to more than 1 MiB/,
    ],
  ];
  for (const [name, make, message] of failures) {
    it(`refuses ${name}, clearly, leaving nothing`, async () => {
      const { e, opts } = await make();
      await assert.rejects(install(e, opts ?? {}), (err: Error) => {
        assert.match(err.message, message);
        return true;
      });
      assertNothingLeft();
      assert.ok(!fs.existsSync('/tmp/acp-evil'));
    });
  }

  it('no build for this platform names the platforms that have one', async () => {
    await assert.rejects(
      installBinary(entry('kimi'), 'windows-aarch64', root, { maxDownloadBytes: MiB }),
      (e: Error) =>
        e instanceof NoBuildError &&
        /Kimi CLI 1\.9\.0 has no build for this machine \(windows-aarch64\); the registry has builds for darwin-aarch64, linux-aarch64, linux-x86_64, windows-x86_64\./.test(
          e.message,
        ),
    );
    await assert.rejects(installBinary(entry('gemini'), 'linux-x86_64', root, { maxDownloadBytes: MiB }), /has no build for this machine \(linux-x86_64\)\.$/);
    assert.ok(!fs.existsSync(root));
  });

  it('cancel during the download stops it and leaves nothing', async () => {
    const url = serve('/slow.bin', Buffer.alloc(MiB), { stallAfter: 64 * 1024 });
    const abort = new AbortController();
    await assert.rejects(install(binaryEntry(url), { signal: abort.signal, onProgress: () => abort.abort() }), (e: Error) => e instanceof CancelledError);
    assertNothingLeft();
  });

  it('prune removes stale temp folders and versions no record uses, keeping the used ones', async () => {
    const keep = path.join(root, 'agents', 'a', '1.0.0');
    const old = path.join(root, 'agents', 'a', '0.9.0');
    const gone = path.join(root, 'agents', 'b', '2.0.0');
    const tmp = path.join(root, 'tmp', 'a-xyz');
    for (const d of [keep, old, gone, tmp]) fs.mkdirSync(d, { recursive: true });
    const removed = await prune(root, new Set([keep]), Date.now() + 2 * 3600_000);
    assert.deepEqual(removed.sort(), [old, gone, tmp].sort());
    assert.deepEqual(tree(path.join(root, 'agents')), ['a', 'a/1.0.0']);
    assert.deepEqual(await prune(root, new Set(), Date.now()), [], 'fresh folders (an install in another window) are kept');
  });
});
