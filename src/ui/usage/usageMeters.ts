// The live usage meter as the Plans tree's session rows and the status bar item show it: the
// ledger's figures worded in the window's language (usageMeter.ts), and the ledger's changes
// passed on as they are (a session's usage, or an agent's rate limits) so each view redraws only
// what changed, at its own pace.
import * as vscode from 'vscode';
import type { UsageLedger } from '../../app/usage/usageLedger';
import type { StatusBarUsage } from '../statusBar';
import type { SessionMeters } from '../tree/sessionMeters';
import { meterText, rateLimitLines, usageLines } from './usageMeter';

export class UsageMeters implements SessionMeters, StatusBarUsage {
  constructor(private readonly ledger: UsageLedger) {}

  readonly onDidChange: SessionMeters['onDidChange'] = (listener) => {
    const sub = this.ledger.onDidChange(listener);
    return new vscode.Disposable(() => sub.dispose());
  };

  text(agentId: string, sessionId: string): string | undefined {
    return meterText(this.ledger.session(agentId, sessionId), vscode.env.language, vscode.l10n);
  }

  /** The row's tooltip: the session's usage. */
  lines(agentId: string, sessionId: string): string[] {
    return usageLines(this.ledger.session(agentId, sessionId), vscode.env.language, vscode.l10n);
  }

  /** The status bar's tooltip: the session's usage, then its agent's rate limits. */
  tooltip(agentId: string, sessionId: string): string[] {
    const limits = this.ledger.rateLimits(agentId).map((r) => r.limit);
    return [...this.lines(agentId, sessionId), ...rateLimitLines(limits, vscode.env.language, vscode.l10n)];
  }
}
