#!/usr/bin/env node
// Checks the packaged .vsix: under 1 MB, every file the bundle loads later inside it, and
// dist/extension.js within its 400 KiB budget. Then installs it into a fresh profile of the test
// VS Code (what a user gets), opens the workbench WITHOUT extensionDevelopmentPath, clicks the ACP
// activity bar entry and checks that the Plans view opens. Saves out/screenshots/vsix-installed.png.
// Exit code 0 on success.
import { mkdirSync, readFileSync, statSync, cpSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, NODE24, CODE_SERVER, ensureInstalled, makeProfile, startCodeServer, launchChromium } from './lib/code-server.mjs';

const vsix = path.resolve(process.argv[2] ?? path.join(ROOT, 'acp-plans.vsix'));
const size = statSync(vsix).size;
console.log(`[vsix] ${path.basename(vsix)}: ${(size / 1024).toFixed(1)} KB`);
if (size >= 1024 * 1024) {
  console.error('[vsix] the package must stay under 1 MB');
  process.exit(1);
}
// Every file the bundle loads later (`require("./…")`, e.g. dist/intent-jws.js) is in the package
// (a zip stores its file names uncompressed).
const packaged = readFileSync(vsix);
for (const [, file] of readFileSync(path.join(ROOT, 'dist/extension.js'), 'utf8').matchAll(/require\("\.\/([^"]+)"\)/g)) {
  if (!packaged.includes(`extension/dist/${file}`)) {
    console.error(`[vsix] dist/${file}, which dist/extension.js loads, is not in the package: allow it in .vscodeignore`);
    process.exit(1);
  }
}
// Activation loads and parses every byte of the extension bundle: it stays under its budget. What
// runs only on a user action or a rare path loads on first use instead (src/common/lazy.ts).
const BUNDLE_BUDGET = 400 * 1024;
const bundleBytes = unzippedSize(packaged, 'extension/dist/extension.js');
console.log(`[vsix] dist/extension.js: ${kib(bundleBytes)} (budget ${kib(BUNDLE_BUDGET)})`);
if (bundleBytes > BUNDLE_BUDGET) {
  console.error(
    `[vsix] dist/extension.js is ${bundleBytes} bytes (${kib(bundleBytes)}), over its budget of ${BUNDLE_BUDGET} bytes (${kib(BUNDLE_BUDGET)}): ` +
      'activation pays for every byte. `node esbuild.mjs --production --metafile` lists its biggest inputs (all of them in out/meta.json); ' +
      'move what runs only on a user action or a rare path behind lazyModule (src/common/lazy.ts).',
  );
  process.exit(1);
}
ensureInstalled();
const profile = makeProfile();
const folder = path.join(profile.base, 'workspace');
mkdirSync(folder, { recursive: true });
cpSync(path.join(ROOT, 'test/fixtures/workspace'), folder, { recursive: true });
const r = spawnSync(
  NODE24,
  [
    CODE_SERVER,
    '--config',
    path.join(profile.base, 'config.yaml'),
    '--user-data-dir',
    profile.userData,
    '--extensions-dir',
    profile.extensions,
    '--install-extension',
    vsix,
  ],
  { encoding: 'utf8' },
);
if (r.status !== 0) {
  console.error(r.stdout, r.stderr);
  process.exit(1);
}
console.log(`[vsix] ${r.stdout.trim().split('\n').pop()}`);
/** KiB with one decimal. */
function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The uncompressed size of `name` in a zip, from its central directory entry. */
function unzippedSize(zip, name) {
  const wanted = Buffer.from(name);
  for (let at = zip.indexOf(wanted); at !== -1; at = zip.indexOf(wanted, at + 1)) {
    const entry = at - 46; // a central directory header is 46 bytes, then the name
    if (entry >= 0 && zip.readUInt32LE(entry) === 0x02014b50 && zip.readUInt16LE(entry + 28) === wanted.length) return zip.readUInt32LE(entry + 24);
  }
  console.error(`[vsix] ${name} is not in the package`);
  process.exit(1);
}

let server,
  browser,
  rc = 1;
try {
  server = await startCodeServer({ profile, folder });
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/?${new URLSearchParams({ folder })}`);
  const tab = page.locator('.part.activitybar [role="tab"][aria-label^="ACP"], .part.activitybar a[aria-label^="ACP"]').first();
  await tab.waitFor({ timeout: 90_000 });
  await tab.click();
  await page.locator('.part.sidebar .pane-header h3.title', { hasText: 'Plans' }).waitFor({ timeout: 30_000 });
  // The installed extension is really active: its welcome content offers the Demo Agent.
  await page.locator('.part.sidebar .welcome-view-content', { hasText: 'Demo Agent' }).first().waitFor({ timeout: 30_000 });
  const shots = path.join(ROOT, 'out/screenshots');
  mkdirSync(shots, { recursive: true });
  await page.mouse.move(1, 700);
  await page.screenshot({ path: path.join(shots, 'vsix-installed.png') });
  console.log('[vsix] installed extension: ACP container open, Plans view shown (out/screenshots/vsix-installed.png)');
  rc = 0;
} catch (e) {
  console.error('[vsix] error:', e);
  if (server) console.error(server.output().slice(-3000));
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
  profile.cleanup();
}
process.exit(rc);
