// The checkpoint engine against the real git where a folder of the work tree is (or becomes) a
// symbolic link, and where a file's name holds a backslash: what can be checkpointed is, what
// cannot is listed with why, and every name reads back as it was.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ShadowRepo } from '../../../src/checkpoints/shadowRepo';
import { rmrf, tempDir, write } from './support';

const posix = process.platform !== 'win32';

describe('Checkpoints: links and names', () => {
  let work: string;
  let store: string;
  let outside: string;
  const repos: ShadowRepo[] = [];
  const open = async (): Promise<ShadowRepo> => {
    const r = await ShadowRepo.open({ gitDir: path.join(store, 'w.git'), workTree: work });
    repos.push(r);
    return r;
  };

  beforeEach(() => {
    work = tempDir('work');
    store = tempDir('store');
    outside = tempDir('outside');
  });
  afterEach(() => {
    for (const r of repos.splice(0)) r.dispose();
    rmrf(work, store, outside);
  });

  (posix ? it : it.skip)(
    'a folder replaced by a link: the rest is checkpointed, the link is kept as a link, what lay beyond it is listed with why',
    async () => {
      write(work, 'keep.txt', 'keep\n');
      write(work, 'sub/a.txt', 'a\n');
      write(work, 'sub/deep/b.txt', 'b\n');
      write(outside, 'a.txt', 'elsewhere\n');
      const repo = await open();
      const before = await repo.checkpoint('s');
      fs.rmSync(path.join(work, 'sub'), { recursive: true });
      fs.symlinkSync(outside, path.join(work, 'sub'));
      write(work, 'keep.txt', 'kept\n');

      const after = await repo.checkpoint('s');
      assert.equal((await repo.read(after.id, 'keep.txt'))?.toString(), 'kept\n', 'the rest of the folder is checkpointed');
      assert.equal(await repo.read(after.id, 'sub/a.txt'), undefined, 'nothing is read through the link');
      assert.deepEqual(
        after.skipped.map((s) => s.path),
        ['sub/a.txt', 'sub/deep/b.txt'],
      );
      for (const s of after.skipped) assert.match(s.why, /beyond the symbolic link "sub"/);
      const changes = await repo.changes(before.id, after.id);
      assert.deepEqual(
        changes.map((c) => `${c.status} ${c.path}`),
        ['modified keep.txt', 'added sub', 'deleted sub/a.txt', 'deleted sub/deep/b.txt'],
      );
      assert.equal((await repo.read(before.id, 'sub/a.txt'))?.toString(), 'a\n', 'the earlier checkpoint still holds the files');
      // And the next one works as well (the link stays).
      write(work, 'keep.txt', 'again\n');
      const next = await repo.checkpoint('s');
      assert.equal((await repo.read(next.id, 'keep.txt'))?.toString(), 'again\n');
    },
  );

  (posix ? it : it.skip)('a file whose name holds a backslash is checkpointed, listed and read back under its own name', async () => {
    write(work, 'a\\b.txt', 'back\n');
    write(work, 'a/b.txt', 'slash\n');
    const repo = await open();
    const before = await repo.checkpoint('s');
    write(work, 'a\\b.txt', 'back 2\n');
    const after = await repo.checkpoint('s');
    assert.deepEqual(
      (await repo.changes(before.id, after.id)).map((c) => c.path),
      ['a\\b.txt'],
    );
    assert.equal((await repo.read(before.id, 'a\\b.txt'))?.toString(), 'back\n');
    assert.equal((await repo.read(after.id, 'a\\b.txt'))?.toString(), 'back 2\n');
    assert.equal((await repo.read(after.id, 'a/b.txt'))?.toString(), 'slash\n', 'the other file is a file of its own');
  });

  (posix ? it : it.skip)('a name with pathspec magic characters reads back as itself', async () => {
    write(work, '*.txt', 'star\n');
    write(work, 'x.txt', 'x\n');
    write(work, ':(glob)y', 'magic\n');
    const repo = await open();
    const c = await repo.checkpoint('s');
    assert.equal((await repo.read(c.id, '*.txt'))?.toString(), 'star\n');
    assert.equal((await repo.read(c.id, ':(glob)y'))?.toString(), 'magic\n');
  });
});
