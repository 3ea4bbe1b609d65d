// The one git runner (src/common/git/runGit.ts) with the real git, started by the built spawn
// helper: the outcome whatever the exit code, bounded output and standard error, a time limit, a
// stop from onStdout or an AbortSignal, a missing git, and a helper whose channel closes under
// pending runs (they reject with the sentence, the next run works).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GitRunError, runGit, subcommand, type GitRun, type GitRunReason } from '../../../src/common/git/runGit';
import { HelperLostError, Spawner } from '../../../src/common/spawn/spawner';
import { disposeLostHelpers, HELPER, lostHelper } from './lostHelper';

const reasonOf = async (p: Promise<unknown>): Promise<GitRunReason> => {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof GitRunError, `a GitRunError: ${String(e)}`);
    return e.reason;
  }
  throw new Error('it resolved');
};

describe('runGit (the one git runner)', function () {
  this.timeout(20000);
  afterEach(disposeLostHelpers);
  let dir: string;
  let s: Spawner;
  let base: Omit<GitRun, 'args'>;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-rungit-')));
    s = new Spawner(HELPER, 50);
    base = {
      file: 'git',
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull },
      maxOutputBytes: 1 << 20,
      timeoutMs: 10000,
      spawner: s,
    };
  });
  afterEach(() => {
    s.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('resolves with the outcome whatever the exit code, standard input given, standard error bounded', async () => {
    assert.ok(s.usesHelper, `the helper file exists: ${HELPER}`);
    const ok = await runGit({ ...base, args: ['-c', 'core.quotePath=false', 'hash-object', '--stdin'], input: 'hello\n' });
    assert.deepStrictEqual([ok.code, ok.signal, ok.stopped, ok.stdout.toString().trim()], [0, null, false, 'ce013625030ba8dba906f756967f9e9ca394464a']);
    const bad = await runGit({ ...base, args: ['rev-parse', '--verify', 'nope'], maxStderrChars: 10 });
    assert.notStrictEqual(bad.code, 0);
    assert.strictEqual(bad.stderr.length, 10);
  });

  it('says which limit stopped git, and keeps what onStdout read before it asked to stop', async () => {
    fs.writeFileSync(path.join(dir, 'big'), 'x'.repeat(1024));
    assert.deepStrictEqual(await reasonOf(runGit({ ...base, args: ['hash-object', 'big', 'big', 'big'], maxOutputBytes: 50 })), {
      code: 'too-much-output',
      data: { command: 'git hash-object', limitBytes: 50 },
    });
    const stopped = await runGit({ ...base, args: ['hash-object', 'big'], onStdout: () => false });
    assert.strictEqual(stopped.stopped, true);
    assert.match(stopped.stdout.toString(), /^[0-9a-f]{40}/);
    // A program that outlives its limit (node stands in for a git that hangs).
    const slow = await reasonOf(runGit({ ...base, file: process.execPath, args: ['-e', 'setTimeout(() => {}, 5000)'], timeoutMs: 200 }));
    assert.deepStrictEqual([slow.code, slow.code === 'timeout' && slow.data.limitMs], ['timeout', 200]);
  });

  it('rejects a missing git as not-found, and an aborted run as aborted', async () => {
    const missing = await reasonOf(runGit({ ...base, file: path.join(dir, 'no-git'), args: ['status'] }));
    assert.deepStrictEqual(missing, { code: 'not-found', data: { file: path.join(dir, 'no-git'), errno: 'ENOENT' } });
    const ac = new AbortController();
    const running = runGit({ ...base, file: process.execPath, args: ['-e', 'setTimeout(() => {}, 5000)'], signal: ac.signal });
    ac.abort();
    assert.strictEqual((await reasonOf(running)).code, 'aborted');
  });

  it('names the subcommand past the options and the configuration', () => {
    assert.strictEqual(subcommand(['--no-pager', '-c', 'a=b', '-C', 'dir', 'merge-file', '-p']), 'git merge-file');
    assert.strictEqual(subcommand(['--version']), 'git');
  });

  // Mutation: remove the spawner's 'disconnect' handler: the runs never end (timeout).
  it("rejects every pending run with the helper's sentence when its channel closes; the next run works", async () => {
    const fixture = lostHelper(2);
    const lost = new Spawner(fixture.file, 50);
    try {
      const pending = [runGit({ ...base, args: ['status'], spawner: lost }), runGit({ ...base, args: ['--version'], spawner: lost })];
      const reasons = await Promise.all(pending.map(reasonOf));
      assert.deepStrictEqual(reasons, [
        { code: 'helper-lost', data: { command: 'git status', detail: "the spawn helper's channel closed" } },
        { code: 'helper-lost', data: { command: 'git', detail: "the spawn helper's channel closed" } },
      ]);
      await assert.rejects(pending[0]!, /^GitRunError: git status could not finish: the spawn helper's channel closed\.$/);
      const next = await runGit({ ...base, args: ['--version'], spawner: lost });
      assert.strictEqual(next.code, 0);
      assert.match(next.stdout.toString(), /^git version /);
    } finally {
      lost.dispose();
      fixture.dispose();
    }
  });

  // Mutation: declare the timer after start() again: "ReferenceError: Cannot access 'timer' before initialization".
  it('a spawner that reports the end from inside start() still gets a GitRunError, not a ReferenceError', async () => {
    const eager = {
      start: (_r: unknown, l: { onError(e: Error): void }) => (l.onError(new HelperLostError('the spawn helper is gone')), { kill: () => undefined }),
    };
    assert.deepStrictEqual(await reasonOf(runGit({ ...base, args: ['status'], spawner: eager })), {
      code: 'helper-lost',
      data: { command: 'git status', detail: 'the spawn helper is gone' },
    });
  });
});
