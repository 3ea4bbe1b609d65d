// The model scripts of the interop turns, one per agent family: publish a plan, edit a file, run
// a command, complete the plan, answer. File names are relative to the session cwd except where
// the agent's tool wants an absolute path.
import path from 'node:path';
import type { Scenario } from './fakeModel';

export const FINAL_TEXT = 'All steps are done.';
export const FILE_NAME = 'hello.txt';
export const FILE_TEXT = 'hello from the interop suite\n';
/** The marker file the shell step creates (its absence proves a rejected command did not run). */
export const MARKER = 'ran.txt';

const codexPlan = (s: [string, string][]) => ({ explanation: 'Interop plan', plan: s.map(([step, status]) => ({ step, status })) });

/** codex-acp: Responses API tools `update_plan`, freeform `apply_patch`, `exec_command`. */
export function codexScenario(opts: { holdMs?: number } = {}): Scenario {
  return {
    finalText: FINAL_TEXT,
    steps: [
      {
        kind: 'tools',
        calls: [
          {
            name: 'update_plan',
            input: codexPlan([
              ['Write the greeting file', 'in_progress'],
              ['Create the marker', 'pending'],
            ]),
          },
        ],
      },
      ...(opts.holdMs ? [{ kind: 'text' as const, text: 'held', delayMs: opts.holdMs }] : []),
      { kind: 'tools', calls: [{ name: 'apply_patch', input: `*** Begin Patch\n*** Add File: ${FILE_NAME}\n+${FILE_TEXT.trimEnd()}\n*** End Patch\n` }] },
      { kind: 'tools', calls: [{ name: 'exec_command', input: { cmd: `touch ${MARKER}`, login: false, tty: false, yield_time_ms: 5000 } }] },
      {
        kind: 'tools',
        calls: [
          {
            name: 'update_plan',
            input: codexPlan([
              ['Write the greeting file', 'completed'],
              ['Create the marker', 'completed'],
            ]),
          },
        ],
      },
    ],
  };
}

const todos = (s: [string, string][]) => ({ todos: s.map(([content, status]) => ({ content, status, activeForm: content })) });

/**
 * Claude agents: `TodoWrite`, then write, read, run. claude-code-acp routes files and commands
 * through the client (`mcp__acp__*` tools); claude-agent-acp uses its own (`Write`, `Bash`).
 */
export function claudeScenario(cwd: string, flavour: 'acp-tools' | 'plain-tools', opts: { holdMs?: number } = {}): Scenario {
  const file = path.join(cwd, FILE_NAME);
  const t =
    flavour === 'acp-tools' ? { write: 'mcp__acp__Write', read: 'mcp__acp__Read', bash: 'mcp__acp__Bash' } : { write: 'Write', read: 'Read', bash: 'Bash' };
  return {
    finalText: FINAL_TEXT,
    steps: [
      {
        kind: 'tools',
        calls: [
          {
            name: 'TodoWrite',
            input: todos([
              ['Write the greeting file', 'in_progress'],
              ['Create the marker', 'pending'],
            ]),
          },
        ],
      },
      ...(opts.holdMs ? [{ kind: 'text' as const, text: 'held', delayMs: opts.holdMs }] : []),
      { kind: 'tools', calls: [{ name: t.write, input: { file_path: file, content: FILE_TEXT } }] },
      { kind: 'tools', calls: [{ name: t.read, input: { file_path: file } }] },
      { kind: 'tools', calls: [{ name: t.bash, input: { command: `touch ${MARKER} && cat ${FILE_NAME}`, description: 'Create the marker', timeout: 20000 } }] },
      {
        kind: 'tools',
        calls: [
          {
            name: 'TodoWrite',
            input: todos([
              ['Write the greeting file', 'completed'],
              ['Create the marker', 'completed'],
            ]),
          },
        ],
      },
    ],
  };
}
