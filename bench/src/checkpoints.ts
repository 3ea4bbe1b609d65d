// Checkpoints of a 10,000-file workspace (src/checkpoints): the first checkpoint, then ROUNDS
// rounds of "change 10 files, checkpoint". Per round: the checkpoint's wall time (from the call to
// its answer; the queue is idle at the call, so packing after the previous one is not counted), the
// event loop's longest stall during it (perf_hooks, 1 ms resolution), the git processes it started,
// then the maintenance queued after it (its time, stall and processes), and the disk the repository
// grew by once that ran (blocks on disk, and bytes). The same stall is measured over an idle wait of
// the same length, after the maintenance, to tell the machine's load from ours. Prints one JSON line.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ShadowRepo } from '../../src/checkpoints/shadowRepo';

/** Counts the processes the engine starts: the bundle calls child_process.spawn through the module object. */
let spawned = 0;
const childProcess = require('node:child_process') as typeof import('node:child_process');
const realSpawn = childProcess.spawn;
childProcess.spawn = ((...args: Parameters<typeof realSpawn>) => {
  spawned++;
  return realSpawn(...args);
}) as typeof realSpawn;

const FILES = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 20);
const CHANGED = 10;

/** A small seeded generator (mulberry32), so every run builds the same workspace. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = random(20261202);

/** Source-like text of about `bytes` bytes. */
function text(bytes: number, salt: string): string {
  const lines: string[] = [];
  let n = 0;
  while (n < bytes) {
    const line = `${'  '.repeat(Math.floor(rnd() * 4))}const v${Math.floor(rnd() * 1e6)} = compute(${salt}, ${Math.floor(rnd() * 1e4)}); // ${rnd().toString(36).slice(2)}`;
    lines.push(line);
    n += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** Sizes as source trees have them: most a few KiB, a long tail to ~60 KiB. */
function fileSize(): number {
  return Math.min(60_000, Math.round(300 + Math.exp(rnd() * 2.2 + 6.2) * rnd() * 2));
}

/** 10,000 files, 20 top folders × 10 × 5 × 10 files (four levels), plus ignored dependencies. */
function buildWorkspace(root: string): { files: string[]; bytes: number } {
  const files: string[] = [];
  let bytes = 0;
  for (let i = 0; files.length < FILES; i++) {
    const rel = path.join(`pkg${i % 20}`, `mod${Math.floor(i / 20) % 10}`, `part${Math.floor(i / 200) % 5}`, `file${i}.ts`);
    const content = text(fileSize(), String(i));
    fs.mkdirSync(path.join(root, path.dirname(rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
    files.push(rel);
    bytes += content.length;
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\ndist/\n');
  for (let i = 0; i < 500; i++) {
    fs.mkdirSync(path.join(root, 'node_modules', `dep${i % 50}`), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules', `dep${i % 50}`, `f${i}.js`), text(2000, 'dep'));
  }
  return { files, bytes };
}

/** Bytes on disk (allocated blocks) and in files, of everything under `dir`. */
function disk(dir: string): { blocks: number; bytes: number } {
  let blocks = 0;
  let bytes = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const st = fs.lstatSync(p);
      blocks += st.blocks * 512;
      if (e.isDirectory()) walk(p);
      else bytes += st.size;
    }
  };
  walk(dir);
  return { blocks, bytes };
}

/** CPU time in ms of git (this process's waited-for children, from /proc: Linux) and of this process. */
function cpu(): { git: number; ours: number } {
  const u = process.cpuUsage();
  let git = NaN;
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // Fields 16 and 17 of stat(5) (cutime, cstime) are the 14th and 15th after the name, in clock ticks (100 per second).
    git = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // Not Linux: git's CPU is not known.
  }
  return { git, ours: (u.user + u.system) / 1000 };
}

async function stallDuring<T>(
  work: () => Promise<T>,
): Promise<{ value: T; ms: number; stallMs: number; gitCpuMs: number; ourCpuMs: number; processes: number }> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const c0 = cpu();
  const p0 = spawned;
  const t0 = performance.now();
  const value = await work();
  const ms = performance.now() - t0;
  const c1 = cpu();
  h.disable();
  return { value, ms, stallMs: h.max / 1e6, gitCpuMs: c1.git - c0.git, ourCpuMs: c1.ours - c0.ours, processes: spawned - p0 };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-ckpt-')));
  const work = path.join(tmp, 'work');
  const gitDir = path.join(tmp, 'store', 'checkpoints', 'work.git');
  try {
    const ws = buildWorkspace(work);
    const repo = await ShadowRepo.open({ gitDir, workTree: work });
    const first = await stallDuring(() => repo.checkpoint('session'));
    const pack = await stallDuring(() => repo.idle());
    const afterFirst = disk(gitDir);
    const rounds: {
      ms: number;
      ownMs: number;
      gitCpuMs: number;
      ourCpuMs: number;
      stallMs: number;
      processes: number;
      idleStallMs: number;
      maintainMs: number;
      maintainStallMs: number;
      maintainProcesses: number;
      diskBlocks: number;
      diskBytes: number;
      changedBytes: number;
    }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const before = disk(gitDir);
      let changedBytes = 0;
      for (let k = 0; k < CHANGED; k++) {
        const rel = ws.files[Math.floor(rnd() * ws.files.length)]!;
        const file = path.join(work, rel);
        const lines = fs.readFileSync(file, 'utf8').split('\n');
        lines.splice(Math.floor(rnd() * lines.length), 1, `// round ${r} change ${k}`, text(200, `r${r}`).trimEnd());
        fs.writeFileSync(file, lines.join('\n'));
        changedBytes += fs.statSync(file).size;
      }
      const roundStart = spawned;
      const cp = await stallDuring(() => repo.checkpoint('session'));
      const maintain = await stallDuring(() => repo.idle());
      const idle = await stallDuring(() => new Promise<void>((res) => setTimeout(res, Math.max(1, cp.ms))));
      const after = disk(gitDir);
      rounds.push({
        ms: cp.ms,
        ownMs: cp.value.ms,
        gitCpuMs: cp.gitCpuMs,
        ourCpuMs: cp.ourCpuMs,
        stallMs: cp.stallMs,
        processes: cp.processes,
        idleStallMs: idle.stallMs,
        maintainMs: maintain.ms,
        maintainStallMs: maintain.stallMs,
        // The maintenance starts as the checkpoint answers, a few microtasks before it is timed.
        maintainProcesses: spawned - roundStart - cp.processes,
        diskBlocks: after.blocks - before.blocks,
        diskBytes: after.bytes - before.bytes,
        changedBytes,
      });
    }
    const tc = performance.now();
    await repo.changes(first.value.id, (await repo.checkpoint('session')).id);
    const changesMs = performance.now() - tc;
    repo.dispose();
    const ms = rounds.map((r) => r.ms);
    const result = {
      files: ws.files.length,
      workspaceBytes: ws.bytes,
      firstMs: first.ms,
      firstStallMs: first.stallMs,
      firstGitCpuMs: first.gitCpuMs,
      firstOurCpuMs: first.ourCpuMs,
      firstPackMs: pack.ms,
      firstPackGitCpuMs: pack.gitCpuMs,
      storeAfterFirst: afterFirst,
      rounds: rounds.length,
      changedPerRound: CHANGED,
      // Folders above each file: pkg, mod, part.
      depth: 3,
      medianMs: median(ms),
      maxMs: Math.max(...ms),
      medianGitCpuMs: median(rounds.map((r) => r.gitCpuMs)),
      maxGitCpuMs: Math.max(...rounds.map((r) => r.gitCpuMs)),
      medianOurCpuMs: median(rounds.map((r) => r.ourCpuMs)),
      maxOurCpuMs: Math.max(...rounds.map((r) => r.ourCpuMs)),
      load: os.loadavg(),
      cpus: os.cpus().length,
      maxStallMs: Math.max(...rounds.map((r) => r.stallMs)),
      medianStallMs: median(rounds.map((r) => r.stallMs)),
      maxIdleStallMs: Math.max(...rounds.map((r) => r.idleStallMs)),
      medianProcesses: median(rounds.map((r) => r.processes)),
      maxProcesses: Math.max(...rounds.map((r) => r.processes)),
      medianMaintainMs: median(rounds.map((r) => r.maintainMs)),
      maxMaintainStallMs: Math.max(...rounds.map((r) => r.maintainStallMs)),
      medianMaintainProcesses: median(rounds.map((r) => r.maintainProcesses)),
      storeBlocks: disk(gitDir).blocks,
      medianDiskBlocks: median(rounds.map((r) => r.diskBlocks)),
      medianDiskBytes: median(rounds.map((r) => r.diskBytes)),
      medianChangedBytes: median(rounds.map((r) => r.changedBytes)),
      changesMs,
      perRound: rounds,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
