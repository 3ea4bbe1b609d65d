// For the tests of a spawn helper that goes away: where the built helper is (dist/spawn-helper.js,
// `npm run build`), and a helper file whose first process takes a number of runs without answering,
// then closes its channel and lives on (as a helper whose channel broke would); every later process
// of the same file is the real helper.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

function find(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const p = path.join(dir, 'dist', 'spawn-helper.js');
    if (fs.existsSync(p)) return p;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The built spawn helper. */
export const HELPER = find(__dirname) ?? find(process.cwd()) ?? path.resolve('dist', 'spawn-helper.js');

export interface LostHelper {
  /** The helper file to give a Spawner. */
  readonly file: string;
  /** The first process's id, once it started. */
  firstPid(): number | undefined;
  /** Resolves when the first process has ended (rejects after `ms`). */
  firstEnded(ms?: number): Promise<void>;
  dispose(): void;
}

const made: LostHelper[] = [];

/** Ends every first process made so far (an afterEach: a test that timed out never reached its finally). */
export function disposeLostHelpers(): void {
  for (const h of made.splice(0)) h.dispose();
}

/** A helper file whose first process closes its channel at its `runs`-th run and lives on. */
export function lostHelper(runs: number): LostHelper {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-lost-helper-'));
  const file = path.join(dir, 'helper.js');
  const marker = path.join(dir, 'first.pid');
  fs.writeFileSync(
    file,
    `const fs = require('fs');
if (fs.existsSync(${JSON.stringify(marker)})) require(${JSON.stringify(HELPER)});
else {
  fs.writeFileSync(${JSON.stringify(marker)}, String(process.pid));
  let n = 0;
  process.on('message', (m) => { if (m.kind === 'run' && ++n === ${runs}) process.disconnect(); });
  setInterval(() => {}, 1 << 30);
}
`,
  );
  const firstPid = (): number | undefined => (fs.existsSync(marker) ? Number(fs.readFileSync(marker, 'utf8')) : undefined);
  const helper: LostHelper = {
    file,
    firstPid,
    async firstEnded(ms = 5000) {
      const pid = firstPid();
      if (pid === undefined) throw new Error('the first helper process never started');
      for (const end = Date.now() + ms; alive(pid);) {
        if (Date.now() > end) throw new Error(`the first helper process (${pid}) still runs`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    dispose() {
      const pid = firstPid();
      if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  made.push(helper);
  return helper;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
