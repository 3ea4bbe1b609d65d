// The interop suite in one command: installs the pinned agents if the lockfile changed, bundles
// the tests, runs mocha (spec reporter; ends with mocha's summary). Extra arguments go to mocha,
// e.g. `node test/interop/run.mjs --grep codex`.
// Recordings of every run go to $ACP_INTEROP_RECORD_DIR (default <tmp>/acp-interop-recordings).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { installInterop } from './install.mjs';
import { buildInterop, outdir, root } from './build.mjs';

const started = Date.now();
installInterop({ quiet: false });
const n = await buildInterop();
console.log(`interop: built ${n} test files`);
const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const r = spawnSync(process.execPath, [
  mocha, '--no-config', '--reporter', 'spec', '--timeout', '120000', '--exit',
  path.join(outdir, '**', '*.test.js'), ...process.argv.slice(2),
], { cwd: root, stdio: 'inherit', env: process.env });
console.log(`interop: finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(r.status ?? 1);
