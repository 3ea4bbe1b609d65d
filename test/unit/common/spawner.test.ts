// The spawn helper (src/common/spawn): processes start from a helper process built to
// dist/spawn-helper.js, their output streams back in order, standard input reaches them, a kill
// stops them, a missing program is an error with its errno code, and the helper ends when idle.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Spawner, type ProcessRun } from '../../../src/common/spawn/spawner';

function find(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const p = path.join(dir, 'dist', 'spawn-helper.js');
    if (fs.existsSync(p)) return p;
    if (path.dirname(dir) === dir) return undefined;
  }
}
const HELPER = find(__dirname) ?? find(process.cwd()) ?? path.resolve('dist', 'spawn-helper.js');

interface Outcome {
  stdout: string;
  stderr: string;
  code?: number | null;
  signal?: string | null;
  error?: NodeJS.ErrnoException;
}

function run(s: Spawner, r: Partial<ProcessRun> & { args: string[] }, onStart?: (kill: () => void) => void): Promise<Outcome> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const done = (o: Partial<Outcome>) => resolve({ stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), ...o });
    const p = s.start(
      { file: process.execPath, cwd: process.cwd(), env: process.env, ...r },
      {
        onStdout: (b) => out.push(b),
        onStderr: (b) => err.push(b),
        onError: (error) => done({ error }),
        onClose: (code, signal) => done({ code, signal }),
      },
    );
    onStart?.(() => p.kill());
  });
}

describe('Spawner (processes started by the spawn helper process)', () => {
  let s: Spawner;
  beforeEach(() => {
    s = new Spawner(HELPER, 50);
  });
  afterEach(() => s.dispose());

  it('uses the built helper and streams a large output back whole and in order', async () => {
    assert.ok(s.usesHelper, `the helper file exists: ${HELPER}`);
    const o = await run(s, { args: ['-e', 'for (let i = 0; i < 20000; i++) process.stdout.write(i + "\\n"); process.stderr.write("done")'] });
    assert.strictEqual(o.code, 0);
    const lines = o.stdout.trim().split('\n');
    assert.strictEqual(lines.length, 20000);
    assert.ok(
      lines.every((l, i) => l === String(i)),
      'every line, in order',
    );
    assert.strictEqual(o.stderr, 'done');
  });

  it('writes the input to standard input, then closes it; passes cwd, env and the exit code', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-spawn-'));
    try {
      const o = await run(s, {
        args: [
          '-e',
          'let t="";process.stdin.on("data",d=>t+=d).on("end",()=>{console.log(t.toUpperCase()+"|"+process.cwd()+"|"+process.env.SPAWN_TEST);process.exit(3)})',
        ],
        cwd: dir,
        env: { ...process.env, SPAWN_TEST: 'yes' },
        input: Buffer.from('héllo'),
      });
      assert.strictEqual(o.code, 3);
      assert.strictEqual(o.stdout.trim(), `HÉLLO|${fs.realpathSync(dir)}|yes`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('kills a process on request', async () => {
    const o = await run(s, { args: ['-e', 'console.log("up"); setInterval(() => {}, 1000)'] }, (kill) => setTimeout(kill, 100));
    assert.strictEqual(o.code, null);
    assert.strictEqual(o.signal, 'SIGKILL');
  });

  it('says ENOENT for a program that does not exist', async () => {
    const o = await run(s, { file: path.join(__dirname, 'no-such-program'), args: [] });
    assert.strictEqual(o.error?.code, 'ENOENT');
  });

  it('ends the helper when idle and starts another for the next run', async () => {
    const ended = new Promise<void>((r) => (s.onIdleEnd = r));
    await run(s, { args: ['-e', '0'] });
    assert.ok(s.helperRunning);
    await ended;
    assert.strictEqual(s.helperRunning, false);
    const o = await run(s, { args: ['-e', 'console.log(7)'] });
    assert.strictEqual(o.stdout.trim(), '7');
  });

  it('without the helper file, starts processes from this process, the same way', async () => {
    const here = new Spawner(path.join(__dirname, 'missing-worker.js'));
    assert.strictEqual(here.usesHelper, false);
    const o = await run(here, { args: ['-e', 'console.log("here")'], input: 'x' });
    assert.strictEqual(o.stdout.trim(), 'here');
    assert.strictEqual((await run(here, { file: path.join(__dirname, 'nope'), args: [] })).error?.code, 'ENOENT');
  });
});
