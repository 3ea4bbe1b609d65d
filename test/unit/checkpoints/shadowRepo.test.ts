// The checkpoint engine against the real git, in temporary folders: checkpoints of a folder that is
// not a repository, what changed between two of them and the files as they were, .gitignore, the
// size and binary caps, the file-count refusal, the stat cache, pruning, dropping a tag, and git
// missing.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CheckpointError, GitMissingError, ShadowRepo, type ShadowRepoOptions } from '../../../src/checkpoints/shadowRepo';
import { rmrf, tempDir, write } from './support';

describe('Checkpoints: the shadow repository', () => {
  let work: string;
  let store: string;
  const repos: ShadowRepo[] = [];
  const open = async (more: Partial<ShadowRepoOptions> = {}): Promise<ShadowRepo> => {
    const r = await ShadowRepo.open({ gitDir: path.join(store, 'checkpoints', 'w.git'), workTree: work, ...more });
    repos.push(r);
    return r;
  };

  beforeEach(() => {
    work = tempDir('work');
    store = tempDir('store');
  });
  afterEach(() => {
    for (const r of repos.splice(0)) r.dispose();
    rmrf(work, store);
  });

  it('checkpoints a folder that is not a repository: changes lists exactly what changed, with line counts, and read returns both sides', async () => {
    write(work, 'keep.txt', 'same\n');
    write(work, 'src/a.ts', 'one\ntwo\nthree\n');
    write(work, 'src/deep/gone.md', 'bye\nnow\n');
    const repo = await open();
    const before = await repo.checkpoint('session-1');
    write(work, 'src/a.ts', 'one\n2\nthree\nfour\n');
    write(work, 'src/new.ts', 'hello\n');
    fs.rmSync(path.join(work, 'src/deep/gone.md'));
    const after = await repo.checkpoint('session-1');

    const changes = await repo.changes(before.id, after.id);
    assert.deepEqual(changes, [
      { path: 'src/a.ts', status: 'modified', added: 2, removed: 1, binary: false },
      { path: 'src/deep/gone.md', status: 'deleted', added: 0, removed: 2, binary: false },
      { path: 'src/new.ts', status: 'added', added: 1, removed: 0, binary: false },
    ]);
    assert.equal((await repo.read(before.id, 'src/a.ts'))?.toString(), 'one\ntwo\nthree\n');
    assert.equal((await repo.read(after.id, 'src/a.ts'))?.toString(), 'one\n2\nthree\nfour\n');
    assert.equal((await repo.read(before.id, 'src/deep/gone.md'))?.toString(), 'bye\nnow\n');
    assert.equal(await repo.read(after.id, 'src/deep/gone.md'), undefined);
    assert.equal(await repo.read(before.id, 'src/new.ts'), undefined);
    assert.equal(await repo.read(before.id, 'src'), undefined, 'a folder is not a file');
    await assert.rejects(repo.read(before.id, '../outside'), CheckpointError);
    assert.deepEqual(await repo.changes(after.id, after.id), []);
    assert.ok(!fs.existsSync(path.join(work, '.git')), 'the folder is only read');
  });

  it('keeps checkpoints across a reopen, and the next checkpoint builds on the kept index', async () => {
    write(work, 'a.txt', 'a\n');
    let repo = await open();
    const first = await repo.checkpoint('t');
    repo.dispose();
    repo = await open();
    assert.equal(await repo.has(first.id), true);
    const again = await repo.checkpoint('t');
    assert.equal(again.tree, first.tree);
    assert.equal(again.looked, 0);
    assert.equal((await repo.read(first.id, 'a.txt'))?.toString(), 'a\n');
  });

  it('respects .gitignore files and the workspace repository’s info/exclude', async () => {
    write(work, '.gitignore', 'node_modules/\n*.log\n');
    write(work, 'sub/.gitignore', 'secret.txt\n');
    write(work, 'node_modules/pkg/index.js', 'x');
    write(work, 'debug.log', 'x');
    write(work, 'sub/secret.txt', 'x');
    write(work, 'sub/kept.txt', 'x');
    write(work, '.git/info/exclude', 'local-only/\n');
    write(work, 'local-only/file.txt', 'x');
    const repo = await open();
    const a = await repo.checkpoint('t');
    const files = await Promise.all(
      ['.gitignore', 'sub/kept.txt', 'node_modules/pkg/index.js', 'debug.log', 'sub/secret.txt', 'local-only/file.txt'].map((p) => repo.read(a.id, p)),
    );
    assert.deepEqual(
      files.map((f) => f !== undefined),
      [true, true, false, false, false, false],
    );
  });

  it('leaves out files over the size cap and binaries over theirs, saying why; a file that grows over the cap leaves the checkpoint', async () => {
    const bin = Buffer.alloc(5000, 1);
    bin[10] = 0;
    write(work, 'small.bin', bin);
    write(work, 'big.bin', Buffer.concat([bin, Buffer.alloc(20_000, 2)]));
    write(work, 'big.txt', 'x'.repeat(50_000));
    write(work, 'huge.txt', 'y'.repeat(200_000));
    write(work, 'grows.txt', 'z\n');
    const repo = await open({ maxFileBytes: 100_000, maxBinaryBytes: 10_000 });
    const a = await repo.checkpoint('t');
    assert.deepEqual(a.skipped, [
      { path: 'big.bin', why: 'a binary file larger than 10 KiB (25 KiB)' },
      { path: 'huge.txt', why: 'larger than 98 KiB (196 KiB)' },
    ]);
    assert.equal(a.skippedTotal, 2);
    assert.ok(await repo.read(a.id, 'small.bin'));
    assert.ok(await repo.read(a.id, 'big.txt'));
    assert.equal(await repo.read(a.id, 'big.bin'), undefined);
    write(work, 'grows.txt', 'z'.repeat(150_000));
    const b = await repo.checkpoint('t');
    assert.deepEqual(
      b.skipped.map((s) => s.path),
      ['big.bin', 'grows.txt', 'huge.txt'],
    );
    assert.equal(await repo.read(b.id, 'grows.txt'), undefined);
    assert.deepEqual(await repo.changes(a.id, b.id), [{ path: 'grows.txt', status: 'deleted', added: 0, removed: 1, binary: false }]);
  });

  it('refuses a work tree with more files than maxFiles, with a sentence', async () => {
    for (let i = 0; i < 30; i++) write(work, `f${i}.txt`, `${i}`);
    const repo = await open({ maxFiles: 20 });
    await assert.rejects(
      repo.checkpoint('t'),
      (e: unknown) => e instanceof CheckpointError && /more than 20 files/.test(e.message) && /\.gitignore/.test(e.message),
    );
    const roomy = await open({ maxFiles: 30, gitDir: path.join(store, 'roomy.git') });
    assert.ok((await roomy.checkpoint('t')).id);
  });

  it('uses the stat cache: an unchanged tree gives the same tree id, looking at no path', async () => {
    for (let i = 0; i < 300; i++) write(work, `d${i % 7}/f${i}.txt`, `file ${i}\n`.repeat(20));
    const repo = await open();
    const first = await repo.checkpoint('t');
    assert.equal(first.looked, 300);
    await repo.idle();
    const second = await repo.checkpoint('t');
    assert.equal(second.tree, first.tree);
    assert.notEqual(second.id, first.id);
    assert.equal(second.looked, 0);
    write(work, 'd3/f3.txt', 'changed\n');
    const third = await repo.checkpoint('t');
    assert.equal(third.looked, 1);
    assert.deepEqual(
      (await repo.changes(second.id, third.id)).map((c) => c.path),
      ['d3/f3.txt'],
    );
  });

  it('prunes the oldest checkpoints first, across tags, when the store is over its cap; the newest stays', async () => {
    const repo = await open({ maxStoreBytes: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      write(work, `f${i}.txt`, `content ${i}\n`.repeat(100));
      ids.push((await repo.checkpoint(i % 2 ? 'odd' : 'even')).id);
    }
    await repo.idle();
    assert.deepEqual(await Promise.all(ids.map((id) => repo.has(id))), [false, false, false, true]);
    await assert.rejects(repo.read(ids[0]!, 'f0.txt'), /no longer stored/);
    assert.equal((await repo.read(ids[3]!, 'f0.txt'))?.toString(), 'content 0\n'.repeat(100));
  });

  it('drops every checkpoint of a tag and reclaims their space; other tags stay', async () => {
    const repo = await open();
    write(work, 'a.txt', 'a'.repeat(100_000) + Math.random());
    const a1 = await repo.checkpoint('session A');
    write(work, 'a.txt', 'b'.repeat(100_000) + Math.random());
    const a2 = await repo.checkpoint('session A');
    const b1 = await repo.checkpoint('session B');
    await repo.idle();
    const before = await repo.sizeBytes();
    await repo.dropTag('session A');
    assert.deepEqual(await Promise.all([a1, a2, b1].map((c) => repo.has(c.id))), [false, false, true]);
    await repo.idle();
    assert.ok((await repo.sizeBytes()) < before, 'the dropped checkpoints’ objects are gone');
    await repo.dropTag('never used');
  });

  it('refuses a store inside the folder (or the folder inside the store)', async () => {
    await assert.rejects(ShadowRepo.open({ gitDir: path.join(work, '.ckpt.git'), workTree: work }), /overlap/);
    await assert.rejects(ShadowRepo.open({ gitDir: store, workTree: path.join(store, 'w') }), /overlap/);
  });

  it('says git is missing with a GitMissingError, and rejects after dispose', async () => {
    await assert.rejects(
      ShadowRepo.open({ gitDir: path.join(store, 'x.git'), workTree: work, git: '/nonexistent/git' }),
      (e: unknown) => e instanceof GitMissingError && /^git was not found \(\/nonexistent\/git: ENOENT\): checkpoints are off; install git/.test(e.message),
    );
    const repo = await open();
    const pending = repo.checkpoint('t');
    repo.dispose();
    await assert.rejects(pending, CheckpointError);
    await assert.rejects(repo.has('0'.repeat(40)), /closed/);
  });
});
