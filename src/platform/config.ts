// Typed, live access to the extension's settings (read each time; keys in one place).
import * as vscode from 'vscode';
import { userTraceLevel, type TraceLevel } from './traceLevel';

export const SETTINGS = {
  agents: 'agents',
  mcpServers: 'mcpServers',
  offerV2: 'offerV2',
  initializeTimeoutSeconds: 'initializeTimeoutSeconds',
  maxLineBytes: 'maxLineBytes',
  traceServer: 'trace.server',
  planHistoryMax: 'planHistory.maxRevisions',
  agentMemoryMiB: 'limits.agentMemoryMiB',
  totalMemoryMiB: 'limits.totalMemoryMiB',
  foldDoneStepsAfter: 'plans.foldDoneStepsAfter',
  checkpointsEnabled: 'checkpoints.enabled',
  checkpointsMaxStorageMiB: 'checkpoints.maxStorageMiB',
  checkpointsMaxFileKiB: 'checkpoints.maxFileKiB',
  historyEnabled: 'history.enabled',
  historyMaxSessions: 'history.maxSessions',
  historyMaxMegabytes: 'history.maxMegabytes',
  intentJwks: 'intent.jwks',
  intentAutoReject: 'intent.autoRejectOutOfPlan',
  demoProtocol: 'demo.protocol',
  v1UnstablePlans: 'v1.unstablePlans',
  demoDelayMs: 'demo.stepDelayMs',
  registryOverrides: 'registry.agentOverrides',
  notifyWhenUnfocused: 'notifications.whenUnfocused',
  worktreesLocation: 'worktrees.location',
  worktreesMaxParallel: 'worktrees.maxParallel',
} as const;

export type { TraceLevel };

export class Config {
  private get c(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration('acp');
  }
  agentsRaw(): unknown {
    return this.c.get<unknown>(SETTINGS.agents, []);
  }
  offerV2(): boolean {
    return this.c.get<boolean>(SETTINGS.offerV2, true);
  }
  initializeTimeoutMs(): number {
    return Math.max(1, this.c.get<number>(SETTINGS.initializeTimeoutSeconds, 30)) * 1000;
  }
  maxLineBytes(): number {
    return Math.max(1024, this.c.get<number>(SETTINGS.maxLineBytes, 64 * 1024 * 1024));
  }
  /** The user's own setting only: a workspace (or folder) value is ignored (agents/traceLevel.ts). */
  trace(): TraceLevel {
    return userTraceLevel(this.c.inspect<string>(SETTINGS.traceServer));
  }
  /** Items plans with more steps fold their oldest done steps into one row; 0: never. */
  foldDoneStepsAfter(): number {
    return Math.max(0, Math.floor(this.c.get<number>(SETTINGS.foldDoneStepsAfter, 20)));
  }
  planHistoryMax(): number {
    return Math.max(1, this.c.get<number>(SETTINGS.planHistoryMax, 200));
  }
  /** One agent's memory budget (src/state/agentBudget.ts), at least 16 MiB. */
  agentMemoryBytes(): number {
    const mib = this.c.get<number>(SETTINGS.agentMemoryMiB, 256);
    return Math.max(16, Number.isFinite(mib) ? mib : 256) * 1024 * 1024;
  }
  /** The memory limit of all agents together (src/state/agentBudget.ts), at least 64 MiB. */
  totalMemoryBytes(): number {
    const mib = this.c.get<number>(SETTINGS.totalMemoryMiB, 1024);
    return Math.max(64, Number.isFinite(mib) ? mib : 1024) * 1024 * 1024;
  }
  checkpointsEnabled(): boolean {
    return this.c.get<boolean>(SETTINGS.checkpointsEnabled, true);
  }
  /** Disk one folder's checkpoints may take, at least 16 MiB. */
  checkpointsMaxStorageBytes(): number {
    const mib = this.c.get<number>(SETTINGS.checkpointsMaxStorageMiB, 512);
    return Math.max(16, Number.isFinite(mib) ? mib : 512) * 1024 * 1024;
  }
  checkpointsMaxFileBytes(): number {
    const kib = this.c.get<number>(SETTINGS.checkpointsMaxFileKiB, 2048);
    return Math.max(1, Number.isFinite(kib) ? kib : 2048) * 1024;
  }
  /** Notify when a turn ends or waits for the user while the window is unfocused or the ACP views are hidden. */
  notifyWhenUnfocused(): boolean {
    return this.c.get<boolean>(SETTINGS.notifyWhenUnfocused, true);
  }
  historyEnabled(): boolean {
    return this.c.get<boolean>(SETTINGS.historyEnabled, true);
  }
  historyMaxSessions(): number {
    return Math.max(1, Math.floor(this.c.get<number>(SETTINGS.historyMaxSessions, 100)));
  }
  historyMaxBytes(): number {
    return Math.max(1, this.c.get<number>(SETTINGS.historyMaxMegabytes, 500)) * 1024 * 1024;
  }
  v1UnstablePlans(): boolean {
    return this.c.get<boolean>(SETTINGS.v1UnstablePlans, true);
  }
  intentJwks(): string {
    return this.c.get<string>(SETTINGS.intentJwks, '').trim();
  }
  intentAutoReject(): boolean {
    return this.c.get<boolean>(SETTINGS.intentAutoReject, false);
  }
  /** `acp.registry.url` and `acp.registry.maxDownloadMiB` are read by the registry module itself. */
  registryOverridesRaw(): unknown {
    return this.c.get<unknown>(SETTINGS.registryOverrides, {});
  }
  demoProtocol(): 1 | 2 | undefined {
    const v = this.c.get<string>(SETTINGS.demoProtocol, 'auto');
    return v === '1' ? 1 : v === '2' ? 2 : undefined;
  }
  demoEnv(): Record<string, string> {
    return { ACP_DEMO_DELAY_MS: String(Math.max(0, this.c.get<number>(SETTINGS.demoDelayMs, 400))) };
  }
  /** Where worktrees go ('' : `<repository>.worktrees` beside the repository; relative: to the repository's parent). */
  worktreesLocation(): string {
    return this.c.get<string>(SETTINGS.worktreesLocation, '');
  }
  /** The most worktree sessions running a turn at once (1–20). */
  worktreesMaxParallel(): number {
    return Math.min(20, Math.max(1, Math.floor(this.c.get<number>(SETTINGS.worktreesMaxParallel, 5))));
  }
}
