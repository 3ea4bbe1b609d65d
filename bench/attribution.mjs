#!/usr/bin/env node
// The work index's memory alone: `node bench/attribution.mjs` bundles bench/src/attribution.ts (as
// bench/lib/build.mjs bundles the others: the product's code as shipped, minified) and prints the
// heap per attributed tool call. bench/run.mjs prints the same line in its section 5.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = path.dirname(fileURLToPath(import.meta.url));

/** Runs the measurement; returns its printable lines and the raw result. */
export async function attribution() {
  const outfile = path.join(BENCH, 'out', 'attribution.js');
  await esbuild.build({
    entryPoints: [path.join(BENCH, 'src', 'attribution.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    logLevel: 'warning',
  });
  const run = spawnSync(process.execPath, ['--expose-gc', outfile], { encoding: 'utf8' });
  const line = run.stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  if (!line) return { lines: [`   attribution: ERROR ${(run.stderr || run.stdout).slice(-500)}`], result: null };
  const result = JSON.parse(line);
  const lines = result.results.map(
    (r) =>
      `   work index, ${r.calls.toLocaleString('en-US')} tool calls attributed (${r.kind === 'plain' ? 'calls only' : 'each with a one-file diff, no texts'}): ` +
      `${(r.heapBytes / 1024).toFixed(1)} KB, ${r.bytesPerCall} bytes per attributed call`,
  );
  return { lines, result };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const l of (await attribution()).lines) console.log(l.trim());
}
