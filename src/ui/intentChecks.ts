// Intent plans in the running extension: one tracker per session, fed with plan updates and tool
// calls; permission requests are checked against the declared plan before the user sees them.
import * as vscode from 'vscode';
import type { Config } from '../config';
import type { Logs } from '../agents/logs';
import type { PermissionRequest, SessionEvent } from '../protocol/events';
import type { PlanStore } from '../state/planStore';

export class IntentChecks implements vscode.Disposable {
  constructor(readonly config: Config, readonly logs: Logs, readonly plans: PlanStore) {}

  apply(_agentId: string, _e: SessionEvent): void { /* wired in the intent-plans change */ }

  inspectPermission(_agentId: string, _req: PermissionRequest): { flags: string[]; autoReject?: boolean } {
    return { flags: [] };
  }

  dispose(): void { /* nothing yet */ }
}
