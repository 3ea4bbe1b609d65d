#!/usr/bin/env node
// Activation with a stored history, in the real VS Code (code-server + Chromium, as the
// integration tests run it): starts the test VS Code once on a fresh profile and folder so that
// it creates the folder's workspace storage, stops it, fills the extension's history there with
// the real history writer (bench/src/makeHistory.ts: 50 sessions, 20,000 records of real decoded
// events), starts it again on the same profile and address, opens the ACP view, and reads the
// `activated in N ms` line the extension logs (the same figure `activationMs` reports). Checks
// that the Plans tree shows the stored sessions.
// (The first start runs the Demo Agent only to find the storage folder; its history is deleted.) Writes bench/out/activation-history.json, which
// `npm run bench` prints and judges. Uses the extension in dist/ as built (`node esbuild.mjs`).
//   node bench/activation-history.mjs [--sessions 50] [--items 20000]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBench } from './lib/build.mjs';
import { generateStream } from './lib/generate.mjs';
import { ROOT, ensureInstalled, makeProfile, startCodeServer, launchChromium, workbenchUrl } from '../test/harness/lib/code-server.mjs';
import { filesUnder, openAcp, startDemoAgent } from '../test/harness/lib/workbench.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(BENCH, 'out');
const arg = (n, d) => { const i = process.argv.indexOf(`--${n}`); return i === -1 ? d : process.argv[i + 1]; };
const SESSIONS = Number(arg('sessions', 50));
const ITEMS = Number(arg('items', 20_000));
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
const activationLines = (base) => filesUnder(base).filter((f) => /ACP\.log$/.test(f))
  .flatMap((f) => readFileSync(f, 'utf8').split('\n')).map((l) => /activated in ([\d.]+) ms/.exec(l)?.[1]).filter(Boolean).map(Number);

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
  const index = await until('the workspace storage', () => filesUnder(profile.base).find((f) => f.endsWith(`${path.sep}${EXT_DIR}${path.sep}history${path.sep}index.json`)));
  const historyDir = path.dirname(index);
  // For comparison, in the same conditions: the activation of that first start (no history yet).
  const emptyMs = activationLines(profile.base)[0];
  await browser.close();
  await server.stop();
  rmSync(historyDir, { recursive: true, force: true }); // the Demo Agent's session: not part of the measure
  const port = server.port;

  // 2. The stored history, written by the real history writer.
  const made = spawnSync(process.execPath, [bundles['make-history'], historyDir, stream, String(SESSIONS), String(ITEMS)], { encoding: 'utf8' });
  const history = JSON.parse(made.stdout.trim().split('\n').pop() ?? '{}');
  if (history.error || history.sessions !== SESSIONS) throw new Error(`history not written: ${history.error ?? made.stderr}`);
  const storedBytes = filesUnder(historyDir).reduce((n, f) => n + statSync(f).size, 0);
  // Records appended; the lines on disk are fewer where a batch joined a message's chunks.
  const storedLines = filesUnder(historyDir).filter((f) => f.endsWith('.jsonl')).reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').filter(Boolean).length, 0);
  console.log(`stored: ${history.sessions} sessions, ${history.items} records (${storedLines} lines), ${storedBytes} bytes in ${historyDir}`);

  // 3. The same profile and address again: the extension activates on that storage.
  const before = activationLines(profile.base).length;
  server = await startCodeServer({ profile, folder, port });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url(server));
  await openAcp(page);
  const ms = await until('the activation line', () => activationLines(profile.base)[before]);
  const rows = await until('the stored sessions in the tree', async () => {
    const r = await page.locator('.part.sidebar .monaco-list-row').allInnerTexts();
    return r.some((x) => x.includes('Stored session')) ? r : undefined;
  });
  const shot = path.join(ROOT, 'out', 'screenshots', 'bench-activation-history.png');
  mkdirSync(path.dirname(shot), { recursive: true });
  await page.screenshot({ path: shot });
  const result = {
    activationMs: ms, activationMsWithoutHistory: emptyMs ?? null, loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100), sessions: history.sessions, items: history.items, storedLines, storedBytes,
    source: 'bench/activation-history.mjs, code-server', at: new Date().toISOString(), treeRows: rows.length, screenshot: path.relative(ROOT, shot),
  };
  writeFileSync(path.join(OUT, 'activation-history.json'), JSON.stringify(result));
  console.log(`without history (first start): activated in ${emptyMs} ms`);
  console.log(`activated in ${ms} ms with ${history.sessions} stored sessions / ${history.items} items; tree rows shown: ${rows.length}`);
  console.log(JSON.stringify(result));
  rc = 0;
} catch (e) {
  console.error('[activation-history] error:', e);
  if (server) console.error(server.output().slice(-3000));
} finally {
  await browser?.close().catch(() => {});
  await server?.stop();
  try { profile.cleanup(); } catch { /* the host may still be writing as it stops */ }
}
process.exit(rc);
