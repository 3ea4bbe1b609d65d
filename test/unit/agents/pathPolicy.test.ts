// Containment of agents' file reads and writes, against a real temporary folder with real symbolic
// links (dangling, pointing out, chains, loops), `..` segments, hard links and special files.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { AccessDeniedError, MAX_PATH_CHARS, resolveFolderInRoots, resolveInRoots } from '../../../src/agents/pathPolicy';

const posix = process.platform !== 'win32';

describe('agent file paths (pathPolicy)', () => {
  let tmp: string;
  let ws: string;
  let outside: string;

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-paths-')));
    ws = path.join(tmp, 'ws');
    outside = path.join(tmp, 'outside');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'a');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const denied = async (p: Promise<unknown>, re: RegExp): Promise<void> => {
    await assert.rejects(p, (err: unknown) => err instanceof AccessDeniedError && re.test(err.message));
  };

  it('reads and writes plain files inside, and plans new files with their missing folders inside', async () => {
    const r = await resolveInRoots([ws], path.join(ws, 'src', 'a.ts'), 'read');
    assert.equal(r.real, path.join(ws, 'src', 'a.ts'));
    assert.equal(r.exists, true);
    const w = await resolveInRoots([ws], path.join(ws, 'new', 'deep', 'b.ts'), 'write');
    assert.equal(w.real, path.join(ws, 'new', 'deep', 'b.ts'));
    assert.equal(w.exists, false);
    assert.equal(w.root, ws);
  });

  it('refuses relative, NUL, over-long and outside paths, and `..` that climbs out', async () => {
    await denied(resolveInRoots([ws], 'src/a.ts', 'read'), /must be absolute/);
    await denied(resolveInRoots([ws], `${ws}/src/a\0.ts`, 'read'), /NUL/);
    await denied(resolveInRoots([ws], `${ws}/${'x'.repeat(MAX_PATH_CHARS)}`, 'write'), /characters/);
    await denied(resolveInRoots([ws], path.join(outside, 'secret.txt'), 'read'), /outside the workspace/);
    await denied(resolveInRoots([ws], `${ws}/src/../../outside/secret.txt`, 'read'), /outside the workspace/);
    await denied(resolveInRoots([ws], `${ws}/../ws-sibling/x`, 'write'), /outside the workspace/);
    // `..` that stays inside is resolved, and the resolved path is what is used.
    const r = await resolveInRoots([ws], `${ws}/new/../src/./a.ts`, 'read');
    assert.equal(r.real, path.join(ws, 'src', 'a.ts'));
  });

  (posix ? it : it.skip)('refuses links that lead out, dangle or loop, in any component', async () => {
    fs.symlinkSync(outside, path.join(ws, 'out-dir'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'out-file'));
    fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling'));
    fs.symlinkSync(path.join(outside, 'nodir'), path.join(ws, 'dangling-dir'));
    fs.symlinkSync(path.join(ws, 'loop-b'), path.join(ws, 'loop-a'));
    fs.symlinkSync(path.join(ws, 'loop-a'), path.join(ws, 'loop-b'));
    await denied(resolveInRoots([ws], path.join(ws, 'out-dir', 'secret.txt'), 'read'), /leads outside/);
    await denied(resolveInRoots([ws], path.join(ws, 'out-dir', 'new.txt'), 'write'), /leads outside/);
    await denied(resolveInRoots([ws], path.join(ws, 'out-file'), 'read'), /leads outside/);
    await denied(resolveInRoots([ws], path.join(ws, 'out-file'), 'write'), /leads outside/);
    // The reported defect: a write through a dangling link created the file outside.
    await denied(resolveInRoots([ws], path.join(ws, 'dangling'), 'write'), /dangling/);
    await denied(resolveInRoots([ws], path.join(ws, 'dangling-dir', 'x', 'y.txt'), 'write'), /dangling/);
    await denied(resolveInRoots([ws], path.join(ws, 'loop-a'), 'write'), /loops/);
    assert.equal(fs.existsSync(path.join(outside, 'not-yet.txt')), false);
    assert.equal(fs.existsSync(path.join(outside, 'nodir')), false);
  });

  (posix ? it : it.skip)('follows links (and chains) that stay inside, and writes where they land', async () => {
    fs.mkdirSync(path.join(ws, 'real'));
    fs.writeFileSync(path.join(ws, 'real', 'f.txt'), 'f');
    fs.symlinkSync(path.join(ws, 'real'), path.join(ws, 'l1'));
    fs.symlinkSync('l1', path.join(ws, 'l2')); // relative, and a chain
    const r = await resolveInRoots([ws], path.join(ws, 'l2', 'f.txt'), 'write');
    assert.equal(r.real, path.join(ws, 'real', 'f.txt'));
    const n = await resolveInRoots([ws], path.join(ws, 'l2', 'sub', 'new.txt'), 'write');
    assert.equal(n.real, path.join(ws, 'real', 'sub', 'new.txt'));
    // A chain that passes outside and comes back lands inside: allowed (the data lands inside).
    fs.symlinkSync(path.join(ws, 'real', 'f.txt'), path.join(outside, 'back'));
    fs.symlinkSync(path.join(outside, 'back'), path.join(ws, 'via-outside'));
    assert.equal((await resolveInRoots([ws], path.join(ws, 'via-outside'), 'read')).real, path.join(ws, 'real', 'f.txt'));
  });

  (posix ? it : it.skip)('accepts a root given through a link, by either spelling, and links between roots', async () => {
    const alias = path.join(tmp, 'alias');
    fs.symlinkSync(ws, alias);
    assert.equal((await resolveInRoots([alias], path.join(alias, 'src', 'a.ts'), 'read')).real, path.join(ws, 'src', 'a.ts'));
    assert.equal((await resolveInRoots([alias], path.join(ws, 'src', 'a.ts'), 'read')).real, path.join(ws, 'src', 'a.ts'));
    const other = path.join(tmp, 'other');
    fs.mkdirSync(other);
    fs.symlinkSync(other, path.join(ws, 'to-other'));
    await denied(resolveInRoots([ws], path.join(ws, 'to-other', 'x'), 'write'), /leads outside/);
    assert.equal((await resolveInRoots([ws, other], path.join(ws, 'to-other', 'x'), 'write')).real, path.join(other, 'x'));
  });

  it('refuses folders, files in the middle of a path, and missing files for reading', async () => {
    await denied(resolveInRoots([ws], path.join(ws, 'src'), 'read'), /folder/);
    await denied(resolveInRoots([ws], path.join(ws, 'src'), 'write'), /folder/);
    await denied(resolveInRoots([ws], ws, 'write'), /folder/);
    await denied(resolveInRoots([ws], path.join(ws, 'src', 'a.ts', 'x'), 'write'), /not a folder/);
    await denied(resolveInRoots([ws], path.join(ws, 'src', 'nope.ts'), 'read'), /does not exist/);
  });

  (posix ? it : it.skip)('refuses FIFOs (which would block) and hard-linked files for writing', async () => {
    execFileSync('mkfifo', [path.join(ws, 'pipe')]);
    await denied(resolveInRoots([ws], path.join(ws, 'pipe'), 'read'), /not a regular file/);
    await denied(resolveInRoots([ws], path.join(ws, 'pipe'), 'write'), /not a regular file/);
    fs.linkSync(path.join(outside, 'secret.txt'), path.join(ws, 'hard'));
    await denied(resolveInRoots([ws], path.join(ws, 'hard'), 'write'), /hard links/);
  });

  it('gives the working directory of a command: the first root by default, inside the roots only', async () => {
    assert.equal(await resolveFolderInRoots([ws], undefined), ws);
    assert.equal(await resolveFolderInRoots([ws], path.join(ws, 'src')), path.join(ws, 'src'));
    await denied(resolveFolderInRoots([ws], '/'), /outside the session's folders/);
    await denied(resolveFolderInRoots([ws], outside), /outside the session's folders/);
    await denied(resolveFolderInRoots([ws], `${ws}/src/../..`), /outside the session's folders/);
    await denied(resolveFolderInRoots([ws], 'src'), /must be absolute/);
    await denied(resolveFolderInRoots([ws], path.join(ws, 'missing')), /does not exist/);
    await denied(resolveFolderInRoots([ws], path.join(ws, 'src', 'a.ts')), /not a folder/);
    await denied(resolveFolderInRoots([], undefined), /no folder/);
    if (posix) {
      fs.symlinkSync(outside, path.join(ws, 'escape'));
      await denied(resolveFolderInRoots([ws], path.join(ws, 'escape')), /outside the session's folders/);
    }
  });
});
