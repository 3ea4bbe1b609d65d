// The interop suite in one command: installs the pinned agents if the lockfile changed, bundles
// the tests, runs mocha (spec reporter; ends with mocha's summary). Extra arguments go to mocha,
// e.g. `node test/interop/run.mjs --grep codex`.
// Recordings of every run go to $ACP_INTEROP_RECORD_DIR (default <tmp>/acp-interop-recordings);
// at the end, every message our client sent in this run's recordings is validated against the
// official schema of its negotiated version (test/harness/lib/outbound-recordings.mjs): one
// summary line, each invalid message listed, and a non-zero exit if there is any.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { checkRecordingDir, formatReport } from '../harness/lib/outbound-recordings.mjs';
import { installInterop } from './install.mjs';
import { buildInterop, outdir, root } from './build.mjs';

const started = Date.now();
installInterop({ quiet: false });
const n = await buildInterop();
console.log(`interop: built ${n} test files`);
const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const recordings = process.env.ACP_INTEROP_RECORD_DIR ?? path.join(os.tmpdir(), 'acp-interop-recordings');
const runStarted = Date.now();
// The test files run in parallel (each agent is its own process on its own port): the interop CI
// budget is 5 minutes with install. ACP_INTEROP_JOBS=1 runs them one after the other.
const jobs = Number(process.env.ACP_INTEROP_JOBS ?? 2);
const r = spawnSync(
  process.execPath,
  [
    mocha,
    '--no-config',
    '--reporter',
    'spec',
    '--timeout',
    '120000',
    '--exit',
    ...(jobs > 1 ? ['--parallel', '--jobs', String(jobs)] : []),
    path.join(outdir, '**', '*.test.js'),
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: process.env },
);
const report = checkRecordingDir(recordings, { schemasDir: path.join(root, 'test', 'fixtures', 'schemas'), since: runStarted });
for (const line of formatReport(report, 'interop:')) console.log(line);
console.log(`interop: finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(report.failures.length ? 1 : (r.status ?? 1));
