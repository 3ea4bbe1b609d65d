#!/usr/bin/env node
// Screenshots of the real VS Code UI (code-server workbench) with the ACP sidebar open: the welcome
// view, then a Demo Agent turn waiting for a permission, then the finished turn.
// Usage: node test/harness/screenshot.mjs [out.png] [--vsix file.vsix]
//   default: loads the extension from this folder (extensionDevelopmentPath, like F5 / the tests)
//   --vsix:  installs the packaged .vsix into a fresh extensions dir first (what users get)
// Env: THEME (default 'Default Dark Modern'), VERBOSE=1
import { mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, NODE24, CODE_SERVER, ensureInstalled, makeProfile, startCodeServer, launchChromium, workbenchUrl } from './lib/code-server.mjs';

const argv = process.argv.slice(2);
const vsixAt = argv.indexOf('--vsix');
const vsix = vsixAt >= 0 ? path.resolve(argv.splice(vsixAt, 2)[1]) : undefined;
const outFile = path.resolve(argv[0] ?? path.join(ROOT, 'out/screenshots/sidebar.png'));
mkdirSync(path.dirname(outFile), { recursive: true });
const verbose = !!process.env.VERBOSE;

ensureInstalled();
const profile = makeProfile({ 'workbench.colorTheme': process.env.THEME ?? 'Default Dark Modern' });
const folder = path.join(profile.base, 'workspace');
mkdirSync(folder, { recursive: true });
if (vsix) {
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
  console.log(r.stdout.trim());
}
/** The first element matching `selector` (with `text`) inside any webview frame. */
async function findInWebviews(page, selector, text) {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      const loc = frame.locator(selector, text ? { hasText: text } : undefined).first();
      if (await loc.count().catch(() => 0)) return loc;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`no ${selector} ${text ?? ''} in any webview`);
}

let server,
  browser,
  rc = 1;
try {
  server = await startCodeServer({ profile, folder, verbose });
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  if (verbose) page.on('console', (m) => console.log(`[browser:${m.type()}] ${m.text()}`));
  // Without extensionTestsPath the extension host stays up, so the view keeps its data.
  const url = vsix
    ? `${server.url}/?${new URLSearchParams({ folder })}`
    : workbenchUrl({ url: server.url, port: server.port, folder, extensionDevelopmentPath: ROOT });
  await page.goto(url);
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
  // Open the ACP container from the activity bar (its title from package.json).
  const tab = page.locator('.part.activitybar [role="tab"][aria-label^="ACP"], .part.activitybar a[aria-label^="ACP"]').first();
  await tab.waitFor({ timeout: 60_000 });
  await tab.click();
  await page.locator('.part.sidebar .pane-header h3.title', { hasText: 'Plans' }).waitFor({ timeout: 30_000 });
  const shot = async (file) => {
    await page.mouse.move(1, 700); // no hover tooltips in the picture
    await page.screenshot({ path: file });
    console.log(`screenshot: ${file}`);
  };
  await page.locator('.part.sidebar .welcome-view-content', { hasText: 'Demo Agent' }).first().waitFor({ timeout: 30_000 });
  await shot(outFile.replace(/\.png$/, '-welcome.png'));
  if (!vsix || process.env.DEMO_TURN) {
    // Start the Demo Agent from the welcome view and send a prompt from the Conversation view.
    await page
      .locator('.part.sidebar .welcome-view-content a, .part.sidebar .welcome-view-content .monaco-button', { hasText: 'Start Demo Agent' })
      .first()
      .click();
    await page.locator('.part.sidebar .monaco-list-row', { hasText: 'Demo Agent' }).first().waitFor({ timeout: 30_000 });
    const input = await findInWebviews(page, 'textarea');
    await input.fill('Add a farewell function');
    await input.press('Enter');
    // The agent asks before editing: the status bar and the session show it waits for you.
    await page.locator('.part.statusbar', { hasText: 'waiting for you' }).waitFor({ timeout: 60_000 });
    await page.waitForTimeout(500); // let the webview paint the prompt
    await shot(outFile.replace(/\.png$/, '-permission.png'));
    const allow = await findInWebviews(page, 'button.perm-option', 'Allow once');
    await allow.click();
    await page.locator('.part.sidebar .monaco-list-row', { hasText: 'idle (end_turn)' }).first().waitFor({ timeout: 60_000 });
  }
  await page.waitForTimeout(800); // let icons/fonts settle
  await shot(outFile);
  // Also a tight crop of the sidebar, handy for visual diffs.
  await page.locator('.part.sidebar').screenshot({ path: outFile.replace(/\.png$/, '-sidebar-only.png') });
  const rows = await page.locator('.part.sidebar .monaco-list-row').allInnerTexts();
  console.log(`tree rows: ${JSON.stringify(rows)}`);
  console.log(`screenshot: ${outFile}`);
  rc = 0;
} catch (e) {
  console.error('[screenshot] error:', e);
  if (server && !verbose) console.error(server.output().slice(-3000));
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
  profile.cleanup();
}
process.exit(rc);
