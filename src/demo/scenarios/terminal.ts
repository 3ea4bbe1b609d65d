// `/terminal <shell command>` (v1): runs the command in a client terminal. Requests, in order:
// terminal/create {command: <the whole shell string>, cwd, outputByteLimit}, terminal/output,
// terminal/wait_for_exit, terminal/output (final), terminal/release. Reports output and exit code.
// On cancel: terminal/kill, then terminal/release.

import type { Turn } from '../turn';
import { fenced, type Scenario } from './scenario';

export const TERMINAL_OUTPUT_LIMIT = 65_536;

interface OutputResult {
  output?: unknown;
  truncated?: unknown;
}
interface ExitResult {
  exitCode?: unknown;
  signal?: unknown;
}

function exitText(exit: ExitResult): string {
  if (typeof exit.exitCode === 'number') return `exit code: ${exit.exitCode}`;
  if (typeof exit.signal === 'string') return `signal: ${exit.signal}`;
  return 'exit status unknown';
}

async function run(turn: Turn, command: string): Promise<void> {
  const toolCallId = turn.id('call_term');
  turn.tool({ toolCallId, title: command, kind: 'execute', status: 'in_progress', rawInput: { command } });
  const created = (await turn.clientRequest('terminal/create', { command, cwd: turn.cwd, outputByteLimit: TERMINAL_OUTPUT_LIMIT })) as { terminalId?: unknown };
  if (typeof created?.terminalId !== 'string') throw new Error('terminal/create answered without a terminalId');
  const terminalId = created.terminalId;
  turn.tool({ toolCallId, content: [{ type: 'terminal', terminalId }] });
  try {
    await turn.clientRequest('terminal/output', { terminalId });
    const exit = (await turn.clientRequest('terminal/wait_for_exit', { terminalId })) as ExitResult;
    const final = (await turn.clientRequest('terminal/output', { terminalId })) as OutputResult;
    await turn.clientRequest('terminal/release', { terminalId });
    turn.checkpoint();
    const output = typeof final?.output === 'string' ? final.output : '';
    const ok = exit?.exitCode === 0;
    // The terminal is released: the tool call keeps the output as text.
    turn.tool({ toolCallId, status: ok ? 'completed' : 'failed', content: [{ type: 'text', text: output }], rawOutput: { ...exit } });
    const truncated = final?.truncated === true ? ' (truncated)' : '';
    turn.say(`Output of \`${command}\`${truncated}:\n\n${fenced(output)}\n\n${exitText(exit ?? {})}`);
  } catch (err) {
    if (turn.isCancelled) {
      await turn.clientRequest('terminal/kill', { terminalId }, true).catch(() => undefined);
      await turn.clientRequest('terminal/release', { terminalId }, true).catch(() => undefined);
    }
    throw err;
  }
}

export const terminalScenario: Scenario = {
  name: 'terminal',
  description: 'Run a shell command in a client terminal (v1) and report its output and exit code',
  hint: 'shell command',
  async run(turn, args) {
    if (turn.version === 2) {
      turn.say('terminal: ACP v2 has no client terminals. Try `/vterm` for an agent-owned display terminal.');
      return;
    }
    if (!turn.services.terminal) {
      turn.say('terminal: the client did not advertise the `terminal` capability.');
      return;
    }
    if (!args) {
      turn.say('Usage: `/terminal <shell command>`');
      return;
    }
    await run(turn, args);
  },
};
