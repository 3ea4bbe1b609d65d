// The agent endpoint of a local program: an AgentProcess (agentProcess.ts) spawned with piped
// stdio, spoken to over its stdout/stdin; its end described for people from the exit code or
// signal and its last stderr lines. Built by the AgentManager for definitions with a `command`
// (and by the supervisor tests' host). Free of `vscode`.
import { english, type L10n } from '../common/l10n';
import type { AgentEndpoint, EndpointExit } from './agentEndpoint';
import { AgentProcess, type ExitInfo, type SpawnSpec } from './agentProcess';
import type { MessageStream } from '../protocol/transport/messageStream';

export class ProcessEndpoint implements AgentEndpoint {
  readonly process: AgentProcess;
  readonly stream: MessageStream;
  readonly closed: Promise<EndpointExit>;

  constructor(spec: SpawnSpec, onStderrLine: (line: string) => void, l10n: L10n = english) {
    this.process = new AgentProcess(spec, onStderrLine);
    this.stream = { readable: this.process.stdout, writable: this.process.stdin };
    this.closed = this.process.exited.then((info) => describeProcessEnd(info, spec.command, l10n));
  }

  stop(graceMs?: number): Promise<ExitInfo> {
    return this.process.stop(graceMs);
  }

  kill(): void {
    this.process.kill();
  }
}

/** How a process ended, as an EndpointExit ("exited with code 3", " Last output: …"). */
export function describeProcessEnd(info: ExitInfo, command?: string, l10n: L10n = english): EndpointExit {
  return { description: describeExit(info, command, l10n), detail: exitTail(info, l10n), ...(info.spawnError ? { failedToOpen: true } : {}) };
}

/**
 * How an agent process ended, as the predicate of a sentence whose subject is the agent's name:
 * "Codex exited with code 1", "Codex could not start: the command "codex-acp" was not found".
 */
export function describeExit(e: ExitInfo, command?: string, l10n: L10n = english): string {
  if (e.spawnError) {
    const code = (e.spawnError as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return command
        ? l10n.t('could not start: the command "{0}" was not found (check the command in acp.agents; an absolute path avoids PATH differences)', command)
        : l10n.t('could not start: the command was not found (check the command in acp.agents; an absolute path avoids PATH differences)');
    if (code === 'EACCES')
      return command ? l10n.t('could not start: the command "{0}" is not executable', command) : l10n.t('could not start: the command is not executable');
    return l10n.t('could not start ({0})', e.spawnError.message);
  }
  if (e.signal) return l10n.t('was killed ({0})', e.signal);
  return l10n.t('exited with code {0}', String(e.code));
}

/** " Last output: a | b | c" from the last stderr lines, or "". */
export function exitTail(info: ExitInfo, l10n: L10n = english): string {
  const lines = info.stderrTail.filter((l) => l.trim()).slice(-3);
  return lines.length ? ` ${l10n.t('Last output: {0}', lines.join(' | ').slice(0, 400))}` : '';
}
