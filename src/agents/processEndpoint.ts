// The agent endpoint of a local program: an AgentProcess (agentProcess.ts) spawned with piped
// stdio, spoken to over its stdout/stdin; its end described for people from the exit code or
// signal and its last stderr lines. Built by the AgentManager for definitions with a `command`
// (and by the supervisor tests' host). Free of `vscode`.
import type { AgentEndpoint, EndpointExit } from './agentEndpoint';
import { AgentProcess, type ExitInfo, type SpawnSpec } from './agentProcess';
import type { MessageStream } from '../protocol/transport/messageStream';

export class ProcessEndpoint implements AgentEndpoint {
  readonly process: AgentProcess;
  readonly stream: MessageStream;
  readonly closed: Promise<EndpointExit>;

  constructor(spec: SpawnSpec, onStderrLine: (line: string) => void) {
    this.process = new AgentProcess(spec, onStderrLine);
    this.stream = { readable: this.process.stdout, writable: this.process.stdin };
    this.closed = this.process.exited.then((info) => describeProcessEnd(info, spec.command));
  }

  stop(graceMs?: number): Promise<ExitInfo> {
    return this.process.stop(graceMs);
  }

  kill(): void {
    this.process.kill();
  }
}

/** How a process ended, as an EndpointExit ("exited with code 3", " Last output: …"). */
export function describeProcessEnd(info: ExitInfo, command?: string): EndpointExit {
  return { description: describeExit(info, command), detail: exitTail(info), ...(info.spawnError ? { failedToOpen: true } : {}) };
}

/**
 * How an agent process ended, as the predicate of a sentence whose subject is the agent's name:
 * "Codex exited with code 1", "Codex could not start: the command "codex-acp" was not found".
 */
export function describeExit(e: ExitInfo, command?: string): string {
  if (e.spawnError) {
    const code = (e.spawnError as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return `could not start: the command ${command ? `"${command}" ` : ''}was not found (check the command in acp.agents; an absolute path avoids PATH differences)`;
    if (code === 'EACCES') return `could not start: the command ${command ? `"${command}" ` : ''}is not executable`;
    return `could not start (${e.spawnError.message})`;
  }
  if (e.signal) return `was killed (${e.signal})`;
  return `exited with code ${e.code}`;
}

/** " Last output: a | b | c" from the last stderr lines, or "". */
export function exitTail(info: ExitInfo): string {
  const lines = info.stderrTail.filter((l) => l.trim()).slice(-3);
  return lines.length ? ` Last output: ${lines.join(' | ').slice(0, 400)}` : '';
}
