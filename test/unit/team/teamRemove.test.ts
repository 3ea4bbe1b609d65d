// Remove Worktree through the Team service, in plain Node against real temporary repositories, the
// UI port answered from a script: what would be lost is asked about first (uncommitted files,
// commits the main tree lacks, with their counts), the worktree's live sessions are closed, the
// branch kept or deleted as asked; a worktree folder deleted outside VS Code is forgotten and pruned.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RemoveLoss } from '../../../src/app/team/teamPorts';
import type { WorktreeRecord } from '../../../src/app/team/worktreeSessions';
import { english } from '../../../src/common/l10n';
import { deleteBranchDetail, removeQuestion } from '../../../src/ui/team/teamWords';
import { removeWorktree } from '../../../src/worktrees/apply';
import { makeRepo, ScriptedUi, sh, teamWorld } from './support';

describe('Team service: Remove Worktree on a real repository', function () {
  this.timeout(30000);
  let dir: string;
  let repo: string;
  beforeEach(() => ({ dir, repo } = makeRepo()));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const worktrees = (): number => (sh(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm) ?? []).length;
  const branchThere = (b: string): boolean => sh(repo, 'branch', '--list', b).trim() !== '';

  /** A worktree with `commits` commits of its own on its branch. */
  async function withCommits(w: ReturnType<typeof teamWorld>, commits: number): Promise<WorktreeRecord> {
    const { record } = await w.team.newSessionInWorktree({ folder: repo, agentId: 'demo', base: 'HEAD', name: 'x' });
    for (let i = 0; i < commits; i++) {
      fs.writeFileSync(path.join(record.path, `c${i}.txt`), `${i}\n`);
      sh(record.path, 'add', '-A');
      sh(record.path, 'commit', '-q', '-m', `c${i}`);
    }
    return record;
  }

  it('asks first, with the uncommitted files and the unapplied commits counted; cancelled, nothing is removed', async () => {
    const ui = new ScriptedUi({});
    const w = teamWorld(ui);
    const r = await withCommits(w, 2);
    fs.appendFileSync(path.join(r.path, 'shared.txt'), 'changed\n');
    fs.writeFileSync(path.join(r.path, 'new1.txt'), '1\n');
    fs.mkdirSync(path.join(r.path, 'sub'));
    fs.writeFileSync(path.join(r.path, 'sub', 'new2.txt'), '2\n');
    assert.equal(await w.team.remove({ path: r.path }), undefined);
    const [asked, loss] = ui.args<[WorktreeRecord, RemoveLoss]>('confirmRemove');
    assert.equal(asked.path, r.path);
    assert.deepEqual(
      { ...loss, uncommitted: [...loss.uncommitted].sort() },
      { folderGone: false, uncommitted: ['new1.txt', 'shared.txt', 'sub/new2.txt'], unapplied: 2 },
    );
    assert.ok(fs.existsSync(path.join(r.path, 'new1.txt')), 'nothing removed');
    assert.equal(worktrees(), 2);
    assert.equal(w.sessions.worktrees().length, 1);
  });

  it('words exactly what would be lost: commits alone are not "uncommitted", files alone are, both are said apart', async () => {
    const question = async (dirty: boolean, commits: number): Promise<string> => {
      const ui = new ScriptedUi({});
      const w = teamWorld(ui);
      const r = await withCommits(w, commits);
      if (dirty) fs.appendFileSync(path.join(r.path, 'shared.txt'), 'changed\n');
      await w.team.remove({ path: r.path });
      const [, loss] = ui.args<[WorktreeRecord, RemoveLoss]>('confirmRemove');
      const text = `${removeQuestion(r.branch, r.path, loss, english)}\n${deleteBranchDetail(r.branch, loss, english)}`;
      await removeWorktree(repo, r.path, r.branch, true);
      return text;
    };
    const committed = await question(false, 1);
    assert.match(
      committed,
      /^acp\/demo\/x has nothing uncommitted and 1 commit\(s\) not applied to the main tree: they stay on the branch unless it is deleted too\. Remove it\?$/m,
    );
    assert.doesNotMatch(committed, /loses|uncommitted file/);
    assert.match(committed, /^git branch -D acp\/demo\/x: its 1 commit\(s\) not applied to the main tree are lost$/m);
    assert.match(
      await question(true, 0),
      /^acp\/demo\/x has 1 uncommitted file\(s\): removing the worktree loses them\. Remove it\?\ngit branch -D acp\/demo\/x$/,
    );
    assert.match(
      await question(true, 2),
      /^acp\/demo\/x has 1 uncommitted file\(s\) and 2 commit\(s\) not applied to the main tree\. Removing the worktree loses the uncommitted files; the commits stay on the branch unless it is deleted too\./,
    );
  });

  it('closes the live sessions, removes the worktree and deletes its branch when asked', async () => {
    const ui = new ScriptedUi({ remove: 'delete-branch' });
    const w = teamWorld(ui);
    const r = await withCommits(w, 1);
    w.store.attachSession(r.agentId, r.sessionId, { cwd: r.path });
    assert.equal(await w.team.remove({ path: r.path }), 'removed-branch');
    assert.deepEqual(
      w.closed.map((k) => [k.agentId, k.sessionId]),
      [[r.agentId, r.sessionId]],
    );
    assert.equal(fs.existsSync(r.path), false);
    assert.equal(worktrees(), 1);
    assert.equal(branchThere(r.branch), false);
    assert.deepEqual(w.sessions.worktrees(), []);
  });

  for (const choice of ['keep-branch', 'delete-branch'] as const) {
    it(`a folder deleted outside VS Code: asked as such, forgotten and pruned, the branch ${choice === 'keep-branch' ? 'kept' : 'deleted'}`, async () => {
      const ui = new ScriptedUi({ remove: choice });
      const w = teamWorld(ui);
      const r = await withCommits(w, 1);
      fs.rmSync(r.path, { recursive: true, force: true });
      assert.equal(await w.team.remove({ path: r.path }), choice === 'keep-branch' ? 'removed' : 'removed-branch');
      assert.deepEqual(ui.args<[WorktreeRecord, RemoveLoss]>('confirmRemove')[1], { folderGone: true, uncommitted: [], unapplied: 1 });
      assert.deepEqual(w.closed, [], 'no live session to close');
      assert.equal(worktrees(), 1, 'pruned');
      assert.equal(branchThere(r.branch), choice === 'keep-branch');
      assert.deepEqual(w.sessions.worktrees(), []);
      assert.deepEqual(w.memento.map.get('acp.worktreeSessions'), [], 'forgotten in the workspace state too');
    });
  }
});
