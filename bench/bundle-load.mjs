#!/usr/bin/env node
// What loading the production extension bundle costs before activate() runs: VS Code's extension
// host `require`s dist/extension.js (read, parse, run its top level) and only then calls
// activate(), whose time is the `activated in N ms` line; this is the part before it. Builds
// `node esbuild.mjs --production` of a git revision (default: the merge base with main) and of the
// working tree, each in a private copy, then times `require` of each dist/extension.js in fresh
// Node processes (`vscode` stubbed), alternating, and prints sizes, the median and the spread.
//   node bench/bundle-load.mjs [--base <rev>] [--rounds 30]
import { execFileSync, execSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (n, d) => {
  const i = process.argv.indexOf(`--${n}`);
  return i === -1 ? d : process.argv[i + 1];
};
const base = arg('base', execSync('git merge-base HEAD main', { cwd: ROOT, encoding: 'utf8' }).trim());
const rounds = Number(arg('rounds', 30));
const SOURCES = ['src', 'media', 'esbuild.mjs', 'package.json', 'tsconfig.json'];

/** A private copy of `rev` (or of the working tree), built for production; returns its dist/extension.js. */
function build(rev) {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-bench-load-'));
  if (rev) execSync(`git archive ${rev} ${SOURCES.join(' ')} | tar -x -C ${dir}`, { cwd: ROOT });
  else for (const p of SOURCES) cpSync(path.join(ROOT, p), path.join(dir, p), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: dir, stdio: 'pipe' });
  return { dir, file: path.join(dir, 'dist', 'extension.js') };
}

// Run in a fresh process: `vscode` is a stub that answers every property, call and `new` with itself.
const child = `
const Module = require('module');
const stub = new Proxy(function () {}, { get: (_t, k) => (k === Symbol.toPrimitive ? () => '' : stub), apply: () => stub, construct: () => stub });
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest); };
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: stub };
const t = performance.now();
require(process.argv[1]);
process.stdout.write(String(performance.now() - t));
`;
const loadMs = (file) => Number(execFileSync(process.execPath, ['-e', child, file], { encoding: 'utf8' }));

const builds = { before: build(base), after: build(undefined) };
try {
  const times = { before: [], after: [] };
  for (let i = 0; i < rounds; i++) for (const k of i % 2 ? ['after', 'before'] : ['before', 'after']) times[k].push(loadMs(builds[k].file));
  const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  console.log(
    `require(dist/extension.js), production, ${rounds} fresh processes each (alternating); load average ${(await import('node:os')).loadavg()[0].toFixed(1)}`,
  );
  for (const k of ['before', 'after']) {
    const xs = times[k];
    const label = k === 'before' ? `before (${base.slice(0, 7)})` : 'after (working tree)';
    console.log(
      `  ${label.padEnd(22)} ${String(statSync(builds[k].file).size).padStart(7)} B   median ${q(xs, 0.5).toFixed(2)} ms   p10 ${q(xs, 0.1).toFixed(2)}   p90 ${q(xs, 0.9).toFixed(2)} ms`,
    );
  }
} finally {
  for (const b of Object.values(builds)) rmSync(b.dir, { recursive: true, force: true });
}
