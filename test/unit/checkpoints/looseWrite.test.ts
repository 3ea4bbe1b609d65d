// What the checkpoint engine writes without git (a checkpoint's commit object and its ref) is what
// git itself writes: the same commit id as `git commit-tree` for the same tree, time and message, a
// repository git checks clean (`fsck --strict`), and a ref git lists; and the one-run listing of
// candidates is read right however git's output is cut into chunks.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRef, gitDate, IDENTITY, writeCommit } from '../../../src/checkpoints/looseWrite';
import { newPathCounter, splitListing } from '../../../src/checkpoints/scan';
import { rmrf, tempDir, userGit, write } from './support';

describe('Checkpoints: the commit and ref written without git, and the listing of candidates', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('loose');
  });
  afterEach(() => rmrf(dir));

  it('writes the commit git commit-tree writes, and a ref git reads; fsck finds the repository clean', async () => {
    const gitDir = path.join(dir, 'r.git');
    userGit(dir, ['init', '-q', '--bare', gitDir]);
    const env = { GIT_DIR: gitDir, GIT_WORK_TREE: path.join(dir, 'w'), GIT_INDEX_FILE: path.join(gitDir, 'index') };
    write(dir, 'w/a.txt', 'a\n');
    write(dir, 'w/sub/b.txt', 'b\n');
    userGit(dir, ['add', '-A'], env);
    const tree = userGit(dir, ['write-tree'], env).trim();
    const ms = 1_764_680_000_123;
    const msg = `checkpoint ${'ab'.repeat(20)} ${ms}`;
    const ours = await writeCommit(gitDir, tree, msg, ms);
    const date = gitDate(ms);
    const theirs = userGit(dir, ['commit-tree', tree, '-m', msg], {
      ...env,
      GIT_AUTHOR_NAME: IDENTITY.name,
      GIT_AUTHOR_EMAIL: IDENTITY.email,
      GIT_COMMITTER_NAME: IDENTITY.name,
      GIT_COMMITTER_EMAIL: IDENTITY.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    }).trim();
    assert.equal(ours, theirs);
    assert.equal(await writeCommit(gitDir, tree, msg, ms), ours, 'writing it again finds it there');
    const ref = `refs/checkpoints/${'ab'.repeat(20)}/${String(ms).padStart(16, '0')}`;
    await createRef(gitDir, ref, ours);
    assert.equal(userGit(dir, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/checkpoints/'], env), `${ours} ${ref}\n`);
    await assert.rejects(createRef(gitDir, ref, ours), /could not be written: .*exists already/);
    assert.ok(!fs.existsSync(path.join(gitDir, `${ref}.lock`)), 'no lock is left behind');
    userGit(dir, ['fsck', '--strict', '--no-progress'], env);
    assert.equal(userGit(dir, ['cat-file', '-t', ours], env).trim(), 'commit');
  });

  it('refuses a tree id that is not SHA-1', async () => {
    await assert.rejects(writeCommit(dir, 'f'.repeat(64), 'm', 0), /not a SHA-1 tree id/);
  });

  it('splits ls-files -t output into changed and new paths, and counts new ones across any cut', () => {
    const out = Buffer.from('? new.txt\0? nest/\0C changed.txt\0C gone.txt\0', 'utf8');
    const { changed, untracked } = splitListing(out);
    assert.deepEqual(
      untracked.map((b) => b.toString()),
      ['new.txt', 'nest/'],
    );
    assert.deepEqual(
      changed.map((b) => b.toString()),
      ['changed.txt', 'gone.txt'],
    );
    for (let cut = 0; cut <= out.length; cut++) {
      const feed = (room: number): boolean[] => {
        const watch = newPathCounter(room);
        return [watch(out.subarray(0, cut)), watch(out.subarray(cut))];
      };
      assert.deepEqual(feed(2), [true, true], `two new paths fit in a room of two (cut at ${cut})`);
      assert.ok(feed(1).includes(false), `two new paths do not fit in a room of one (cut at ${cut})`);
    }
    assert.equal(newPathCounter(0)(Buffer.from('C a\0C b\0')), true, 'tracked paths are not counted');
  });
});
