#!/usr/bin/env node
// Checkpoints of a 10,000-file workspace: `node bench/checkpoints.mjs [files] [rounds]` bundles
// bench/src/checkpoints.ts (as bench/attribution.mjs does: the product's code as shipped, minified),
// runs it in a process of its own and prints the figures. bench/run.mjs prints the same lines in
// its section 7. Method and latest figures: docs/PERFORMANCE.md, "Checkpoints".
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
export const CHECKPOINT_GOALS = { incrementalMs: 300, stallMs: 20 };

const fmt = (n, d = 0) => (typeof n === 'number' ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : 'n/a');
const kib = (b) => `${fmt(b / 1024, 1)} KiB`;

/** Runs the measurement; returns its printable lines and the raw result. */
export async function checkpoints(args = []) {
  const outfile = path.join(BENCH, 'out', 'checkpoints.js');
  await esbuild.build({
    entryPoints: [path.join(BENCH, 'src', 'checkpoints.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    logLevel: 'warning',
  });
  const run = spawnSync(process.execPath, [outfile, ...args.map(String)], { encoding: 'utf8', timeout: 900_000 });
  const line = run.stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  if (!line) return { lines: [`   checkpoints: ERROR ${(run.stderr || run.stdout).slice(-500)}`], result: null };
  const r = JSON.parse(line);
  const lines = [
    `   workspace: ${fmt(r.files)} files, ${fmt(r.workspaceBytes / 1048576, 1)} MiB (plus 500 ignored files in node_modules/)`,
    `   first checkpoint: ${fmt(r.firstMs)} ms (CPU: git ${fmt(r.firstGitCpuMs)} ms, ours ${fmt(r.firstOurCpuMs)} ms; longest event-loop stall ${fmt(r.firstStallMs, 1)} ms); ` +
      `packing its objects afterwards ${fmt(r.firstPackMs)} ms (git CPU ${fmt(r.firstPackGitCpuMs)} ms); store then ${kib(r.storeAfterFirst.blocks)} on disk`,
    `   ${r.rounds} rounds of "change ${r.changedPerRound} files, checkpoint": median ${fmt(r.medianMs, 1)} ms, max ${fmt(r.maxMs, 1)} ms ` +
      `(goal ≤ ${CHECKPOINT_GOALS.incrementalMs} ms); CPU per checkpoint: git median ${fmt(r.medianGitCpuMs)} ms (max ${fmt(r.maxGitCpuMs)}), ` +
      `ours median ${fmt(r.medianOurCpuMs, 1)} ms (max ${fmt(r.maxOurCpuMs, 1)})`,
    `   event loop during them: longest stall ${fmt(r.maxStallMs, 1)} ms, median of the rounds' longest ${fmt(r.medianStallMs, 1)} ms ` +
      `(goal ≤ ${CHECKPOINT_GOALS.stallMs} ms; the same wait doing nothing: up to ${fmt(r.maxIdleStallMs, 1)} ms)`,
    `   disk per incremental checkpoint: median ${kib(r.medianDiskBlocks)} on disk, ${kib(r.medianDiskBytes)} in files, ` +
      `for ${kib(r.medianChangedBytes)} of changed files`,
    `   changes() from the first checkpoint to the last (${fmt(r.rounds * r.changedPerRound)} file changes): ${fmt(r.changesMs)} ms`,
    `   (load average at the end ${r.load.map((x) => fmt(x, 2)).join(' / ')} on ${r.cpus ?? 'n/a'} CPUs)`,
  ];
  return { lines, result: r };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const l of (await checkpoints(process.argv.slice(2))).lines) console.log(l.trim());
}
