#!/usr/bin/env node
// `npm test`: run the mocha suite in out/test/suite inside a REAL VS Code extension host
// (code-server's server-side Node extension host), driven headless by Debian's Chromium.
//
// Env: VSCODE_TEST_DIR (install dir, default ./.vscode-test), TEST_TIMEOUT_MS (default 600000),
//      VERBOSE=1 (server log + workbench log + browser console), SCREENSHOT_DIR (default out/screenshots),
//      MOCHA_GREP (run only matching tests), VSCODE_SKIP_BUILTIN_EXTENSIONS (see test/harness/lib/code-server.mjs),
//      ACP_WIRE_RECORD_DIR (keep the wire recordings there instead of a removed temp dir).
// Exit code: 0 when all tests passed and every message the extension sent to an agent validates
// against the official schema of its negotiated version (ACP_WIRE_RECORD_DIR, a fresh temp dir,
// makes the extension host record its wire traffic; checked by lib/outbound-recordings.mjs after
// the run). Last line: "N passed, N failed".
import { mkdirSync, mkdtempSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { format } from 'node:util';
import { createServer } from 'node:http';
import { ROOT, ensureInstalled, makeProfile, startCodeServer, launchChromium, workbenchUrl } from './lib/code-server.mjs';
import { checkRecordingDir, formatReport } from './lib/outbound-recordings.mjs';
import { installWatch, readWatch } from './lib/watch.mjs';
import { installLanguagePack } from './lib/languagePack.mjs';

const t0 = Date.now();
const since = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const verbose = !!process.env.VERBOSE;
const timeoutMs = Number(process.env.TEST_TIMEOUT_MS ?? 600_000);
const extensionDevelopmentPath = ROOT;
const extensionTestsPath = path.join(ROOT, process.env.ACP_TEST_OUT ?? 'out/test', 'integration/index.js');
if (!existsSync(extensionTestsPath)) {
  console.error(`missing ${extensionTestsPath}: run the build first`);
  process.exit(2);
}

ensureInstalled();
// HARNESS_UNTRUSTED=1: workspace trust on and the folder not trusted (restricted mode).
const untrusted = !!process.env.HARNESS_UNTRUSTED;
const profile = makeProfile({}, { untrusted });
// HARNESS_LOCALE=de: a German language pack installed from a VSIX and chosen as the display language.
if (process.env.HARNESS_LOCALE) installLanguagePack(profile, process.env.HARNESS_LOCALE);
// Another extension, installed in the profile the way a user's extensions are, that uses only our
// public API (test/integration/api.test.ts).
cpSync(path.join(ROOT, 'test/fixtures/api-consumer'), path.join(profile.extensions, 'acp-plans-tests.api-consumer-0.0.1'), { recursive: true });
const folder = path.join(profile.base, 'workspace');
mkdirSync(folder, { recursive: true });
const fixtures = path.join(ROOT, 'test/fixtures/workspace');
if (existsSync(fixtures)) cpSync(fixtures, folder, { recursive: true });

const shotDir = path.resolve(process.env.SCREENSHOT_DIR ?? path.join(ROOT, 'out/screenshots'));
let server,
  browser,
  page,
  exitCode = 1,
  summary,
  summaryLine,
  axeSource;

/** The workbench's last log lines (the /log route: a test checks what the workbench said, e.g. a dialog it refused to show in tests). */
const workbenchLog = [];

/** The webview watches asked for so far, by key (installed again in every webview frame that loads). */
const webviewWatches = new Map();

/** The frames a /watch route works in: the workbench, or with webview=1 its webviews' frames. */
const watchFrames = (u) => (u.searchParams.get('webview') ? page.frames().filter((f) => f !== page.mainFrame()) : [page.mainFrame()]);

// UI hook for the tests (test/integration/ui.ts): screenshots and DOM text of the real workbench.
const hook = createServer(async (req, res) => {
  const u = new URL(req.url, 'http://127.0.0.1');
  res.setHeader('content-type', 'application/json');
  try {
    if (!page) throw new Error('page not ready');
    if (u.pathname === '/screenshot') {
      mkdirSync(shotDir, { recursive: true });
      const file = path.join(shotDir, `${(u.searchParams.get('name') || 'screenshot').replace(/[^\w.-]+/g, '_')}.png`);
      await page.mouse.move(1, 700); // no hover tooltips in the picture
      await page.screenshot({ path: file });
      res.end(JSON.stringify({ file }));
    } else if (u.pathname === '/texts') {
      res.end(JSON.stringify({ texts: await page.locator(u.searchParams.get('selector')).allInnerTexts() }));
    } else if (u.pathname === '/press') {
      // Presses keys in the workbench, one chord part after the other (Playwright names: "Control+Quote P").
      for (const part of u.searchParams.get('keys').split(' ')) await page.keyboard.press(part);
      res.end(JSON.stringify({ pressed: true }));
    } else if (u.pathname === '/type') {
      await page.keyboard.type(u.searchParams.get('text'));
      res.end(JSON.stringify({ typed: true }));
    } else if (u.pathname === '/attrs') {
      // An attribute of every element matching the selector, in the workbench (or, with webview=1, in its webviews' frames).
      const sel = u.searchParams.get('selector');
      const name = u.searchParams.get('name');
      const frames = u.searchParams.get('webview') ? page.frames().filter((f) => f !== page.mainFrame()) : [page.mainFrame()];
      const values = [];
      for (const frame of frames)
        values.push(
          ...(await frame
            .locator(sel)
            .evaluateAll((els, n) => els.map((el) => el.getAttribute(n)), name)
            .catch(() => [])),
        );
      res.end(JSON.stringify({ values }));
    } else if (u.pathname === '/webview-texts') {
      // Webviews live in nested iframes; read the selector in every frame but the workbench's.
      const texts = [];
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        texts.push(
          ...(await frame
            .locator(u.searchParams.get('selector'))
            .allInnerTexts()
            .catch(() => [])),
        );
      }
      res.end(JSON.stringify({ texts }));
    } else if (u.pathname === '/viewport') {
      // Resizes the browser window's page (the workbench relayouts as a resized window does).
      await page.setViewportSize({ width: Number(u.searchParams.get('width')), height: Number(u.searchParams.get('height')) });
      res.end(JSON.stringify({ viewport: page.viewportSize() }));
    } else if (u.pathname === '/webview-rects') {
      // Per webview frame: the bounding rect of every element matching the selector, the rect of the
      // first element matching `within` (the scrolling area), and the frame's own viewport height.
      const sel = u.searchParams.get('selector');
      const within = u.searchParams.get('within') ?? 'body';
      const frames = [];
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        const got = await frame
          .evaluate(
            ([s, w]) => {
              const box = (el) => {
                const r = el.getBoundingClientRect();
                return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height };
              };
              const els = [...document.querySelectorAll(s)];
              const area = document.querySelector(w);
              return els.length ? { rects: els.map(box), area: area ? box(area) : null, innerHeight: window.innerHeight, innerWidth: window.innerWidth } : null;
            },
            [sel, within],
          )
          .catch(() => null);
        if (got) frames.push(got);
      }
      res.end(JSON.stringify({ frames }));
    } else if (u.pathname === '/axe') {
      // axe-core's audit of every webview frame that has `selector`. axe is evaluated in the frame
      // by the driver (the webview's CSP allows no script but its own; axe is a devDependency only).
      const sel = u.searchParams.get('selector');
      axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
      const audits = [];
      for (const frame of page.frames()) {
        if (
          frame === page.mainFrame() ||
          !(await frame
            .locator(sel)
            .count()
            .catch(() => 0))
        )
          continue;
        await frame.evaluate(axeSource);
        audits.push(
          await frame.evaluate(async () => {
            const r = await globalThis.axe.run(document, { resultTypes: ['violations'] });
            return {
              url: location.pathname,
              violations: r.violations.map((v) => ({
                id: v.id,
                impact: v.impact,
                help: v.help,
                nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
              })),
            };
          }),
        );
      }
      res.end(JSON.stringify({ audits }));
    } else if (u.pathname === '/webview-click') {
      // Clicks the first element matching the selector (optionally with text) inside a webview frame.
      const sel = u.searchParams.get('selector');
      const hasText = u.searchParams.get('text') ?? undefined;
      let clicked = false;
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        const loc = frame.locator(sel, hasText ? { hasText } : undefined).first();
        if (await loc.count().catch(() => 0)) {
          await loc.click();
          clicked = true;
          break;
        }
      }
      res.end(JSON.stringify({ clicked }));
    } else if (u.pathname === '/webview-wheel') {
      // Turns the mouse wheel over the first element matching the selector in a webview frame, as a
      // person would (the pointer moves there, then the wheel sends its real input events).
      const sel = u.searchParams.get('selector');
      let box = null;
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        const loc = frame.locator(sel).first();
        // Only where it is (a locator waits for an element that is not there).
        if (!(await loc.count().catch(() => 0))) continue;
        box = await loc.boundingBox().catch(() => null);
        if (box) break;
      }
      if (box) {
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.wheel(0, Number(u.searchParams.get('dy') ?? 0));
      }
      res.end(JSON.stringify({ wheeled: !!box }));
    } else if (u.pathname === '/busy') {
      // Keeps the workbench's main thread busy `ms` of every `every` ms (ms=0: stops), as other views
      // working in the same window would; the webviews of the page's process share that thread.
      const ms = Number(u.searchParams.get('ms') ?? 0);
      const every = Number(u.searchParams.get('every') ?? 100);
      await page.evaluate(
        ([busy, period]) => {
          clearInterval(globalThis.harnessBusy);
          if (busy > 0)
            globalThis.harnessBusy = setInterval(() => {
              for (const end = performance.now() + busy; performance.now() < end;);
            }, period);
        },
        [ms, every],
      );
      res.end(JSON.stringify({ busy: ms, every }));
    } else if (u.pathname === '/watch') {
      // Starts noting when each value of `pattern` first appears under `root` (lib/watch.mjs).
      // With webview=1, in every webview frame instead of the workbench.
      const args = { root: u.searchParams.get('root'), pattern: u.searchParams.get('pattern'), key: u.searchParams.get('key') };
      // A webview's frames can be replaced (VS Code makes a new one when a view is resolved again):
      // webview watches are installed in frames that load later too.
      if (u.searchParams.get('webview')) webviewWatches.set(args.key, args);
      for (const frame of watchFrames(u)) await frame.evaluate(installWatch, args).catch(() => undefined);
      res.end(JSON.stringify({ watching: true }));
    } else if (u.pathname === '/watched') {
      const seen = [];
      for (const frame of watchFrames(u)) seen.push(...(await frame.evaluate(readWatch, u.searchParams.get('key')).catch(() => [])));
      res.end(JSON.stringify({ seen }));
    } else if (u.pathname === '/trace') {
      // A Chrome trace of the page (diagnosis of the benches): start=1, then stop=<file>.
      if (u.searchParams.get('start'))
        await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'v8.execute', 'blink', 'disabled-by-default-devtools.timeline'] });
      else writeFileSync(u.searchParams.get('stop'), await browser.stopTracing());
      res.end(JSON.stringify({ traced: true }));
    } else if (u.pathname === '/log') {
      const re = new RegExp(u.searchParams.get('pattern') ?? '');
      res.end(JSON.stringify({ lines: workbenchLog.filter((l) => re.test(l)) }));
    } else if (u.pathname === '/click') {
      const sel = u.searchParams.get('selector');
      const hasText = u.searchParams.get('text') ?? undefined;
      await page
        .locator(sel, hasText ? { hasText } : undefined)
        .first()
        .click({ timeout: 10_000 });
      res.end(JSON.stringify({ clicked: true }));
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: 'unknown route' }));
    }
  } catch (e) {
    res.statusCode = 500;
    res.end(JSON.stringify({ error: String(e?.message ?? e) }));
  }
});
await new Promise((r) => hook.listen(0, '127.0.0.1', r));
// The server-side extension host inherits code-server's environment.
process.env.ACP_PLANS_TEST_HOOKS = '1'; // the extension hands its tests the internals (extension mode Test only)
process.env.VSCODE_TEST_UI_HOOK = `http://127.0.0.1:${hook.address().port}`;
// Wire recordings: a fresh temp dir (removed when valid), or ACP_WIRE_RECORD_DIR if given (kept).
const keepWire = !!process.env.ACP_WIRE_RECORD_DIR;
const wireDir = process.env.ACP_WIRE_RECORD_DIR || mkdtempSync(path.join(tmpdir(), 'acp-wire-'));
// Not under a benchmark (ACP_BENCH): writing every message synchronously would be part of what it measures.
const bench = !!process.env.ACP_BENCH;
if (bench) delete process.env.ACP_WIRE_RECORD_DIR;
else process.env.ACP_WIRE_RECORD_DIR = wireDir;
const wireSince = Date.now();

try {
  server = await startCodeServer({ profile, folder, verbose, untrusted });
  console.log(`[harness] code-server up on ${server.url} after ${since()}`);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) for (const args of webviewWatches.values()) frame.evaluate(installWatch, args).catch(() => undefined);
  });

  const MARK = '\u2063[test] ';
  const other = []; // workbench log lines that are not test output: shown with VERBOSE=1 or on failure
  let resolveDone;
  const done = new Promise((resolve) => {
    resolveDone = resolve;
  });
  // VS Code's web workbench calls these when it finds them on window (as @vscode/test-web does):
  // every workbench log line (incl. forwarded extension host console output) and the ext host exit code.
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = format(...args);
    workbenchLog.push(text);
    if (workbenchLog.length > 5000) workbenchLog.splice(0, 1000);
    if (text.startsWith(MARK)) {
      const line = text.slice(MARK.length);
      if (line.startsWith('SUMMARY ')) summary = JSON.parse(line.slice(8));
      else console.log(line);
    } else if (verbose) {
      console.log(`[workbench:${type}] ${text}`);
    } else {
      other.push(`[workbench:${type}] ${text}`);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code) => resolveDone(code));
  page.on('crash', () => {
    console.error('[harness] browser page crashed');
    resolveDone(1);
  });
  if (verbose) page.on('console', (m) => console.log(`[browser:${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => console.error(`[browser:pageerror] ${e.message}`));

  const url = workbenchUrl({ url: server.url, port: server.port, folder, extensionDevelopmentPath, extensionTestsPath });
  if (verbose) console.log(`[harness] opening ${url}`);
  await page.goto(url);
  const timer = new Promise((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
  const result = await Promise.race([done, timer]);
  if (result === 'timeout') {
    console.error(`[harness] no result after ${timeoutMs} ms (TEST_TIMEOUT_MS)`);
    mkdirSync(shotDir, { recursive: true });
    const shot = path.join(shotDir, 'TIMEOUT.png');
    await page.screenshot({ path: shot }).then(
      () => console.error(`[harness] screenshot: ${shot}`),
      () => {},
    );
    exitCode = 1;
  } else {
    exitCode = Number(result);
  }
  if (exitCode !== 0 && !verbose && (result === 'timeout' || !summary)) {
    // Nothing (or not everything) came from mocha: show what the workbench and server said.
    console.error(`[harness] last workbench log lines:\n${other.slice(-40).join('\n')}`);
    console.error(`[harness] code-server output:\n${server.output().slice(-4000)}`);
  }
  console.log(`[harness] extension host exited with code ${exitCode} after ${since()}`);
  if (summary) summaryLine = `${summary.passes} passed, ${summary.failures} failed` + (summary.pending ? `, ${summary.pending} skipped` : '');
  else if (exitCode === 0) {
    console.error('[harness] no test summary received');
    exitCode = 1;
  }
} catch (e) {
  console.error('[harness] error:', e);
  exitCode = 1;
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
  hook.close();
  profile.cleanup();
}
// After the extension host is gone: every message it sent, checked against the official schemas.
if (bench) {
  console.log('[harness] benchmark run: the wire was not recorded');
  if (!keepWire) rmSync(wireDir, { recursive: true, force: true });
} else
  try {
    const report = checkRecordingDir(wireDir, { schemasDir: path.join(ROOT, 'test/fixtures/schemas'), since: keepWire ? wireSince : undefined });
    for (const line of formatReport(report, '[harness]')) console.log(line);
    if (report.failures.length) exitCode = 1;
    if (report.failures.length || keepWire) console.log(`[harness] recordings kept in ${wireDir}`);
    else rmSync(wireDir, { recursive: true, force: true });
  } catch (e) {
    console.error('[harness] outbound check failed:', e);
    exitCode = 1;
  }
if (summaryLine) console.log(summaryLine);
process.exit(exitCode);
