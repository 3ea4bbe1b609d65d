import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// Driving the real workbench from outside (Playwright), as a person would: the ACP view, the
// Plans rows, the status bar, the command palette, the conversation's prompt box. Shared by the
// reload check and the real-VS-Code benchmark (bench/vscode.mjs).

/** The text of every webview frame (the conversation). */
export async function webviewText(page) {
  const texts = [];
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    texts.push(
      await frame
        .locator('body')
        .innerText({ timeout: 2000 })
        .catch(() => ''),
    );
  }
  return texts.join('\n');
}

/** Polls `predicate` (a page reading, not a sleep) until it returns something truthy. */
export async function until(page, what, predicate, ms = 60_000) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    last = await predicate();
    if (last) return last;
    await page.waitForTimeout(250);
  }
  throw new Error(`timed out: ${what}`);
}

/** Opens the ACP container and waits for the Plans view. */
export async function openAcp(page) {
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 90_000 });
  const pane = page.locator('.part.sidebar .pane-header h3.title', { hasText: 'Plans' }).first();
  const tab = page.locator('.part.activitybar [role="tab"][aria-label^="ACP"], .part.activitybar a[aria-label^="ACP"]').first();
  await tab.waitFor({ timeout: 60_000 });
  // The workbench may still be restoring its layout (slowly, on a busy machine), and a click on the
  // active container's tab hides the side bar: look again after each click.
  for (let attempt = 0; attempt < 4; attempt++) {
    if (
      await pane.waitFor({ timeout: 5000 }).then(
        () => true,
        () => false,
      )
    )
      return;
    await tab.click();
  }
  await pane.waitFor({ timeout: 30_000 });
}

/** The visible rows of the side bar (the Plans tree). */
export const rows = (page) => page.locator('.part.sidebar .monaco-list-row').allInnerTexts();

/** The status bar items that show a plan's progress (`n/m`). */
export const status = async (page) => (await page.locator('.part.statusbar .statusbar-item', { hasText: /\d+\/\d+/ }).allInnerTexts()).join(' | ');

/** Runs `command` from the command palette. */
export async function palette(page, command) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10_000 });
  await input.fill(`>${command}`);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: command }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
}

/** The frame of the conversation webview (the one with the prompt box) and its prompt box. */
export async function promptBox(page) {
  return until(page, 'the prompt box', async () => {
    for (const f of page.frames()) {
      if (f === page.mainFrame()) continue;
      const l = f.locator('textarea').first();
      if (await l.count().catch(() => 0)) return { frame: f, box: l };
    }
    return undefined;
  });
}

/** Clicks "Start Demo Agent" in the Plans view's welcome content and waits for it to run. */
export async function startDemoAgent(page) {
  await page
    .locator('.part.sidebar .welcome-view-content a, .part.sidebar .welcome-view-content .monaco-button', { hasText: 'Start Demo Agent' })
    .first()
    .click();
  await until(page, 'the Demo Agent row', async () => (await rows(page)).some((r) => r.includes('running')));
}

export const count = (text, needle) => text.split(needle).length - 1;

/** Every file under `dir` (a test profile's storage and logs), depth first. */
export function filesUnder(dir) {
  const out = [];
  for (const name of (() => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  })()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}
