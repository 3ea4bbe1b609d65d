// Loaded by VS Code's extension host (extensionTestsPath). It must export run(): Promise<void>.
// A rejected promise makes the extension host exit with code 1, which the outer runner
// (test/harness/run-vscode-tests.mjs) receives through window.codeAutomationExit in the browser.
//
// Reporter output travels: ext host console -> workbench log service -> window.codeAutomationLog
// -> the outer runner's stdout. Lines are tagged with MARK so the runner can separate them from
// the workbench's own log noise.
import * as fs from 'fs';
import * as path from 'path';
import { format } from 'util';
import Mocha from 'mocha';
import { hasUiHook, screenshot } from './ui';

const MARK = '\u2063[test] ';

type ConsoleMethod = 'log' | 'info' | 'warn' | 'error' | 'debug';
const METHODS: ConsoleMethod[] = ['log', 'info', 'warn', 'error', 'debug'];

export async function run(): Promise<void> {
  // While tests run, tag everything the extension host prints (reporter, tests, the extension itself).
  // VS Code installs console.* as accessor properties whose setter ignores writes, so a plain
  // assignment does nothing: redefine the properties, and put the originals back afterwards.
  const saved = METHODS.map((m) => [m, Object.getOwnPropertyDescriptor(console, m)] as const);
  for (const m of METHODS) {
    const forward = console[m].bind(console);
    const tagged = (...args: unknown[]) => forward(MARK + format(...args));
    Object.defineProperty(console, m, { configurable: true, enumerable: true, get: () => tagged, set: () => {} });
  }
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(...args);
  try {
    await runMocha();
  } finally {
    for (const [m, d] of saved) if (d) Object.defineProperty(console, m, d);
  }
}

async function runMocha(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    reporter: 'spec',
    timeout: Number(process.env.MOCHA_TIMEOUT ?? 20000),
    grep: process.env.MOCHA_GREP || undefined,
  });
  // Screenshot of the real UI when a test fails (before the extension host goes away).
  mocha.suite.afterEach(async function () {
    const t = this.currentTest;
    if (t?.state === 'failed' && hasUiHook()) {
      const file = await screenshot(`FAILED-${t.fullTitle()}`).catch((e) => `(screenshot failed: ${e})`);
      console.log(`      screenshot: ${file}`);
    }
  });
  // Benchmarks (`*.bench.js`) run only when asked for (bench/vscode.mjs sets ACP_BENCH=1).
  const suffix = process.env.ACP_BENCH ? '.bench.js' : '.test.js';
  for (const f of fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith(suffix))
    .sort()) {
    mocha.addFile(path.join(__dirname, f));
  }
  const stats = await new Promise<Mocha.Stats>((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats!));
  });
  // One machine-readable line for the outer runner (it prints "N passed, N failed").
  console.log('SUMMARY ' + JSON.stringify({ passes: stats.passes, failures: stats.failures, pending: stats.pending }));
  if (stats.failures > 0) throw new Error(`${stats.failures} test(s) failed.`);
}
