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
  return { lines: checkpointLines(r), result: r };
}

/** The printable lines of one result, each goal with PASS or FAIL. */
export function checkpointLines(r) {
  const verdict = (ok) => (ok ? 'PASS' : 'FAIL');
  const incrementalOk = r.maxMs <= CHECKPOINT_GOALS.incrementalMs;
  const stallOk = r.maxStallMs <= CHECKPOINT_GOALS.stallMs;
  // Proportional: the store grows by at most two 4 KiB blocks (the file, and a new fan-out folder
  // for it) per object a checkpoint can write (each changed blob, each folder above it, the root
  // tree, the commit, the ref) plus the changed bytes, whatever the workspace's size.
  const objects = r.changedPerRound * (r.depth + 1) + 3;
  const diskBound = objects * 2 * 4096 + r.medianChangedBytes;
  const diskOk = r.medianDiskBlocks <= diskBound;
  return [
    `   workspace: ${fmt(r.files)} files, ${fmt(r.workspaceBytes / 1048576, 1)} MiB (plus 500 ignored files in node_modules/)`,
    `   first checkpoint: ${fmt(r.firstMs)} ms (CPU: git ${fmt(r.firstGitCpuMs)} ms, ours ${fmt(r.firstOurCpuMs)} ms; longest event-loop stall ${fmt(r.firstStallMs, 1)} ms); ` +
      `packing its objects afterwards ${fmt(r.firstPackMs)} ms (git CPU ${fmt(r.firstPackGitCpuMs)} ms); store then ${kib(r.storeAfterFirst.blocks)} on disk`,
    `   ${r.rounds} rounds of "change ${r.changedPerRound} files, checkpoint": median ${fmt(r.medianMs, 1)} ms, max ${fmt(r.maxMs, 1)} ms; ` +
      `git processes per checkpoint: ${fmt(r.medianProcesses)} (max ${fmt(r.maxProcesses)}); CPU per checkpoint: git median ${fmt(r.medianGitCpuMs)} ms (max ${fmt(r.maxGitCpuMs)}), ` +
      `ours median ${fmt(r.medianOurCpuMs, 1)} ms (max ${fmt(r.maxOurCpuMs, 1)})`,
    `   event loop during them: longest stall ${fmt(r.maxStallMs, 1)} ms, median of the rounds' longest ${fmt(r.medianStallMs, 1)} ms ` +
      `(the same wait doing nothing: up to ${fmt(r.maxIdleStallMs, 1)} ms)`,
    `   maintenance queued after each (measuring the store, packing when due): median ${fmt(r.medianMaintainMs, 1)} ms, ` +
      `${fmt(r.medianMaintainProcesses)} git process(es), longest stall ${fmt(r.maxMaintainStallMs, 1)} ms`,
    `   disk per incremental checkpoint: median ${kib(r.medianDiskBlocks)} on disk, ${kib(r.medianDiskBytes)} in files, ` +
      `for ${kib(r.medianChangedBytes)} of changed files (the whole store: ${kib(r.storeBlocks)})`,
    `   changes() from the first checkpoint to the last (${fmt(r.rounds * r.changedPerRound)} file changes): ${fmt(r.changesMs)} ms`,
    `   goal: incremental checkpoint ≤ ${CHECKPOINT_GOALS.incrementalMs} ms (every round): ${verdict(incrementalOk)} (max ${fmt(r.maxMs, 1)} ms)`,
    `   goal: event loop blocked ≤ ${CHECKPOINT_GOALS.stallMs} ms (every round): ${verdict(stallOk)} (max ${fmt(r.maxStallMs, 1)} ms` +
      `${r.maxIdleStallMs > CHECKPOINT_GOALS.stallMs ? `; the idle wait alone reached ${fmt(r.maxIdleStallMs, 1)} ms: the machine's load is in this figure` : ''})`,
    `   goal: disk proportional to what changed: ${verdict(diskOk)} (median ${kib(r.medianDiskBlocks)} ≤ ${kib(diskBound)}: ` +
      `two 4 KiB blocks for each of the ${objects} objects a checkpoint writes at most, plus the changed bytes)`,
    `   (load average at the end ${r.load.map((x) => fmt(x, 2)).join(' / ')} on ${r.cpus ?? 'n/a'} CPUs)`,
  ];
  return lines;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const l of (await checkpoints(process.argv.slice(2))).lines) console.log(l.trim());
}
