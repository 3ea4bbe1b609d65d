// The interop suite's pieces for the integration tests: the fake model server, the scripted
// scenarios and the launch recipes of the real agents (test/interop/support), turned into an
// `acp.agents` setting entry so a real agent runs through the whole extension.
import { existsSync } from 'node:fs';
import { launchOf, modulesDir, type AgentName, type Launch } from '../../interop/support/agents';

export { startFakeModel, type FakeModel } from '../../interop/support/fakeModel';
export { codexScenario, FILE_NAME, FILE_TEXT, FINAL_TEXT, MARKER } from '../../interop/support/scenarios';

/** One `acp.agents` entry (see src/agents/agentConfig.ts). */
export interface AgentSetting {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  protocol?: 'auto' | '1' | '2';
}

export interface AgentSettingLaunch {
  setting: AgentSetting;
  /** Removes the agent's temp HOME / config dirs. */
  cleanup(): void;
}

/**
 * The interop recipe of `agent` (fresh temp HOME and config dir, the fake model's loopback URL,
 * its `-c` overrides) as an `acp.agents` entry named `name`. The extension merges `env` over its
 * own environment (the recipe's variables win). `cwd` is the session cwd the recipe is for.
 */
export function agentSetting(agent: AgentName, name: string, modelUrl: string, cwd: string): AgentSettingLaunch {
  requireInteropAgents();
  const launch: Launch = launchOf(agent, modelUrl, cwd);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(launch.env)) if (v !== undefined) env[k] = v;
  if (!existsSync(launch.command)) {
    launch.cleanup();
    throw new Error(`${agent}: ${launch.command} is missing; run \`node test/interop/install.mjs\``);
  }
  return { setting: { name, command: launch.command, args: launch.args, env }, cleanup: () => launch.cleanup() };
}

/**
 * Fails with what to run when the interop agents are not installed. (They are not installed from
 * here: install.mjs stamps the Node major it ran under, and the extension host's Node 24 would
 * make it reinstall what the interop suite installed under the repository's Node.)
 */
export function requireInteropAgents(): void {
  const dir = modulesDir();
  if (!existsSync(dir)) {
    throw new Error(
      `the interop agents are not installed (${dir} is missing): run \`node test/interop/install.mjs\` (npm test runs the interop suite, which installs them, before the integration tests)`,
    );
  }
}
