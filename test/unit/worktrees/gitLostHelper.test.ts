// The worktrees' git() on the one git runner, started by a spawn helper whose channel closes under
// pending calls: they reject with a WorktreeError saying so (once a ReferenceError: "Cannot access
// 'timer' before initialization"), and the next call starts a new helper and works.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { replaceSpawner, Spawner } from '../../../src/common/spawn/spawner';
import { git, WorktreeError } from '../../../src/worktrees/git';
import { disposeLostHelpers, lostHelper } from '../common/lostHelper';

describe('Worktrees: git() when the spawn helper is lost', function () {
  this.timeout(20000);
  afterEach(disposeLostHelpers);

  // Mutation: remove the spawner's 'disconnect' handler: the calls never end (timeout).
  it("rejects every pending call with the helper's sentence; the next call works", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-wt-lost-'));
    const fixture = lostHelper(2);
    const s = new Spawner(fixture.file, 50);
    const before = replaceSpawner(s);
    try {
      const pending = [git(dir, ['status']), git(dir, ['--version'])];
      for (const p of pending) await assert.rejects(p, (e: unknown) => e instanceof WorktreeError && /the spawn helper's channel closed/.test(e.message));
      const next = await git(dir, ['--version']);
      assert.equal(next.code, 0);
      assert.match(next.stdout, /^git version /);
    } finally {
      replaceSpawner(before);
      s.dispose();
      fixture.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
