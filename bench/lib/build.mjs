// Bundles the benchmark's TypeScript entry points (bench/src) into bench/out with esbuild, the
// same way esbuild.mjs bundles the extension (cjs, node20, everything inlined), so the consumers
// run the product's code as shipped. Never touches dist/ or out/.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export const ENTRIES = {
  'consumer-ours': 'src/consumers/ours.ts',
  'consumer-jsonrpc': 'src/consumers/jsonrpc.ts',
  coalescing: 'src/coalescing.ts',
  'long-session': 'src/longSession.ts',
  stages: 'src/stages.ts',
  'check-fast-path': 'src/checkFastPath.ts',
  'plan-history': 'src/planHistory.ts',
  'check-order': 'src/checkOrder.ts',
  'check-plan-clone': 'src/checkPlanClone.ts',
  'markdown-parse': 'src/markdownParse.ts',
  'make-history': 'src/makeHistory.ts',
};

export async function buildBench({ minify = true } = {}) {
  await esbuild.build({
    absWorkingDir: benchDir,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([k, v]) => [k, path.join(benchDir, v)])),
    outdir: path.join(benchDir, 'out'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Like `esbuild.mjs --production`, so the numbers are those of the shipped bundle.
    minify,
    sourcemap: !minify,
    logLevel: 'warning',
  });
  return Object.fromEntries(Object.keys(ENTRIES).map((k) => [k, path.join(benchDir, 'out', `${k}.js`)]));
}
