// The one check of links before Revert, Restore or Undo Restore writes a file (src/common/safePath.ts),
// against real temporary folders and real symbolic links: a write the check allows is then made with
// fs.writeFile, which follows links as the editor's file system does, so a test sees where it lands.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkWritePath, pathRefusalMessage } from '../../../src/common/safePath';
import { pathRefusalWords } from '../../../src/ui/checkpointWords';
import { german } from '../l10n/german';

const posix = process.platform !== 'win32';

describe('safePath: writing only inside the workspace folders, never through a link that leads out or nowhere', () => {
  let ws: string;
  let outside: string;
  const dirs: string[] = [];
  const temp = (name: string): string => {
    const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `acp-safe-${name}-`)));
    dirs.push(d);
    return d;
  };
  /** Writes where the check says, as the views do; returns the refusal's code when there is one. */
  const writeChecked = async (file: string, text: string): Promise<string | undefined> => {
    const r = await checkWritePath([ws], file);
    if (!r.ok) return r.refusal.code;
    await fs.promises.writeFile(file, text);
    return undefined;
  };

  beforeEach(() => {
    ws = temp('ws');
    outside = temp('outside');
  });
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  (posix ? it : it.skip)('refuses a dangling link to an outside path, and the outside file is not created', async () => {
    const victim = path.join(outside, 'planted.sh');
    fs.symlinkSync(victim, path.join(ws, 'a.txt'));
    const r = await checkWritePath([ws], path.join(ws, 'a.txt'));
    assert.deepEqual(r, { ok: false, refusal: { code: 'link-nowhere', data: { link: path.join(ws, 'a.txt') } } });
    assert.equal(await writeChecked(path.join(ws, 'a.txt'), 'earlier bytes'), 'link-nowhere');
    assert.equal(fs.existsSync(victim), false, 'nothing was written outside');
    assert.match(pathRefusalMessage(r.ok ? assert.fail() : r.refusal), /leads nowhere/);
  });

  (posix ? it : it.skip)('allows a link to a file inside the workspace folder, and says where the write goes', async () => {
    fs.writeFileSync(path.join(ws, 'real.txt'), 'old');
    fs.symlinkSync(path.join(ws, 'real.txt'), path.join(ws, 'alias.txt'));
    assert.deepEqual(await checkWritePath([ws], path.join(ws, 'alias.txt')), { ok: true, real: path.join(ws, 'real.txt') });
    assert.equal(await writeChecked(path.join(ws, 'alias.txt'), 'new'), undefined);
    assert.equal(fs.readFileSync(path.join(ws, 'real.txt'), 'utf8'), 'new');
  });

  (posix ? it : it.skip)('refuses a link in a middle component that leads outside, even when the file beyond it does not exist', async () => {
    fs.symlinkSync(outside, path.join(ws, 'sub'));
    const file = path.join(ws, 'sub', 'deep', 'x.txt');
    const r = await checkWritePath([ws], file);
    assert.deepEqual(r, { ok: false, refusal: { code: 'link-outside', data: { link: path.join(ws, 'sub'), target: outside } } });
    fs.mkdirSync(path.join(outside, 'deep'));
    assert.equal(await writeChecked(file, 'x'), 'link-outside');
    assert.deepEqual(fs.readdirSync(path.join(outside, 'deep')), [], 'nothing was written outside');
  });

  it('allows a plain file, an existing one and a new one in a new folder', async () => {
    fs.writeFileSync(path.join(ws, 'plain.txt'), 'p');
    assert.deepEqual(await checkWritePath([ws], path.join(ws, 'plain.txt')), { ok: true, real: path.join(ws, 'plain.txt') });
    assert.deepEqual(await checkWritePath([ws], path.join(ws, 'new', 'n.txt')), { ok: true, real: path.join(ws, 'new', 'n.txt') });
  });

  it('refuses a path outside every folder as written, and a file used as a folder', async () => {
    assert.deepEqual(await checkWritePath([ws], path.join(outside, 'x')), { ok: false, refusal: { code: 'outside', data: { path: path.join(outside, 'x') } } });
    fs.writeFileSync(path.join(ws, 'f'), '');
    const r = await checkWritePath([ws], path.join(ws, 'f', 'x'));
    assert.equal(r.ok ? 'ok' : r.refusal.code, 'not-a-folder');
  });

  (posix ? it : it.skip)('refuses links that loop, and a link to a folder of another workspace folder is inside', async () => {
    fs.symlinkSync(path.join(ws, 'b'), path.join(ws, 'a'));
    fs.symlinkSync(path.join(ws, 'a'), path.join(ws, 'b'));
    const r = await checkWritePath([ws], path.join(ws, 'a', 'x'));
    assert.equal(r.ok ? 'ok' : r.refusal.code, 'link-nowhere');
    fs.symlinkSync(outside, path.join(ws, 'other'));
    assert.deepEqual(await checkWritePath([ws, outside], path.join(ws, 'other', 'x')), { ok: true, real: path.join(outside, 'x') });
  });

  it('words each refusal in the window’s language', () => {
    const link = { code: 'link-nowhere', data: { link: '/w/a.txt' } } as const;
    assert.match(pathRefusalWords(link, german), /\/w\/a\.txt/);
    assert.notEqual(pathRefusalWords(link, german), pathRefusalMessage(link), 'German, not the English of the log');
  });
});
