// Bundles the interop tests (test/interop/**/*.test.ts) to out/interop/ with the root esbuild.
// The root build does not pick them up; `node test/interop/run.mjs` calls this.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..', '..');
export const outdir = path.join(root, 'out', 'interop');

function tests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tests(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

export async function buildInterop() {
  rmSync(outdir, { recursive: true, force: true });
  const entryPoints = tests(here);
  await esbuild.build({
    entryPoints,
    outdir,
    outbase: here,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
    external: ['mocha', 'vscode'],
  });
  return entryPoints.length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const n = await buildInterop();
  console.log(`interop: built ${n} test files to ${path.relative(root, outdir)}`);
}
