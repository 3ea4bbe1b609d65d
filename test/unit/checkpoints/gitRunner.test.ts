// The checkpoints' git runner (src/checkpoints/gitProcess.ts) on the one git runner: its failures
// are CheckpointErrors with a reason as data (GitMissingError among them, still told apart), and a
// spawn helper whose channel closes under pending runs rejects them with the sentence; the next
// run starts a new helper and works.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Spawner } from '../../../src/common/spawn/spawner';
import { CheckpointError, GitMissingError, type CheckpointReason } from '../../../src/checkpoints/errors';
import { cleanEnv, GitRunner, safeConfig } from '../../../src/checkpoints/gitProcess';
import { disposeLostHelpers, HELPER, lostHelper } from '../common/lostHelper';
import { rmrf, tempDir } from './support';

const reasonOf = async (p: Promise<unknown>): Promise<CheckpointReason> => {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof CheckpointError, `a CheckpointError: ${String(e)}`);
    return e.reason;
  }
  throw new Error('it resolved');
};

describe('checkpoints: GitRunner on the one git runner', function () {
  this.timeout(20000);
  afterEach(disposeLostHelpers);
  let dir: string;
  const runner = (spawner: Spawner, git = 'git'): GitRunner => new GitRunner(git, cleanEnv(process.env, dir, {}), dir, safeConfig(dir), spawner);
  beforeEach(() => {
    dir = tempDir('runner');
  });
  afterEach(() => rmrf(dir));

  it('says why as data: a failing git, a missing git (a GitMissingError), output over the cap, a closed runner', async () => {
    const s = new Spawner(HELPER, 50);
    try {
      const r = runner(s);
      const failed = await reasonOf(r.run(['rev-parse', '--verify', 'nope']));
      assert.equal(failed.code, 'git-failed');
      assert.deepEqual({ ...failed.data, stderr: '' }, { command: 'git rev-parse', exitCode: 128, signal: null, stderr: '' });
      assert.match(failed.code === 'git-failed' ? failed.data.stderr : '', /^fatal: /);
      const missing = runner(s, path.join(dir, 'no-git')).run(['status']);
      await assert.rejects(missing, (e: unknown) => e instanceof GitMissingError && e instanceof CheckpointError);
      assert.deepEqual(await reasonOf(missing), { code: 'git-missing', data: { git: path.join(dir, 'no-git'), errno: 'ENOENT' } });
      assert.deepEqual(await reasonOf(r.run(['--version'], { maxOutputBytes: 5 })), { code: 'git-output-over', data: { command: 'git', maxBytes: 5 } });
      r.close();
      assert.deepEqual(await reasonOf(r.run(['--version'])), { code: 'closed', data: {} });
      assert.equal(new CheckpointError({ code: 'closed', data: {} }) instanceof GitMissingError, false);
    } finally {
      s.dispose();
    }
  });

  // Mutation: remove the spawner's 'disconnect' handler: the runs never end (timeout).
  it("rejects every pending run with the helper's sentence when its channel closes; the next run works", async () => {
    const fixture = lostHelper(2);
    const s = new Spawner(fixture.file, 50);
    try {
      const r = runner(s);
      const pending = [r.run(['hash-object', '--stdin'], { input: 'a' }), r.run(['--version'])];
      for (const p of pending)
        await assert.rejects(
          p,
          (e: unknown) => e instanceof CheckpointError && e.reason.code === 'git-helper-lost' && /the spawn helper's channel closed/.test(e.message),
        );
      assert.equal((await r.run(['hash-object', '--stdin'], { input: 'a' })).stdout.toString().trim(), '2e65efe2a145dda7ee51d1741299f848e5bf752e');
    } finally {
      s.dispose();
      fixture.dispose();
    }
  });
});
