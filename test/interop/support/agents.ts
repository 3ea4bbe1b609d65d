// How to launch each real agent offline against the fake model server: command, arguments and a
// clean environment (fresh temp HOME and config dirs, telemetry and nonessential traffic off,
// no inherited proxy or API variables). Recipes from shared/acp/REAL-AGENTS.md.
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** test/interop, found from the bundle (out/interop/…) or the source tree. */
export function interopDir(): string {
  const fromEnv = process.env.ACP_INTEROP_DIR;
  if (fromEnv) return fromEnv;
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'test', 'interop');
    try { statSync(path.join(candidate, 'package.json')); return candidate; } catch { /* up */ }
    dir = path.dirname(dir);
  }
  throw new Error('cannot find test/interop (set ACP_INTEROP_DIR)');
}

export const modulesDir = (): string => path.join(interopDir(), 'node_modules');

export type AgentName = 'codex-acp' | 'claude-code-acp' | 'claude-agent-acp' | 'sdk-example' | 'sdk-dual' | 'v2-test-agent';

export interface Launch {
  name: AgentName;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The process cwd (the session cwd for the SDK examples). */
  cwd: string;
  /** Temp dirs to remove after the run. */
  cleanup(): void;
}

/** A fresh, empty temp dir. */
export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `acp-interop-${prefix}-`));
}

function baseEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    USER: process.env.USER ?? 'interop',
    LANG: 'C.UTF-8',
    TMPDIR: os.tmpdir(),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    NO_COLOR: '1',
  };
}

const toml = (s: string) => JSON.stringify(s);

function codex(modelUrl: string, cwd: string): Launch {
  const home = tempDir('codex-home');
  const codexHome = path.join(home, '.codex');
  mkdirSync(codexHome);
  const overrides: [string, string][] = [
    ['model', toml('gpt-5.4-mini')],
    ['model_provider', toml('fake')],
    ['approval_policy', toml('untrusted')],
    ['sandbox_mode', toml('danger-full-access')],
    ['model_providers.fake.name', toml('fake')],
    ['model_providers.fake.base_url', toml(`${modelUrl}/v1`)],
    ['model_providers.fake.wire_api', toml('responses')],
    ['model_providers.fake.env_key', toml('FAKE_API_KEY')],
    ['model_providers.fake.requires_openai_auth', 'false'],
  ];
  return {
    name: 'codex-acp',
    command: path.join(modulesDir(), '@zed-industries', 'codex-acp-linux-x64', 'bin', 'codex-acp'),
    args: overrides.flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    env: { ...baseEnv(home), CODEX_HOME: codexHome, FAKE_API_KEY: 'dummy', RUST_LOG: 'error' },
    cwd,
    cleanup: () => rmSync(home, { recursive: true, force: true, maxRetries: 5 }),
  };
}

function claude(name: 'claude-code-acp' | 'claude-agent-acp', modelUrl: string, cwd: string): Launch {
  const home = tempDir(`${name}-home`);
  const configDir = path.join(home, '.claude');
  mkdirSync(configDir);
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(home),
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CONFIG_DIR: configDir,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
  // As root the CLI refuses to skip its sandbox checks unless told it runs in one; any other
  // value than "1" makes session/new fail with "Query closed before response received".
  if (process.getuid?.() === 0) env.IS_SANDBOX = '1';
  return {
    name,
    command: process.execPath,
    args: [path.join(modulesDir(), '@zed-industries', name, 'dist', 'index.js')],
    env,
    cwd,
    cleanup: () => rmSync(home, { recursive: true, force: true, maxRetries: 5 }),
  };
}

function nodeScript(name: AgentName, script: string, cwd: string): Launch {
  const home = tempDir(`${name}-home`);
  return { name, command: process.execPath, args: [script], env: baseEnv(home), cwd, cleanup: () => rmSync(home, { recursive: true, force: true, maxRetries: 5 }) };
}

/** Launch recipe for one agent. `modelUrl` is ignored by the model-free agents. */
export function launchOf(name: AgentName, modelUrl: string, cwd: string): Launch {
  switch (name) {
    case 'codex-acp': return codex(modelUrl, cwd);
    case 'claude-code-acp':
    case 'claude-agent-acp': return claude(name, modelUrl, cwd);
    case 'sdk-example': return nodeScript(name, path.join(modulesDir(), 'acp-sdk-v1', 'dist', 'examples', 'agent.js'), cwd);
    case 'sdk-dual': return nodeScript(name, path.join(modulesDir(), 'acp-sdk-v1', 'dist', 'examples', 'dual-version-agent.js'), cwd);
    case 'v2-test-agent': return nodeScript(name, path.join(interopDir(), 'agents', 'v2-test-agent.mjs'), cwd);
  }
}
