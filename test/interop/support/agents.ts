// How to launch each real agent offline against the fake model server: command, arguments and a
// clean environment (fresh temp HOME and config dirs, telemetry and nonessential traffic off,
// no inherited proxy or API variables). Recipes from shared/acp/REAL-AGENTS.md.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** test/interop, found from the bundle (out/interop/…) or the source tree. */
export function interopDir(): string {
  const fromEnv = process.env.ACP_INTEROP_DIR;
  if (fromEnv) return fromEnv;
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'test', 'interop');
    try {
      statSync(path.join(candidate, 'package.json'));
      return candidate;
    } catch {
      /* up */
    }
    dir = path.dirname(dir);
  }
  throw new Error('cannot find test/interop (set ACP_INTEROP_DIR)');
}

export const modulesDir = (): string => path.join(interopDir(), 'node_modules');

export type AgentName =
  | 'codex-acp'
  | 'claude-code-acp'
  | 'claude-agent-acp'
  | 'sdk-example'
  | 'sdk-dual'
  | 'v2-test-agent'
  /** The newest adapters (`@agentclientprotocol/*`, both speak v2). */
  | 'codex-acp-2.6'
  | 'claude-agent-acp-0.101';

/** Options of a launch that only some recipes use. */
export interface LaunchOptions {
  /** codex-acp 2.6: the model slug (`gpt-6.x` / `gpt-5.6` run in "code mode", `gpt-5.5` gets classic tools). */
  model?: string;
  /** codex-acp 2.6: more CODEX_CONFIG keys (merged over the recipe's). */
  config?: Record<string, unknown>;
}

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

/**
 * codex-acp 2.6 (`@agentclientprotocol/codex-acp`, a JS adapter over `codex app-server` from
 * `@openai/codex`): no `-c` arguments any more; the configuration comes as JSON in CODEX_CONFIG.
 * `tools.update_plan.enabled` is needed for codex 0.166 to offer a plan tool at all. The
 * config.toml keeps it from checking for updates or resolving outside hosts at start.
 */
function codexNext(modelUrl: string, cwd: string, opts: LaunchOptions): Launch {
  const home = tempDir('codex26-home');
  const codexHome = path.join(home, '.codex');
  mkdirSync(codexHome);
  writeFileSync(
    path.join(codexHome, 'config.toml'),
    ['check_for_update_on_startup = false', '[analytics]', 'enabled = false', '[features]', 'plugins = false', 'apps = false', ''].join('\n'),
  );
  const config = {
    model: opts.model ?? 'gpt-5.5',
    model_provider: 'fake',
    model_providers: { fake: { name: 'fake', base_url: `${modelUrl}/v1`, wire_api: 'responses', env_key: 'FAKE_API_KEY', requires_openai_auth: false } },
    tools: { update_plan: { enabled: true } },
    ...opts.config,
  };
  return {
    name: 'codex-acp-2.6',
    command: process.execPath,
    args: [path.join(modulesDir(), '@agentclientprotocol', 'codex-acp', 'dist', 'index.js')],
    env: {
      ...baseEnv(home),
      CODEX_HOME: codexHome,
      FAKE_API_KEY: 'dummy',
      RUST_LOG: 'error',
      NO_BROWSER: '1',
      // Edits and commands ask the client (the default mode would run them unasked).
      INITIAL_AGENT_MODE: 'read-only',
      CODEX_CONFIG: JSON.stringify(config),
    },
    cwd,
    cleanup: () => rmSync(home, { recursive: true, force: true, maxRetries: 5 }),
  };
}

function claude(name: 'claude-code-acp' | 'claude-agent-acp' | 'claude-agent-acp-0.101', modelUrl: string, cwd: string): Launch {
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
  const script =
    name === 'claude-agent-acp-0.101'
      ? path.join(modulesDir(), '@agentclientprotocol', 'claude-agent-acp', 'dist', 'index.js')
      : path.join(modulesDir(), '@zed-industries', name, 'dist', 'index.js');
  if (name === 'claude-agent-acp-0.101') {
    // 0.101's default permission mode `auto` decides permissions itself (and warns about
    // classifier billing); `default` asks the client as the older adapters do.
    writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' } }));
  }
  return {
    name,
    command: process.execPath,
    args: [script],
    env,
    cwd,
    cleanup: () => rmSync(home, { recursive: true, force: true, maxRetries: 5 }),
  };
}

function nodeScript(name: AgentName, script: string, cwd: string): Launch {
  const home = tempDir(`${name}-home`);
  return {
    name,
    command: process.execPath,
    args: [script],
    env: baseEnv(home),
    cwd,
    cleanup: () => rmSync(home, { recursive: true, force: true, maxRetries: 5 }),
  };
}

/** Launch recipe for one agent. `modelUrl` is ignored by the model-free agents. */
export function launchOf(name: AgentName, modelUrl: string, cwd: string, opts: LaunchOptions = {}): Launch {
  switch (name) {
    case 'codex-acp':
      return codex(modelUrl, cwd);
    case 'codex-acp-2.6':
      return codexNext(modelUrl, cwd, opts);
    case 'claude-code-acp':
    case 'claude-agent-acp':
    case 'claude-agent-acp-0.101':
      return claude(name, modelUrl, cwd);
    case 'sdk-example':
      return nodeScript(name, path.join(modulesDir(), 'acp-sdk-v1', 'dist', 'examples', 'agent.js'), cwd);
    case 'sdk-dual':
      return nodeScript(name, path.join(modulesDir(), 'acp-sdk-v1', 'dist', 'examples', 'dual-version-agent.js'), cwd);
    case 'v2-test-agent':
      return nodeScript(name, path.join(interopDir(), 'agents', 'v2-test-agent.mjs'), cwd);
  }
}
