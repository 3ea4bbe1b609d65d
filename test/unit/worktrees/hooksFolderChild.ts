// Run by hooksFolder.test.ts in a process of its own: one worktree git command, then the temp
// folder's entries on standard output, then the process ends.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { git } from '../../../src/worktrees/git';

void git(process.cwd(), ['status', '--porcelain']).then(
  (r) => {
    process.stdout.write(JSON.stringify({ code: r.code, entries: fs.readdirSync(os.tmpdir()) }));
    process.exit(0);
  },
  (e: unknown) => {
    process.stderr.write(String(e));
    process.exit(1);
  },
);
