// "Open Diff" reads the file a tool call names only when that is safe: hostile paths from an
// agent (`..`, links out, devices, FIFOs, /proc) on real files in a temporary workspace.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decideDiffRead, MAX_DIFF_READ_BYTES, readCapped } from '../../../src/ui/conversation/diffAccess';
import { german } from '../l10n/german';

describe('Open Diff: which files may be read', () => {
  let tmp: string;
  let ws: string;
  let outside: string;

  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-diff-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'inside\n');
    outside = path.join(tmp, 'secret.txt');
    fs.writeFileSync(outside, 'outside\n');
    fs.symlinkSync(outside, path.join(ws, 'link-out'));
    fs.symlinkSync('/dev/zero', path.join(ws, 'zero'));
    fs.symlinkSync(path.join(ws, 'src', 'a.ts'), path.join(ws, 'link-in'));
    const big = fs.openSync(path.join(ws, 'big.bin'), 'w');
    fs.ftruncateSync(big, 16 * 1024 * 1024 + 1); // sparse: size only
    fs.closeSync(big);
    execFileSync('mkfifo', [path.join(ws, 'fifo')]);
  });

  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('reads a regular file inside the workspace (absolute, relative, or through a link that stays inside)', async () => {
    for (const p of [path.join(ws, 'src', 'a.ts'), 'src/a.ts', path.join(ws, 'link-in'), path.join(ws, 'src', '..', 'src', 'a.ts')]) {
      const d = await decideDiffRead(p, [ws]);
      assert.equal(d.kind, 'read', `${p}: ${JSON.stringify(d)}`);
      if (d.kind === 'read') assert.equal(await readCapped(d.real), 'inside\n');
    }
  });

  it('asks first, naming the path, for a file outside: absolute, climbing out with .., or through a link', async () => {
    for (const p of [outside, '../secret.txt', path.join(ws, 'src', '..', '..', 'secret.txt'), path.join(ws, 'link-out')]) {
      const d = await decideDiffRead(p, [ws]);
      assert.equal(d.kind, 'ask', `${p}: ${JSON.stringify(d)}`);
      if (d.kind === 'ask') {
        assert.equal(d.real, outside);
        assert.match(d.why, /outside the workspace folders/);
      }
    }
    const viaLink = await decideDiffRead(path.join(ws, 'link-out'), [ws]);
    assert.ok(viaLink.kind === 'ask' && viaLink.path === path.join(ws, 'link-out') && viaLink.why.includes(outside), 'the modal can name both');
  });

  it('refuses devices, FIFOs, folders and oversized files without reading them, inside or out', async () => {
    const cases: [string, RegExp][] = [
      ['/dev/zero', /not a regular file/],
      [path.join(ws, 'zero'), /not a regular file/],
      [path.join(ws, 'fifo'), /not a regular file/],
      [path.join(ws, 'src'), /not a regular file/],
      [path.join(ws, 'big.bin'), /larger than 16 MiB/],
      [path.join(ws, 'nope.txt'), /does not exist/],
    ];
    for (const [p, why] of cases) {
      const d = await decideDiffRead(p, [ws]);
      assert.equal(d.kind, 'refuse', `${p}: ${JSON.stringify(d)}`);
      if (d.kind === 'refuse') assert.match(d.why, why);
    }
  });

  it('asks for /proc/self/environ (outside), and reads at most the cap even where the size says 0', async () => {
    if (!fs.existsSync('/proc/self/environ')) return;
    const d = await decideDiffRead('/proc/self/environ', [ws]);
    assert.equal(d.kind, 'ask');
    assert.equal(fs.statSync('/proc/self/environ').size, 0, 'procfs reports no size');
    const environBytes = Buffer.byteLength(
      Object.entries(process.env)
        .map(([k, v]) => `${k}=${v ?? ''}\0`)
        .join(''),
    );
    if (environBytes > 16) await assert.rejects(readCapped('/proc/self/environ', 16), /larger than 16 bytes/);
  });

  it('never blocks on a FIFO even if a decision was raced: the read checks the opened file again', async () => {
    await assert.rejects(readCapped(path.join(ws, 'fifo')), /not a regular file/);
    await assert.rejects(readCapped('/dev/zero', 1024), /not a regular file/);
  });

  it("says why in the caller's words (vscode.l10n from Open Diff), and marks a missing file apart from its wording", async () => {
    const big = await decideDiffRead(path.join(ws, 'big.bin'), [ws], MAX_DIFF_READ_BYTES, german);
    assert.ok(big.kind === 'refuse' && !big.missing);
    assert.equal(big.why, 'sie ist größer als 16 MiB');
    const out = await decideDiffRead(outside, [ws], MAX_DIFF_READ_BYTES, german);
    assert.ok(out.kind === 'ask' && out.why === 'sie liegt außerhalb der Arbeitsbereichsordner');
    const none = await decideDiffRead(path.join(ws, 'nope.txt'), [ws], MAX_DIFF_READ_BYTES, german);
    assert.ok(none.kind === 'refuse' && none.missing && none.why === 'die Datei existiert nicht');
    await assert.rejects(readCapped('/dev/zero', 1024, german), /\/dev\/zero ist keine reguläre Datei\./);
  });

  it('refuses a relative path when no workspace folder is open', async () => {
    const d = await decideDiffRead('src/a.ts', []);
    assert.equal(d.kind, 'refuse');
  });
});
