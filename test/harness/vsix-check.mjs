#!/usr/bin/env node
// Installs the packaged .vsix into a fresh profile of the test VS Code (what a user gets), opens
// the workbench WITHOUT extensionDevelopmentPath, clicks the ACP activity bar entry and checks that
// the Plans view opens. Saves out/screenshots/vsix-installed.png. Exit code 0 on success.
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
