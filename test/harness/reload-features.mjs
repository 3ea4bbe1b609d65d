#!/usr/bin/env node
// Session management and review comments across a reload, as a person sees them in the real VS Code
// (no test code in the extension host, which a reload would end): the Demo Agent on ACP v2 (it
// offers fork, archive and title) runs a turn; from the command palette the session is renamed
// (the input box), a review comment is added on a line the turn changed (the comment widget, "Add
// Comment") and resolved (the thread's "Resolve"), the session is forked, the fork forked again and
// that second fork archived; "Developer: Reload Window"; then, the agent not running, the renamed
// row, the first fork's row, the resolved review (its row, and its thread on its line, offering
// Reopen) and the "Archived" row with the archived fork below it are all back. Screenshots before
// and after the reload in out/screenshots. Prints `N passed, N failed`.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, ensureInstalled, makeProfile, startCodeServer, launchChromium, workbenchUrl } from './lib/code-server.mjs';
import { count, openAcp, palette, promptBox, rows, startDemoAgent, until, webviewText } from './lib/workbench.mjs';

const verbose = !!process.env.VERBOSE;
const shots = path.join(ROOT, 'out/screenshots');
mkdirSync(shots, { recursive: true });
ensureInstalled();
const profile = makeProfile({ 'acp.demo.stepDelayMs': 0, 'acp.demo.protocol': '2' });
const folder = path.join(profile.base, 'workspace');
mkdirSync(folder, { recursive: true });
const TITLE = 'Farewell work';
const COMMENT = 'Greet by name here';

const results = [];
const check = (name, ok, detail = '') => {
  results.push({ name, ok });
  console.log(`  ${ok ? '✔' : '✘'} ${name}${ok ? '' : `\n      ${detail}`}`);
};
const step = (what) => verbose && console.log(`    · ${what}`);

async function turn(page, prompt) {
  const { box: input } = await promptBox(page);
  const endsBefore = count(await webviewText(page), 'Turn ended');
  await input.fill(prompt);
  await input.press('Enter');
  const allow = await until(page, 'the permission prompt', async () => {
    for (const f of page.frames()) {
      if (f === page.mainFrame()) continue;
      const l = f.locator('button.perm-option', { hasText: 'Allow once' }).first();
      if (await l.count().catch(() => 0)) return l;
    }
    return undefined;
  });
  await allow.click();
  await until(
    page,
    'the end of the turn',
    async () => count(await webviewText(page), 'Turn ended') > endsBefore && (await rows(page)).some((r) => r.includes('idle (end_turn)')),
  );
}

/** The side bar's rows with their tree depth (aria-level), so "below Archived" can be told. */
const tree = (page) =>
  page.locator('.part.sidebar .monaco-list-row').evaluateAll((els) =>
    els.map((e) => ({
      label: (e.querySelector('.label-name')?.textContent ?? '').trim(),
      text: e.innerText.replace(/\s+/g, ' ').trim(),
      level: Number(e.getAttribute('aria-level')),
    })),
  );
const sessionCount = async (page) => (await tree(page)).filter((r) => r.level === 2 && !/^(Archived|Review)/.test(r.text)).length;
const show = (all) => JSON.stringify(all.map((r) => `${'  '.repeat(r.level - 1)}${r.text}`));
/** Rows directly below the row `parent` (by depth). */
function below(all, parent) {
  const i = all.findIndex(parent);
  if (i < 0) return [];
  const out = [];
  for (const r of all.slice(i + 1)) {
    if (r.level <= all[i].level) break;
    if (r.level === all[i].level + 1) out.push(r);
  }
  return out;
}
/** Expands a collapsed session-level row (a click on its twistie). */
async function expand(page, text) {
  const row = page.locator('.part.sidebar .monaco-list-row[aria-level="2"]', { hasText: text }).first();
  if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
}
/** The input box the palette's command opened: replaces its value and accepts. */
async function answer(page, text) {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10_000 });
  await input.fill(text);
  await input.press('Enter');
}

let server,
  browser,
  rc = 1;
try {
  server = await startCodeServer({ profile, folder, verbose });
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(workbenchUrl({ url: server.url, port: server.port, folder, extensionDevelopmentPath: ROOT }));
  await openAcp(page);
  await startDemoAgent(page);
  await turn(page, 'Add a farewell function');
  await until(page, 'the plans', async () => (await rows(page)).length >= 4);
  step(show(await tree(page)));

  console.log('Rename Session… (command palette, input box)');
  await palette(page, 'ACP: Rename Session');
  await answer(page, TITLE);
  await until(page, 'the renamed row', async () => (await tree(page)).some((r) => r.level === 2 && r.text.startsWith(TITLE)));

  console.log('A review comment on a changed line, resolved');
  const hello = path.join(folder, '.acp-demo', 'hello.ts');
  const line =
    readFileSync(hello, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('function farewell')) + 1;
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill('hello.ts');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'hello.ts' }).first().waitFor({ timeout: 20_000 });
  await page.keyboard.press('Enter');
  await page.locator('.editor-instance .monaco-editor').first().waitFor({ timeout: 20_000 });
  await palette(page, 'Go to Line/Column');
  await answer(page, `:${line}`);
  await palette(page, 'Comments: Add Comment on Current Selection');
  const form = page.locator('.review-widget .comment-form').first();
  await form.waitFor({ timeout: 20_000 });
  await page.keyboard.type(COMMENT);
  await page.locator('.review-widget').getByRole('button', { name: 'Add Comment' }).first().click();
  await until(page, 'the review row', async () => (await tree(page)).some((r) => r.text.startsWith('Review: 1 open')));
  await page.locator('.review-widget .head .action-label[aria-label^="Resolve"]').first().click();
  await until(page, 'the resolved review', async () => (await tree(page)).some((r) => r.text.startsWith('Review: 0 open')));
  await palette(page, 'View: Close All Editors');

  console.log('Fork Session, twice; Archive Session (command palette)');
  const sessions = await sessionCount(page);
  await palette(page, 'ACP: Fork Session');
  await until(page, 'the fork row', async () => (await sessionCount(page)) === sessions + 1);
  await palette(page, 'ACP: Fork Session');
  await until(page, 'the second fork row', async () => (await sessionCount(page)) === sessions + 2);
  await palette(page, 'ACP: Archive Session');
  await until(page, 'the Archived row', async () => (await tree(page)).some((r) => r.level === 2 && r.text.startsWith('Archived')));
  await expand(page, 'Archived');
  const before = await until(page, 'the archived fork', async () => {
    const all = await tree(page);
    return below(all, (r) => r.level === 2 && r.text.startsWith('Archived')).length === 1 ? all : undefined;
  });
  step(show(before));
  await page.screenshot({ path: path.join(shots, 'reload-features-before.png') });
  const archivedBefore = below(before, (r) => r.level === 2 && r.text.startsWith('Archived')).map((r) => r.label);
  const topBefore = before.filter((r) => r.level === 2 && !/^(Archived|Review)/.test(r.text)).map((r) => r.label);
  await page.waitForTimeout(1200); // the history is appended every 500 ms; a reload also flushes it

  console.log('Reload Window (command palette)');
  await Promise.all([
    page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: 60_000 }),
    palette(page, 'Developer: Reload Window'),
  ]);
  await page.waitForLoadState('load');
  await openAcp(page);
  let after = [];
  await until(
    page,
    'the restored rows',
    async () => {
      after = await tree(page);
      return after.some((r) => r.text.startsWith('Archived')) && (await sessionCount(page)) >= topBefore.length;
    },
    60_000,
  ).catch(() => undefined);
  const agentRow = after.find((r) => r.level === 1)?.text ?? '';
  check('the agent is shown, not running', /stopped/.test(agentRow), agentRow);
  const top = after.filter((r) => r.level === 2 && !/^(Archived|Review)/.test(r.text));
  check(
    `the renamed session's row ("${TITLE}")`,
    top.some((r) => r.text.startsWith(TITLE)),
    show(after),
  );
  check(
    "the first fork's row, beside it",
    JSON.stringify(top.map((r) => r.label)) === JSON.stringify(topBefore) && topBefore.length === 2,
    `before ${JSON.stringify(topBefore)}\n      after ${show(after)}`,
  );
  await expand(page, 'Archived').catch(() => undefined);
  const archivedAfter = await until(page, 'the archived fork', async () => {
    const b = below(await tree(page), (r) => r.level === 2 && r.text.startsWith('Archived')).map((r) => r.label);
    return b.length ? b : undefined;
  }).catch(() => []);
  check(
    'the "Archived" row with the archived fork below it',
    archivedAfter.length === 1 && JSON.stringify(archivedAfter) === JSON.stringify(archivedBefore),
    `before ${JSON.stringify(archivedBefore)}, after ${JSON.stringify(archivedAfter)}`,
  );
  const renamed = (r) => r.level === 2 && r.text.startsWith(TITLE);
  await expand(page, TITLE).catch(() => undefined);
  const review = await until(page, 'the review row', async () => below(await tree(page), renamed).find((r) => r.text.startsWith('Review:'))).catch(
    () => undefined,
  );
  check(
    'the resolved review comment is kept ("Review: 0 open", 1 resolved)',
    /^Review: 0 open.*1 resolved/.test(review?.text ?? ''),
    review?.text ?? show(await tree(page)),
  );
  // The thread itself, in the file: its row opens the file at its lines; the thread offers Reopen (resolved).
  const thread = await page
    .locator('.part.sidebar .monaco-list-row[aria-level="3"]', { hasText: 'Review:' })
    .first()
    .click({ timeout: 10_000 })
    .then(() => page.keyboard.press('ArrowRight'))
    .then(() => page.locator('.part.sidebar .monaco-list-row[aria-level="4"]', { hasText: COMMENT }).first().click({ timeout: 20_000 }))
    .then(() => palette(page, 'Comments: Expand All Comments'))
    .then(() =>
      until(
        page,
        'the thread in the file',
        async () => {
          const w = page.locator('.review-widget', { hasText: COMMENT }).first();
          return (await w.count()) && (await w.locator('.head .action-label[aria-label^="Reopen"]').count()) ? w : undefined;
        },
        30_000,
      ),
    )
    .catch(() => undefined);
  check('the resolved thread is back on its line of hello.ts (it offers Reopen)', !!thread, show(await tree(page)));
  await page.screenshot({ path: path.join(shots, 'reload-features-after.png') });
  rc = results.every((r) => r.ok) ? 0 : 1;
} catch (e) {
  console.error('[reload-features] error:', e);
  for (const p of browser?.contexts().flatMap((c) => c.pages()) ?? [])
    await p.screenshot({ path: path.join(shots, 'FAILED-reload-features.png') }).catch(() => {});
  results.push({ name: 'ran to the end', ok: false });
  if (server && !verbose) console.error(server.output().slice(-3000));
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
  profile.cleanup();
}
console.log(`${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length} failed`);
process.exit(rc);
