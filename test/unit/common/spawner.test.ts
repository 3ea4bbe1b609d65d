// The spawn helper (src/common/spawn): processes start from a helper process built to
// dist/spawn-helper.js, their output streams back in order, standard input reaches them, a kill
// stops them, a missing program is an error with its errno code, and the helper ends when idle.
// A helper whose channel closes fails its runs with a sentence saying so, is killed, and the next
// run starts another; a listener is never called from inside start() or kill().
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ChildProcess } from 'child_process';
import { HelperLostError, Spawner, type ProcessListener, type ProcessRun } from '../../../src/common/spawn/spawner';
import { disposeLostHelpers, HELPER, lostHelper } from './lostHelper';

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

/** A spawner that keeps the helper processes it forks (so a test can close a channel from this side). */
class WatchedSpawner extends Spawner {
  readonly forked: ChildProcess[] = [];
  protected override forkHelper(): ChildProcess {
    const c = super.forkHelper();
    this.forked.push(c);
    return c;
  }
}

const LONG = ['-e', 'console.log("up"); setInterval(() => {}, 1000)'];

/** A run whose listener notes a call made while `inside()` (from inside start() or kill()). */
function watched(s: Spawner, args: string[], inside: () => boolean): { outcome: Promise<Outcome>; up: Promise<void>; kill(): void; calledInside: string[] } {
  const calledInside: string[] = [];
  let out = '';
  let upNow: () => void = () => undefined;
  const up = new Promise<void>((r) => (upNow = r));
  let p: { kill(): void } | undefined;
  const outcome = new Promise<Outcome>((resolve) => {
    const note = (what: string): void => void (inside() && calledInside.push(what));
    const l: ProcessListener = {
      onStdout: (b) => {
        note('onStdout');
        out += b.toString();
        if (out.includes('up')) upNow();
      },
      onStderr: () => note('onStderr'),
      onError: (error) => {
        note('onError');
        resolve({ stdout: out, stderr: '', error });
      },
      onClose: (code, signal) => {
        note('onClose');
        resolve({ stdout: out, stderr: '', code, signal });
      },
    };
    p = s.start({ file: process.execPath, args, cwd: process.cwd(), env: process.env }, l);
  });
  return { outcome, up, kill: () => p?.kill(), calledInside };
}

describe('Spawner: a helper whose channel closes', function () {
  this.timeout(10000);
  afterEach(disposeLostHelpers);

  // Mutations: without the 'disconnect' handler the runs never end (timeout); without killing the old helper, firstEnded rejects.
  it('fails every pending run with a sentence naming the cause, kills that helper, and the next run starts a new one', async () => {
    const fixture = lostHelper(2);
    const s = new Spawner(fixture.file, 50);
    try {
      const a = run(s, { args: LONG });
      const b = run(s, { args: LONG });
      for (const o of await Promise.all([a, b])) {
        assert.ok(o.error instanceof HelperLostError, String(o.error));
        assert.strictEqual(o.error.message, "the spawn helper's channel closed");
      }
      await fixture.firstEnded();
      const next = await run(s, { args: ['-e', 'console.log(7)'] });
      assert.strictEqual(next.stdout.trim(), '7');
      assert.strictEqual(next.code, 0);
    } finally {
      s.dispose();
      fixture.dispose();
    }
  });

  // Mutations: failAll calling onError synchronously (called inside start()); start() not checking `connected` (the new run fails too).
  it('a run started after the channel closed, before the spawner heard of it: no listener is called inside start(), the new run works', async () => {
    const s = new WatchedSpawner(HELPER, 50);
    let inside = false;
    try {
      const a = watched(s, LONG, () => inside);
      await a.up;
      s.forked[0]!.disconnect();
      inside = true;
      const b = watched(s, ['-e', 'console.log("b")'], () => inside);
      inside = false;
      assert.deepStrictEqual([...a.calledInside, ...b.calledInside], []);
      const [oa, ob] = await Promise.all([a.outcome, b.outcome]);
      assert.strictEqual(oa.error?.message, "the spawn helper's channel closed");
      assert.strictEqual(ob.error, undefined);
      assert.strictEqual(ob.stdout.trim(), 'b');
      assert.strictEqual(s.forked.length, 2, 'a new helper for the new run');
    } finally {
      s.dispose();
    }
  });

  // Mutation: failAll calling onError synchronously (called inside kill()).
  it('a kill after the channel closed calls no listener from inside kill()', async () => {
    const s = new WatchedSpawner(HELPER, 50);
    let inside = false;
    try {
      const a = watched(s, LONG, () => inside);
      const c = watched(s, LONG, () => inside);
      await Promise.all([a.up, c.up]);
      s.forked[0]!.disconnect();
      inside = true;
      a.kill();
      inside = false;
      assert.deepStrictEqual([...a.calledInside, ...c.calledInside], []);
      for (const o of await Promise.all([a.outcome, c.outcome])) assert.strictEqual(o.error?.message, "the spawn helper's channel closed");
    } finally {
      s.dispose();
    }
  });
});
