// Builds and runs a subset of the project's unit tests into a private directory (never touches
// out/test, which other builds recreate): used to check transport/state changes quickly.
//   node bench/lib/unit-subset.mjs test/unit/protocol/transport.test.ts ...
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

const out = '/tmp/acp-bench-unit';
rmSync(out, { recursive: true, force: true });
const entries = [...process.argv.slice(2), 'test/agents/scriptedAgent.ts'];
await esbuild.build({
  entryPoints: entries,
  outdir: path.join(out, 'test'),
  outbase: 'test',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: ['vscode', 'mocha', 'playwright-core'],
});
const tests = process.argv.slice(2).map((e) => path.join(out, e.replace(/\.ts$/, '.js')));
const r = spawnSync('npx', ['mocha', '--reporter', 'dot', '--timeout', '20000', ...tests], { stdio: 'inherit' });
process.exit(r.status ?? 1);
