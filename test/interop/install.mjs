// Installs the pinned real agents of the interop suite into test/interop/node_modules.
// `npm ci` runs only when package-lock.json differs from the stamp left by the last install,
// so repeated runs cost a hash. Usage: node test/interop/install.mjs [--force]
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const lockfile = path.join(here, 'package-lock.json');
const stamp = path.join(here, 'node_modules', '.interop-install-stamp');

/** The lockfile hash plus the Node major (optional native packages depend on the platform). */
function wanted() {
  const hash = createHash('sha256').update(readFileSync(lockfile)).digest('hex');
  return `${hash} node${process.versions.node.split('.')[0]} ${process.platform}-${process.arch}`;
}

export function installInterop({ force = false, quiet = false } = {}) {
  const want = wanted();
  const have = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
  if (!force && have === want) {
    if (!quiet) console.log('interop: agents already installed (lockfile unchanged)');
    return false;
  }
  const started = Date.now();
  console.log('interop: npm ci in test/interop …');
  // No package of the set has an install script; --ignore-scripts keeps it that way.
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
    cwd: here,
    stdio: 'inherit',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (r.status !== 0) throw new Error(`interop: npm ci failed (exit ${r.status ?? r.signal})`);
  writeFileSync(stamp, `${want}\n`);
  console.log(`interop: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  installInterop({ force: process.argv.includes('--force') });
}
