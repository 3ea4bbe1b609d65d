#!/usr/bin/env node
// Profiles consumer (a), our whole pipeline, on the benchmark stream: builds the bench bundles
// unminified (readable function names), runs the consumer once under `--cpu-prof`, and prints the
// functions with the most self time. With --persist, persistence is on (consumer (a+p)). With
// --alloc, it samples allocations instead (every object, collected or not) and prints who allocates.
//   node bench/profile.mjs [--count 100000] [--top 30] [--persist] [--alloc]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBench } from './lib/build.mjs';
import { generateStream } from './lib/generate.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(BENCH, 'out');
const arg = (n, d) => {
  const i = process.argv.indexOf(`--${n}`);
  return i === -1 ? d : process.argv[i + 1];
};
const count = Number(arg('count', 100_000));
const top = arg('top', '30');

const bundles = await buildBench({ minify: false });
const stream = path.join(OUT, `profile-stream-${count}.ndjson`);
const expected = path.join(OUT, `profile-expected-${count}.json`);
if (!existsSync(stream) || !existsSync(expected)) writeFileSync(expected, JSON.stringify(await generateStream(stream, { count })));
const dir = path.join(OUT, 'prof');
rmSync(dir, { recursive: true, force: true });
const persistDir = path.join(OUT, 'prof-history');
rmSync(persistDir, { recursive: true, force: true });
mkdirSync(persistDir, { recursive: true });
const persist = process.argv.includes('--persist') ? [persistDir] : [];
const alloc = process.argv.includes('--alloc');
const allocOut = path.join(OUT, 'alloc.heapprofile');
const flags = alloc ? ['-r', path.join(BENCH, 'lib/alloc-sampler.cjs')] : ['--cpu-prof', `--cpu-prof-dir=${dir}`];
const run = spawnSync(
  process.execPath,
  ['--expose-gc', ...flags, bundles['consumer-ours'], path.join(BENCH, 'lib/producer.mjs'), stream, expected, String(count), ...persist],
  { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, BENCH_PROFILE: '1', ALLOC_OUT: allocOut } },
);
if (run.status !== 0) process.exit(run.status ?? 1);
if (alloc) {
  spawnSync(process.execPath, [path.join(BENCH, 'lib/alloc-top.mjs'), allocOut], { stdio: 'inherit' });
  process.exit(0);
}
const prof = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
spawnSync(process.execPath, [path.join(BENCH, 'lib/profile-top.mjs'), path.join(dir, prof), top], { stdio: 'inherit' });
