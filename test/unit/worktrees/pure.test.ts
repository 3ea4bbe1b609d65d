// The pure parts of the worktree commands: branch name checks, git's worktree list and status
// parsing, and the plan step matching of Compare Sessions.
import assert from 'node:assert/strict';
import { agentComponent, branchNameProblem, folderName, sessionBranch } from '../../../src/worktrees/branchName';
import { parseAheadBehind, parseNameStatus, parseStatusPaths, parseWorktreeList } from '../../../src/worktrees/parse';
import { compareText, matchSteps, similarity } from '../../../src/worktrees/planCompare';

describe('Worktrees: branch names', () => {
  it('accepts ordinary names and refuses what git refuses, with a sentence', () => {
    for (const ok of ['fix-login', 'try/2', 'a.b', 'v1_2']) assert.equal(branchNameProblem(ok), undefined, ok);
    for (const bad of [
      '',
      'has space',
      'a..b',
      'x~1',
      'a^',
      'a:b',
      'q?',
      's*',
      'br[',
      'back\\slash',
      '/lead',
      'trail/',
      'a//b',
      '-dash',
      'dot.',
      'x.lock',
      '.hidden',
      'a/.b',
      'at@{x',
      '@',
      'ctl\u0001',
    ])
      assert.match(branchNameProblem(bad) ?? '', /\S/, `"${bad}" should be refused`);
    assert.match(branchNameProblem('x'.repeat(101))!, /too long/);
  });
  it('builds acp/<agent>/<name> from any agent id, and a folder name without slashes', () => {
    assert.equal(agentComponent('demo'), 'demo');
    assert.equal(agentComponent('My Agent: v2!'), 'My-Agent-v2');
    assert.equal(agentComponent('..'), 'agent');
    assert.equal(agentComponent('x.lock'), 'x-lock');
    assert.equal(sessionBranch('demo', 'fix'), 'acp/demo/fix');
    assert.equal(folderName('acp/demo/fix/2'), 'demo-fix-2');
    assert.equal(branchNameProblem(sessionBranch('we ird', 'ok')), undefined);
  });
});

describe('Worktrees: parsing git output', () => {
  it('reads `git worktree list --porcelain`: main tree, branches, detached, prunable, locked, bare', () => {
    const text = [
      'worktree /r/main',
      'HEAD 1111111111111111111111111111111111111111',
      'branch refs/heads/main',
      '',
      'worktree /r/main.worktrees/demo-a',
      'HEAD 2222222222222222222222222222222222222222',
      'branch refs/heads/acp/demo/a',
      'locked reason here',
      '',
      'worktree /r/gone',
      'HEAD 3333333333333333333333333333333333333333',
      'detached',
      'prunable gitdir file points to non-existent location',
      '',
      'worktree /r/bare.git',
      'bare',
      '',
    ].join('\n');
    const list = parseWorktreeList(text);
    assert.equal(list.length, 4);
    assert.deepEqual(list[0], { path: '/r/main', head: '1'.repeat(40), branch: 'main', bare: false, detached: false, prunable: false, locked: false });
    assert.equal(list[1]!.branch, 'acp/demo/a');
    assert.equal(list[1]!.locked, true);
    assert.equal(list[2]!.detached, true);
    assert.equal(list[2]!.prunable, true);
    assert.equal(list[2]!.branch, undefined);
    assert.equal(list[3]!.bare, true);
    assert.deepEqual(parseWorktreeList('worktree /a b/c\r\nHEAD 1\r\nbranch refs/heads/x y'), [
      { path: '/a b/c', head: '1', branch: 'x y', bare: false, detached: false, prunable: false, locked: false },
    ]);
    assert.deepEqual(parseWorktreeList(''), []);
  });
  it('reads status -z paths (renames: the new path), name-status -z, and ahead/behind counts', () => {
    assert.deepEqual(parseStatusPaths(' M a.txt\0?? new file.txt\0R  new.txt\0old.txt\0 D gone\0'), ['a.txt', 'new file.txt', 'new.txt', 'gone']);
    assert.deepEqual(parseNameStatus('M\0a\0A\0b c\0R100\0old\0new\0D\0d\0'), [
      { status: 'M', path: 'a' },
      { status: 'A', path: 'b c' },
      { status: 'R', path: 'new' },
      { status: 'D', path: 'd' },
    ]);
    assert.deepEqual(parseAheadBehind('3\t5\n'), { behind: 3, ahead: 5 });
    assert.equal(parseAheadBehind('nonsense'), undefined);
  });
});

describe('Worktrees: plan steps matched by content', () => {
  const s = (content: string, status = 'pending') => ({ content, status });
  it('matches the same words in any case and punctuation, similar words only with the same files, and keeps unmatched steps in order', () => {
    assert.equal(similarity('Write the tests!', 'write THE tests'), 1);
    assert.ok(similarity('Write unit tests for login', 'Write tests for login') >= 0.5);
    assert.ok(similarity('Deploy', 'Write docs') < 0.5);
    const f = (content: string, status: string, files: string[]) => ({ content, status, files });
    const pairs = matchSteps(
      [s('Read the code', 'completed'), f('Write tests for login', 'completed', ['login.test.ts']), s('Deploy it'), s('Create alpha.txt')],
      [s('read the code.', 'completed'), s('Update the README'), f('Write unit tests for login', 'in_progress', ['login.test.ts']), s('Create bravo.txt')],
    );
    assert.deepEqual(
      pairs.map((p) => [p.a?.content, p.b?.content]),
      [
        ['Read the code', 'read the code.'],
        [undefined, 'Update the README'],
        ['Write tests for login', 'Write unit tests for login'],
        ['Deploy it', undefined],
        ['Create alpha.txt', undefined],
        [undefined, 'Create bravo.txt'],
      ],
    );
    // Shared words alone (half of them here) never make two steps one.
    assert.equal(matchSteps([s('Create alpha.txt')], [s('Create bravo.txt')]).filter((p) => p.a && p.b).length, 0);
    assert.equal(matchSteps([f('Create alpha.txt', 'completed', ['alpha.txt'])], [f('Create bravo.txt', 'completed', ['bravo.txt'])]).length, 2);
    assert.equal(pairs[0]!.similarity, 1);
  });
  it('one step is matched at most once, and empty plans compare', () => {
    const pairs = matchSteps([s('Fix bug'), s('Fix bug')], [s('fix bug')]);
    assert.equal(pairs.filter((p) => p.a && p.b).length, 1);
    assert.equal(pairs.length, 2);
    assert.deepEqual(matchSteps([], []), []);
  });
  it('says what one did that the other did not, and the progress of each', () => {
    const text = compareText('A', 'B', [s('Read', 'completed'), s('Write', 'completed')], [s('Read', 'completed'), s('Write', 'in_progress'), s('Ship')]);
    assert.match(text, /A: A — 2\/2 steps done/);
    assert.match(text, /B: B — 1\/3 steps done/);
    assert.match(text, /\[x\] \| \[~\] {2}Write/);
    assert.match(text, /\[ \] {2}Ship {2}— only B/);
    assert.match(text, /Done by A only: Write/);
    assert.match(text, /Done by B only: nothing/);
  });
});
