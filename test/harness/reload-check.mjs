#!/usr/bin/env node
// History across reloads, as a person sees it in the real VS Code (no test code in the extension
// host, which a reload would end): a Demo Agent turn; "Developer: Reload Window" from the command
// palette; the same session and plan rows, the status bar and the conversation come back (the
// agent not running); "ACP: Resume Session…" re-attaches, a new turn appends and nothing is
// duplicated; then the whole test VS Code is stopped and started again on the same profile and the
// rows are still there. Prints `N passed, N failed`.
import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT, ensureInstalled, makeProfile, startCodeServer, launchChromium, workbenchUrl } from './lib/code-server.mjs';
import { count, filesUnder, openAcp, palette, promptBox, rows, startDemoAgent, status, until, webviewText } from './lib/workbench.mjs';

const verbose = !!process.env.VERBOSE;
const shots = path.join(ROOT, 'out/screenshots');
mkdirSync(shots, { recursive: true });
ensureInstalled();
const profile = makeProfile({ 'acp.demo.stepDelayMs': 0 });
const folder = path.join(profile.base, 'workspace');
mkdirSync(folder, { recursive: true });

const results = [];
const check = (name, ok, detail = '') => {
  results.push({ name, ok });
  console.log(`  ${ok ? '✔' : '✘'} ${name}${ok ? '' : `\n      ${detail}`}`);
};

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
/** Session and plan rows (the agent's own row says whether it runs, which a reload changes). */
const sessionRows = (all) => all.filter((r) => !r.startsWith('Demo Agent')).map((r) => r.replace(/\s+/g, ' ').trim());
/** The session log written last (the extension's workspace storage). */
const newestLog = (base) =>
  filesUnder(base)
    .filter((f) => f.includes(`${path.sep}history${path.sep}sessions${path.sep}`) && f.endsWith('.jsonl'))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
/** How many lines of the ACP log channel (its files on disk) mention `text`. */
const logMentions = (base, text) =>
  filesUnder(base)
    .filter((f) => /ACP\.log$/.test(f))
    .reduce(
      (n, f) =>
        n +
        readFileSync(f, 'utf8')
          .split('\n')
          .filter((l) => l.includes(text)).length,
      0,
    );

let server,
  browser,
  rc = 1;
try {
  const url = (s) => workbenchUrl({ url: s.url, port: s.port, folder, extensionDevelopmentPath: ROOT });
  server = await startCodeServer({ profile, folder, verbose });
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url(server));
  await openAcp(page);
  await startDemoAgent(page);
  await turn(page, 'Add a farewell function');
  await until(page, 'the plans', async () => (await rows(page)).length >= 4);
  const before = sessionRows(await rows(page));
  const statusBefore = await status(page);
  const convBefore = await webviewText(page);
  await page.waitForTimeout(1200); // the history is appended every 500 ms; a reload also flushes it

  console.log('Reload Window (command palette)');
  await Promise.all([
    page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: 60_000 }),
    palette(page, 'Developer: Reload Window'),
  ]);
  await page.waitForLoadState('load');
  await openAcp(page);
  let seen = [];
  const after = await until(
    page,
    'the restored rows',
    async () => {
      seen = sessionRows(await rows(page));
      return seen.length >= before.length ? seen : undefined;
    },
    60_000,
  ).catch(() => seen); // the rows last seen, to say what differs
  check(
    'the same session and plan rows after the reload',
    JSON.stringify(after) === JSON.stringify(before),
    `before ${JSON.stringify(before)}\n      after  ${JSON.stringify(after)}`,
  );
  const agentRow = (await rows(page)).find((r) => r.startsWith('Demo Agent')) ?? '';
  check('the agent is shown, not running', /stopped/.test(agentRow), agentRow);
  const statusAfter = await until(page, 'the status bar', async () => (await status(page)) || undefined, 20_000).catch(() => '');
  check(
    "the status bar shows the session's last progress",
    statusAfter === statusBefore && statusBefore !== '',
    `before "${statusBefore}", after "${statusAfter}"`,
  );
  const convAfter = await until(
    page,
    'the conversation',
    async () => {
      const t = await webviewText(page);
      return t.includes('Add a farewell function') ? t : undefined;
    },
    20_000,
  ).catch(() => '');
  check(
    'the conversation scrolls back',
    convAfter.includes('Add a farewell function') && count(convAfter, 'Add a farewell function') === count(convBefore, 'Add a farewell function'),
    convAfter.slice(0, 400),
  );
  await page.screenshot({ path: path.join(shots, 'reload-restored.png') });

  console.log('Resume Session… and a new turn');
  await palette(page, 'ACP: Resume Session');
  await until(page, 'the agent running again', async () => (await rows(page)).some((r) => r.startsWith('Demo Agent') && r.includes('running')));
  await turn(page, 'Add a farewell function');
  const convResumed = await webviewText(page);
  const shown = count(convResumed, 'Add a farewell function');
  // Before: the title and the first prompt; now one more prompt, and no replayed copy of the first.
  const was = count(convBefore, 'Add a farewell function');
  check('the new turn appends, nothing duplicated', shown === was + 1, `shown ${shown} times (before the reload: ${was})`);
  await page.waitForTimeout(1200); // the tree settles; the history is appended
  const resumedRows = sessionRows(await rows(page));

  console.log('Stop and start the test VS Code on the same profile');
  await browser.close();
  await server.stop();
  const previous = server;
  // The same address: VS Code keys a remote workspace's storage by its authority (host and port), as a real install keeps it.
  server = await startCodeServer({ profile, folder, verbose, port: previous.port });
  browser = await launchChromium();
  const page2 = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page2.goto(url(server));
  await openAcp(page2);
  const restarted = await until(
    page2,
    'the restored rows',
    async () => {
      const r = sessionRows(await rows(page2));
      return r.length >= resumedRows.length ? r : undefined;
    },
    60_000,
  ).catch(() => []);
  check(
    'the same rows after a full restart',
    JSON.stringify(restarted) === JSON.stringify(resumedRows),
    `before ${JSON.stringify(resumedRows)}\n      after  ${JSON.stringify(restarted)}`,
  );
  await page2.screenshot({ path: path.join(shots, 'reload-restarted.png') });

  console.log('The extension host killed (SIGKILL) during a 10,000-update burst');
  await palette(page2, 'ACP: Resume Session');
  await until(page2, 'the agent running again', async () => (await rows(page2)).some((r) => r.startsWith('Demo Agent') && r.includes('running')));
  const { box } = await promptBox(page2);
  await box.fill('/burst 10000');
  await box.press('Enter');
  await until(page2, 'the burst plan', async () => (await rows(page2)).some((r) => r.startsWith('burst')));
  await page2.waitForTimeout(1200); // some of the burst reaches the history
  const hostPid = Number([...server.output().matchAll(/<(\d+)> Launched Extension Host Process/g)].pop()?.[1]);
  process.kill(hostPid, 'SIGKILL');
  // A kill in the middle of an append leaves the last record cut short: make that certain.
  const log = newestLog(profile.base);
  appendFileSync(log, '{"t":1,"e":{"sessionId":"cut","kind":"plan_upd');
  await page2.goto(url(server));
  await openAcp(page2);
  const afterKill = await until(
    page2,
    'the restored burst plan',
    async () => {
      const r = await rows(page2);
      return r.some((x) => x.startsWith('burst')) ? r : undefined;
    },
    60_000,
  ).catch(() => []);
  check(
    'after the kill the store loads, with the burst up to its last complete record',
    afterKill.some((x) => /^burst/.test(x)),
    JSON.stringify(afterKill),
  );
  await until(page2, 'the report', async () => logMentions(profile.base, 'cut short') > 0, 20_000).catch(() => undefined);
  await Promise.all([
    page2.waitForEvent('framenavigated', { predicate: (f) => f === page2.mainFrame(), timeout: 60_000 }),
    palette(page2, 'Developer: Reload Window'),
  ]);
  await openAcp(page2);
  await until(page2, 'the rows again', async () => (await rows(page2)).some((x) => x.startsWith('burst')), 60_000).catch(() => undefined);
  const reports = logMentions(profile.base, 'cut short');
  check('the torn record is reported once (and not again on the next load)', reports === 1, `reported ${reports} times`);
  rc = results.every((r) => r.ok) ? 0 : 1;
} catch (e) {
  console.error('[reload-check] error:', e);
  for (const p of browser?.contexts().flatMap((c) => c.pages()) ?? [])
    await p.screenshot({ path: path.join(shots, 'FAILED-reload-check.png') }).catch(() => {});
  results.push({ name: 'ran to the end', ok: false });
  if (server && !verbose) console.error(server.output().slice(-3000));
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
  profile.cleanup();
}
console.log(`${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length} failed`);
process.exit(rc);
