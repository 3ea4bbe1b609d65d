// The empty hooks folder the worktree commands point git at is the process's own and goes when
// the process ends: a window that ran a worktree command leaves nothing in the temp folder.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

describe('Worktrees: the empty hooks folder', function () {
  this.timeout(30000);

  it('is made for a git command and removed when the process ends', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-hooks-tmp-'));
    try {
      const repo = path.join(tmp, 'repo');
      fs.mkdirSync(repo);
      execFileSync('git', ['init', '-q'], { cwd: repo });
      const out = execFileSync(process.execPath, [path.join(__dirname, 'hooksFolderChild.js')], {
        cwd: repo,
        env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp },
        encoding: 'utf8',
      });
      const seen = JSON.parse(out) as { code: number; entries: string[] };
      assert.equal(seen.code, 0);
      assert.equal(seen.entries.filter((e) => e.startsWith('acp-no-hooks-')).length, 1, `while it ran: ${seen.entries.join(', ')}`);
      assert.deepEqual(fs.readdirSync(tmp), ['repo'], 'after it ended');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
