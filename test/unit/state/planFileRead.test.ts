// Reading a file plan's file: what the path really is decides (links, FIFOs, devices, size).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkOpenable, readPlanFile } from '../../../src/ui/tree/planFileRead';

describe('file plans: reading the file', function () {
  this.timeout(10000);
  let dir: string;
  let ws: string;
  let outside: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-planfile-'));
    ws = path.join(dir, 'ws');
    outside = path.join(dir, 'outside');
    mkdirSync(ws);
    mkdirSync(outside);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file inside the workspace', async () => {
    writeFileSync(path.join(ws, 'plan.md'), '# Plan\n- [ ] a\n');
    assert.deepEqual(await readPlanFile(path.join(ws, 'plan.md'), [ws]), { text: '# Plan\n- [ ] a\n', size: 15, cut: false });
  });

  it('reads the head of a large file and says what was left out', async () => {
    writeFileSync(path.join(ws, 'big.md'), 'x'.repeat(5000));
    const r = await readPlanFile(path.join(ws, 'big.md'), [ws], 1024);
    assert.ok('text' in r && r.cut && r.size === 5000);
    assert.ok('text' in r && r.text.startsWith('x'.repeat(1024) + '\n\n(cut: only the first 1 KiB of 5 KiB are shown)'));
  });

  it('does not follow a link out of the workspace (but offers to open it)', async () => {
    writeFileSync(path.join(outside, 'secret.md'), 'secret');
    symlinkSync(path.join(outside, 'secret.md'), path.join(ws, 'plan.md'));
    symlinkSync(outside, path.join(ws, 'dirlink'));
    for (const p of [path.join(ws, 'plan.md'), path.join(ws, 'dirlink', 'secret.md')]) {
      const r = await readPlanFile(p, [ws]);
      assert.ok('error' in r && r.offerOpen === true && /outside the workspace folders/.test(r.error), JSON.stringify(r));
    }
  });

  it('refuses a link to /dev/zero or /proc/self/environ, and never offers to open it', async () => {
    for (const target of ['/dev/zero', '/proc/self/environ']) {
      const link = path.join(ws, path.basename(target));
      symlinkSync(target, link);
      const r = await readPlanFile(link, [ws, '/']);
      assert.ok('error' in r && !r.offerOpen && /system file/.test(r.error), JSON.stringify(r));
      const open = await checkOpenable(link);
      assert.ok(!open.ok && /system file/.test(open.reason));
    }
  });

  it('refuses a FIFO without blocking (no writer ever opens it)', async function () {
    const fifo = path.join(ws, 'plan.md');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      this.skip();
    }
    const r = await readPlanFile(fifo, [ws]);
    assert.deepEqual(r, { error: 'refused: a pipe (FIFO), not a regular file' });
    const open = await checkOpenable(fifo);
    assert.deepEqual(open, { ok: false, reason: 'a pipe (FIFO), not a regular file' });
  });

  it('refuses a folder and reports a missing file', async () => {
    assert.deepEqual(await readPlanFile(ws, [dir]), { error: 'is a folder' });
    assert.deepEqual(await readPlanFile(path.join(ws, 'nope.md'), [ws]), { error: 'not found' });
    assert.deepEqual(await checkOpenable(path.join(ws, 'nope.md')), { ok: false, reason: 'not found' });
  });
});
