// The programs a repository's own configuration names do not run in the worktree commands: its
// filters (selected by a .gitattributes in the tree), its merge drivers and its signing program.
// Each one here writes a marker file; the product's operations (add a worktree, commit in it, merge
// and squash it back) must never make one.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyBranch, commitWorktree } from '../../../src/worktrees/apply';
import { addWorktree, worktreeState } from '../../../src/worktrees/repo';

function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

/** A shell program that leaves `<markers>/<name>` behind and passes its input through. */
function program(markers: string, name: string): string {
  const file = path.join(markers, `${name}.sh`);
  fs.writeFileSync(file, `#!/bin/sh\ntouch "${path.join(markers, name)}"\ncat\n`, { mode: 0o755 });
  return file;
}

describe('Worktrees: programs named in the repository configuration do not run', function () {
  this.timeout(30000);
  let dir: string;
  let repo: string;
  let markers: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-wt-programs-'));
    repo = path.join(dir, 'repo');
    markers = path.join(dir, 'markers');
    fs.mkdirSync(repo);
    fs.mkdirSync(markers);
    sh(repo, 'init', '-q', '-b', 'main');
    sh(repo, 'config', 'user.email', 't@example.com');
    sh(repo, 'config', 'user.name', 'T');
    fs.writeFileSync(path.join(repo, '.gitattributes'), '*.txt filter=mark merge=mark\n');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\ntwo\n');
    sh(repo, 'add', '-A');
    sh(repo, 'commit', '-q', '-m', 'base');
    // Defined only now: the commit above ran none of them.
    sh(repo, 'config', 'filter.mark.smudge', program(markers, 'smudge'));
    sh(repo, 'config', 'filter.mark.clean', program(markers, 'clean'));
    sh(repo, 'config', 'filter.mark.required', 'true');
    sh(repo, 'config', 'merge.mark.driver', `${program(markers, 'merge')} %O %A %B`);
    sh(repo, 'config', 'gpg.program', program(markers, 'gpg'));
    sh(repo, 'config', 'commit.gpgSign', 'true');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const ran = (): string[] => fs.readdirSync(markers).filter((f) => !f.endsWith('.sh'));

  it('adds a worktree, commits in it and merges it back without running a filter, merge driver or gpg.program', async () => {
    const added = await addWorktree(repo, 'acp/demo/a', path.join(dir, 'wa'), 'HEAD');
    assert.deepEqual(ran(), [], `adding the worktree ran: ${ran().join(', ')}`);
    assert.equal(fs.readFileSync(path.join(added.path, 'a.txt'), 'utf8'), 'one\ntwo\n', 'checked out as stored');
    fs.writeFileSync(path.join(added.path, 'a.txt'), 'one\ntwo\nthree\n');
    fs.writeFileSync(path.join(added.path, 'b.txt'), 'new\n');
    await worktreeState(added.path, added.baseRef, added.baseCommit);
    assert.equal(await commitWorktree(added.path, 'work'), true);
    assert.deepEqual(ran(), [], `reading its state and committing ran: ${ran().join(', ')}`);
    assert.equal(sh(repo, 'log', '-1', '--format=%G?', 'acp/demo/a').trim(), 'N', 'the commit is not signed');
    // The main tree changed the same file elsewhere: the merge needs the file's merge driver.
    fs.writeFileSync(path.join(repo, 'a.txt'), 'zero\none\ntwo\n');
    sh(repo, '-c', 'filter.mark.clean=', '-c', 'filter.mark.required=false', '-c', 'commit.gpgSign=false', 'commit', '-q', '-am', 'main moves on');
    const r = await applyBranch(repo, 'acp/demo/a', 'merge', 'apply');
    assert.deepEqual(ran(), [], `these ran: ${ran().join(', ')}`);
    assert.equal(r.kind, 'conflict', 'a file whose merge driver the repository names is left to resolve, not merged by its program');
    assert.deepEqual(r.files, ['a.txt']);
    assert.equal(fs.readFileSync(path.join(repo, 'b.txt'), 'utf8'), 'new\n', 'the rest is merged');
  });

  it('squashes a worktree back without running any of them', async () => {
    const added = await addWorktree(repo, 'acp/demo/b', path.join(dir, 'wb'), 'HEAD');
    fs.writeFileSync(path.join(added.path, 'c.txt'), 'c\n');
    assert.equal(await commitWorktree(added.path, 'work'), true);
    assert.deepEqual(await applyBranch(repo, 'acp/demo/b', 'squash', 'apply'), { kind: 'applied', files: ['c.txt'] });
    assert.deepEqual(ran(), [], `these ran: ${ran().join(', ')}`);
  });

  it('a driver whose name git cannot be told to skip stops git before it runs', async () => {
    sh(repo, 'config', 'filter.a=b.smudge', program(markers, 'odd'));
    await assert.rejects(addWorktree(repo, 'acp/demo/c', path.join(dir, 'wc'), 'HEAD'), /names a filter driver "a=b" that cannot be turned off/);
    assert.deepEqual(ran(), []);
  });
});
