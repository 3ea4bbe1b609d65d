// The "ACP" log channel (one for the extension) and the lazily created "ACP Trace" channel that
// receives every wire message when `acp.trace.server` is on. Secrets never reach either.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { LogLevel, ProtocolLogger } from '../protocol/api';
import { SETTINGS, type Config, type TraceLevel } from '../platform/config';
import { redact, redactText } from './redaction';
import { wireRecorder, type WireHook } from './wireRecorder';

export class Logs extends Disposable {
  readonly main: vscode.LogOutputChannel;
  private traceChannel: vscode.LogOutputChannel | undefined;
  /**
   * `acp.trace.server`, read when it changes: reading a setting costs tens of microseconds, too
   * much for every message of an agent that sends tens of thousands.
   */
  private level: TraceLevel;

  constructor(config: Config) {
    super();
    this._register(toDisposable(() => this.traceChannel?.dispose()));
    this.main = this._register(vscode.window.createOutputChannel('ACP', { log: true }));
    this.level = config.trace();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`acp.${SETTINGS.traceServer}`)) this.level = config.trace();
      }),
    );
  }

  get trace(): vscode.LogOutputChannel {
    this.traceChannel ??= vscode.window.createOutputChannel('ACP Trace', { log: true });
    return this.traceChannel;
  }

  stderr(agentName: string, line: string): void {
    const safe = redactText(line);
    this.main.debug(`[${agentName} stderr] ${safe}`);
    if (this.level !== 'off') this.trace.info(`[${agentName} stderr] ${safe}`);
  }

  /**
   * The logger of one connection (created per agent start). Its wire hook feeds the trace channel;
   * in tests, with ACP_WIRE_RECORD_DIR set, it also records the connection's raw traffic to a file
   * (see wireRecorder.ts); `tap` is the user-facing recorder's (src/recording/recorder.ts).
   */
  protocolLogger(agentName: string, tap?: WireHook): ProtocolLogger {
    const trace = (direction: 'send' | 'receive', message: unknown): void => {
      const level = this.level;
      if (level === 'off') return;
      const arrow = direction === 'send' ? '→' : '←';
      const m = message as { id?: unknown; method?: string; error?: { message?: string } };
      const head = `${arrow} ${agentName} ${m.method ?? (m.error ? 'error' : 'result')}${m.id !== undefined ? ` #${String(m.id)}` : ''}`;
      this.trace.info(redactText(head) + (level === 'verbose' ? ` ${JSON.stringify(redact(message))}` : ''));
    };
    const record = wireRecorder(agentName);
    const hooks = [record, tap, trace].filter((h): h is WireHook => h !== undefined);
    return {
      log: (level: LogLevel, message: string) => this.main[level](`[${agentName}] ${redactText(message)}`),
      wire:
        hooks.length === 1
          ? trace
          : (direction, message) => {
              for (const h of hooks) h(direction, message);
            },
    };
  }
}
