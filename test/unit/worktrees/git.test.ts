// The git plumbing of worktree sessions against real temporary repositories: a worktree on a new
// branch beside the repository, its state against the base, apply (merge, squash, conflict that
// loses nothing), and the bad inputs (not a repository, an existing branch, a dirty main tree, a
// worktree folder deleted behind our back).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyBranch, commitWorktree, removeWorktree } from '../../../src/worktrees/apply';
import { addWorktree, listWorktrees, repositoryOf, unappliedCommits, worktreeState } from '../../../src/worktrees/repo';

function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

describe('Worktrees: git plumbing on a real repository', function () {
  this.timeout(30000);
  let dir: string;
  let repo: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-wt-'));
    repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
    sh(repo, 'init', '-q', '-b', 'main');
    sh(repo, 'config', 'user.email', 't@example.com');
    sh(repo, 'config', 'user.name', 'T');
    fs.writeFileSync(path.join(repo, 'shared.txt'), 'base\nsecond\n');
    sh(repo, 'add', '-A');
    sh(repo, 'commit', '-q', '-m', 'base');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('explains a folder outside a repository, and finds the repository of a subfolder', async () => {
    const plain = path.join(dir, 'plain');
    fs.mkdirSync(plain);
    await assert.rejects(repositoryOf(plain), /is not in a git repository/);
    fs.mkdirSync(path.join(repo, 'sub'));
    assert.equal(fs.realpathSync(await repositoryOf(path.join(repo, 'sub'))), fs.realpathSync(repo));
  });

  it('adds a worktree on a new branch, refuses an existing branch, and reads its state', async () => {
    const folder = path.join(dir, 'repo.worktrees', 'demo-a');
    const added = await addWorktree(repo, 'acp/demo/a', folder, 'HEAD');
    assert.equal(added.baseRef, 'main');
    assert.equal((await listWorktrees(repo)).filter((w) => w.branch === 'acp/demo/a').length, 1);
    await assert.rejects(addWorktree(repo, 'acp/demo/a', path.join(dir, 'other'), 'HEAD'), /already exists: choose another name/);
    assert.equal(fs.existsSync(path.join(dir, 'other')), false);
    fs.writeFileSync(path.join(folder, 'new.txt'), 'x\n');
    let st = await worktreeState(folder, added.baseRef, added.baseCommit);
    assert.deepEqual(st, { exists: true, ahead: 0, behind: 0, changed: 1, uncommitted: 1 });
    assert.equal(await commitWorktree(folder, 'work'), true);
    assert.equal(await commitWorktree(folder, 'again'), false);
    st = await worktreeState(folder, added.baseRef, added.baseCommit);
    assert.deepEqual(st, { exists: true, ahead: 1, behind: 0, changed: 1, uncommitted: 0 });
  });

  it('merges one worktree, then a second that changed the same line conflicts and loses nothing', async () => {
    const a = await addWorktree(repo, 'acp/demo/a', path.join(dir, 'wa'), 'HEAD');
    const b = await addWorktree(repo, 'acp/demo/b', path.join(dir, 'wb'), 'HEAD');
    fs.writeFileSync(path.join(a.path, 'shared.txt'), 'from a\nsecond\n');
    fs.writeFileSync(path.join(b.path, 'shared.txt'), 'from b\nsecond\n');
    await commitWorktree(a.path, 'a');
    await commitWorktree(b.path, 'b');
    assert.deepEqual(await applyBranch(repo, a.branch, 'merge', 'apply a'), { kind: 'applied', files: ['shared.txt'] });
    assert.equal(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8'), 'from a\nsecond\n');
    assert.equal(await unappliedCommits(repo, a.branch), 0);
    const r = await applyBranch(repo, b.branch, 'merge', 'apply b');
    assert.deepEqual(r, { kind: 'conflict', files: ['shared.txt'] });
    const text = fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8');
    assert.match(text, /<<<<<<< [^\n]*\nfrom a\n=======\nfrom b\n>>>>>>> /);
    assert.equal(fs.readFileSync(path.join(b.path, 'shared.txt'), 'utf8'), 'from b\nsecond\n');
    // A dirty main tree (the conflict) is refused with a sentence, nothing changed.
    await assert.rejects(applyBranch(repo, a.branch, 'squash', 'x'), /uncommitted changes \(shared\.txt\): commit or stash them first/);
  });

  it('squashes into the main tree without committing; a worktree deleted behind our back is noticed and removed with its branch', async () => {
    const a = await addWorktree(repo, 'acp/demo/a', path.join(dir, 'wa'), 'HEAD');
    fs.writeFileSync(path.join(a.path, 'n.txt'), 'n\n');
    await commitWorktree(a.path, 'a');
    assert.equal((await applyBranch(repo, a.branch, 'squash', 'x')).kind, 'applied');
    assert.match(sh(repo, 'status', '--porcelain'), /^A {2}n\.txt/m);
    fs.rmSync(a.path, { recursive: true, force: true });
    assert.equal((await worktreeState(a.path, a.baseRef, a.baseCommit)).exists, false);
    await assert.rejects(commitWorktree(a.path, 'x'), /deleted outside VS Code/);
    await removeWorktree(repo, a.path, a.branch, true);
    assert.equal(sh(repo, 'branch', '--list', 'acp/demo/a').trim(), '');
    assert.equal((await listWorktrees(repo)).length, 1);
  });
});
