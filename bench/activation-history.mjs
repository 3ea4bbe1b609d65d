#!/usr/bin/env node
// Activation with a stored history, in the real VS Code (code-server + Chromium, as the
// integration tests run it): starts the test VS Code once on a fresh profile and folder so that
// it creates the folder's workspace storage, stops it, fills the extension's history there with
// the real history writer (bench/src/makeHistory.ts: 50 sessions, 20,000 records of real decoded
// events), starts it again on the same profile and address, opens the ACP view, and reads the
// `activated in N ms` line the extension logs (the same figure `activationMs` reports). Checks
// that the Plans tree shows the stored sessions. Restore (issue 17, goal 4): the time from the end of
// activation (the log line's time) to the last change of the Plans tree's rows while the stored
// sessions are replayed, and, for one more stored session of `--long` items, the time from the
// click on its row to the frame that shows its last item in the conversation (first paint), the
// items kept in the webview's DOM (windowed) and the frames while scrolling that window to its top.
// (The first start runs the Demo Agent only to find the storage folder; its history is deleted.) Writes bench/out/activation-history.json, which
// `npm run bench` prints and judges. Uses the extension in dist/ as built (`node esbuild.mjs`).
//   node bench/activation-history.mjs [--sessions 50] [--items 20000] [--long 10000]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBench } from './lib/build.mjs';
import { generateStream } from './lib/generate.mjs';
import { ROOT, ensureInstalled, makeProfile, startCodeServer, launchChromium, workbenchUrl } from '../test/harness/lib/code-server.mjs';
import { filesUnder, openAcp, promptBox, startDemoAgent } from '../test/harness/lib/workbench.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(BENCH, 'out');
const arg = (n, d) => {
  const i = process.argv.indexOf(`--${n}`);
  return i === -1 ? d : process.argv[i + 1];
};
const SESSIONS = Number(arg('sessions', 50));
const ITEMS = Number(arg('items', 20_000));
const LONG = Number(arg('long', 10_000));
const EXT_DIR = 'acp-plans.acp-plans';

if (!existsSync(path.join(ROOT, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run node esbuild.mjs first');
mkdirSync(OUT, { recursive: true });
ensureInstalled();
const bundles = await buildBench();
const stream = path.join(OUT, `history-stream-${ITEMS}.ndjson`);
if (!existsSync(stream)) await generateStream(stream, { count: ITEMS });

const until = async (what, f, ms = 90_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};
/** ACP log lines with their time (the log's local timestamp). */
const logLines = (base) =>
  filesUnder(base)
    .filter((f) => /ACP\.log$/.test(f))
    .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
    .map((l) => /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d+) \[\w+\] (.*)$/.exec(l))
    .filter(Boolean)
    .map((m) => ({ t: new Date(`${m[1]}T${m[2]}`).getTime(), text: m[3] }));
const activationLines = (base) =>
  filesUnder(base)
    .filter((f) => /ACP\.log$/.test(f))
    .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
    .map((l) => /activated in ([\d.]+) ms/.exec(l)?.[1])
    .filter(Boolean)
    .map(Number);

const profile = makeProfile();
const folder = path.join(profile.base, 'workspace');
mkdirSync(folder, { recursive: true });
let server;
let browser;
let rc = 1;
try {
  const url = (s) => workbenchUrl({ url: s.url, port: s.port, folder, extensionDevelopmentPath: ROOT });
  // 1. A first start: the Demo Agent's session makes the extension write its history, which shows
  // where VS Code keeps this folder's workspace storage (keyed by VS Code; a remote folder's key
  // includes the server's address, so the second start uses the same port).
  server = await startCodeServer({ profile, folder });
  browser = await launchChromium();
  let page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url(server));
  await openAcp(page);
  await startDemoAgent(page);
  const index = await until('the workspace storage', () =>
    filesUnder(profile.base).find((f) => f.endsWith(`${path.sep}${EXT_DIR}${path.sep}history${path.sep}index.json`)),
  );
  const historyDir = path.dirname(index);
  // For comparison, in the same conditions: the activation of that first start (no history yet).
  const emptyMs = activationLines(profile.base)[0];
  await browser.close();
  await server.stop();
  rmSync(historyDir, { recursive: true, force: true }); // the Demo Agent's session: not part of the measure
  const port = server.port;

  // 2. The stored history, written by the real history writer.
  const made = spawnSync(process.execPath, [bundles['make-history'], historyDir, stream, String(SESSIONS), String(ITEMS), String(LONG)], { encoding: 'utf8' });
  const history = JSON.parse(made.stdout.trim().split('\n').pop() ?? '{}');
  if (history.error || history.sessions !== SESSIONS + (LONG > 0 ? 1 : 0)) throw new Error(`history not written: ${history.error ?? made.stderr}`);
  const storedBytes = filesUnder(historyDir).reduce((n, f) => n + statSync(f).size, 0);
  // Records appended; the lines on disk are fewer where a batch joined a message's chunks.
  const storedLines = filesUnder(historyDir)
    .filter((f) => f.endsWith('.jsonl'))
    .reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').filter(Boolean).length, 0);
  console.log(`stored: ${history.sessions} sessions, ${history.items} records (${storedLines} lines), ${storedBytes} bytes in ${historyDir}`);

  // 3. The same profile and address again: the extension activates on that storage.
  const before = activationLines(profile.base).length;
  server = await startCodeServer({ profile, folder, port });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // Every change of the Plans tree's rows, with its time (the frame it is painted in).
  await page.addInitScript(() => {
    const changes = [];
    let last = '';
    const sample = () => {
      const text = [...document.querySelectorAll('.part.sidebar .monaco-list-row')].map((r) => r.textContent).join('\n');
      if (text !== last) {
        last = text;
        changes.push({ t: performance.timeOrigin + performance.now(), rows: text ? text.split('\n').length : 0, text });
      }
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
    window.__treeChanges = changes;
    document.addEventListener(
      'mousedown',
      () => {
        window.__lastMouseDown = performance.timeOrigin + performance.now();
      },
      true,
    );
  });
  await page.goto(url(server));
  await openAcp(page);
  const ms = await until('the activation line', () => activationLines(profile.base)[before]);
  const rows = await until('the stored sessions in the tree', async () => {
    const r = await page.locator('.part.sidebar .monaco-list-row').allInnerTexts();
    return r.some((x) => x.includes('Long session')) ? r : undefined;
  });
  // Restore: every stored session replayed (the extension logs it), then the tree's last change.
  const restoredLine = await until('the restore line', () => logLines(profile.base).find((l) => /history: \d+ stored session\(s\) restored in/.test(l.text)));
  const activatedAt = logLines(profile.base).filter((l) => /activated in/.test(l.text))[before]?.t;
  // Then until the tree has not changed for 1 s (a refresh is at most 220 ms late): its last change.
  const changes = await until('the tree at rest', async () => {
    const c = await page.evaluate(() => window.__treeChanges);
    const last = c.at(-1)?.t ?? 0;
    return Date.now() - last >= 1000 ? c : undefined;
  });
  const treeDoneMs = activatedAt && changes.length ? changes.at(-1).t - activatedAt : null;
  const restoreMs = Number(/restored in (\d+) ms/.exec(restoredLine.text)?.[1]);

  // The long session: click its row; the conversation shows its last item.
  let long = null;
  if (LONG > 0) {
    const conv = await promptBox(page);
    await conv.frame.evaluate((needle) => {
      window.__shownAt = null;
      new MutationObserver(() => {
        if (window.__shownAt === null && document.body.textContent.includes(needle))
          requestAnimationFrame(() => {
            window.__shownAt ??= performance.timeOrigin + performance.now();
          });
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    }, `Long session item ${LONG}:`);
    await page.locator('.part.sidebar .monaco-list-row', { hasText: 'Long session' }).first().click();
    const shownAt = await until('the long session in the conversation', () => conv.frame.evaluate(() => window.__shownAt));
    const clickedAt = await page.evaluate(() => window.__lastMouseDown);
    const domItems = await conv.frame.evaluate(() => document.querySelectorAll('.transcript .items > *').length);
    // Scroll the window of items to its top with the wheel, noting the gaps between frames.
    const frames = await conv.frame.evaluate(async () => {
      const el = document.querySelector('.transcript');
      const gaps = [];
      let prev = performance.now();
      let on = true;
      const tick = () => {
        const t = performance.now();
        gaps.push(t - prev);
        prev = t;
        if (on) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      while (el.scrollTop > 0) {
        el.scrollBy({ top: -400 });
        await new Promise((r) => requestAnimationFrame(r));
      }
      on = false;
      gaps.sort((a, b) => a - b);
      return {
        frames: gaps.length,
        p95: gaps[Math.floor(gaps.length * 0.95)] ?? null,
        max: gaps.at(-1) ?? null,
        earlierButton: !!document.querySelector('.show-earlier:not([hidden])'),
      };
    });
    long = { items: LONG, firstPaintMs: shownAt - clickedAt, domItems, scroll: frames };
    console.log(
      `long session (${LONG} items): click → last item painted ${long.firstPaintMs.toFixed(1)} ms; ${domItems} item elements in the webview; scrolling to the top: ${frames.frames} frames, p95 ${frames.p95?.toFixed(1)} ms, max ${frames.max?.toFixed(1)} ms`,
    );
  }
  const shot = path.join(ROOT, 'out', 'screenshots', 'bench-activation-history.png');
  mkdirSync(path.dirname(shot), { recursive: true });
  await page.screenshot({ path: shot });
  const result = {
    activationMs: ms,
    activationMsWithoutHistory: emptyMs ?? null,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    sessions: history.sessions,
    items: history.items,
    storedLines,
    storedBytes,
    source: 'bench/activation-history.mjs, code-server',
    at: new Date().toISOString(),
    treeRows: rows.length,
    screenshot: path.relative(ROOT, shot),
    restoreMs,
    treeDoneMs,
    treeChanges: changes.length,
    long,
  };
  writeFileSync(path.join(OUT, 'activation-history.json'), JSON.stringify(result));
  console.log(`without history (first start): activated in ${emptyMs} ms`);
  console.log(`activated in ${ms} ms with ${history.sessions} stored sessions / ${history.items} items; tree rows shown: ${rows.length}`);
  console.log(`tree changes after activation (ms): ${changes.map((c) => (c.t - activatedAt).toFixed(0)).join(', ')}`);
  if (process.argv.includes('--rows'))
    for (const c of changes) console.log(`tree at ${(c.t - activatedAt).toFixed(0)} ms:\n  ${c.text.split('\n').join('\n  ')}`);
  const firstLine = logLines(profile.base).find((l) => /history: the first stored session .* replayed \d+ ms/.test(l.text));
  if (firstLine)
    console.log(`restore: ${firstLine.text.replace(/^.*history: /, '')} (log line ${(firstLine.t - activatedAt).toFixed(0)} ms after activation ended)`);
  console.log(
    `restore: every stored session replayed ${restoreMs} ms after activation began; the Plans tree's last change ${treeDoneMs?.toFixed(1)} ms after activation ended (${changes.length} changes)`,
  );
  console.log(JSON.stringify(result));
  rc = 0;
} catch (e) {
  console.error('[activation-history] error:', e);
  await browser
    ?.contexts()[0]
    ?.pages()[0]
    ?.screenshot({ path: path.join(ROOT, 'out', 'screenshots', 'FAILED-bench-activation-history.png') })
    .catch(() => {});
  if (server) console.error(server.output().slice(-3000));
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
  try {
    profile.cleanup();
  } catch {
    /* the host may still be writing as it stops */
  }
}
process.exit(rc);
