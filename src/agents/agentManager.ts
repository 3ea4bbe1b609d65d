// The agents the user can run: the built-in Demo Agent plus the `acp.agents` setting. Owns their
// supervisors, wires their events into the stores, and enforces workspace trust.
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AcpConnection, CancelToken, ClientServices, ConnectOptions, ProtocolLogger } from '../protocol/api';
import type { PermissionOutcome, PermissionRequest, SessionEvent } from '../protocol/events';
import { DEMO_AGENT_ID, parseAgentSettings, type AgentDefinition } from './agentConfig';
import type { SpawnSpec } from './agentProcess';
import { AgentSupervisor, type SupervisorHost } from './supervisor';
import type { PermissionBroker } from './permissionBroker';
import type { FileService } from './fsService';
import type { TerminalService } from './terminalService';
import type { Logs } from './logs';
import { Config } from '../config';

export class UntrustedWorkspaceError extends Error {
  constructor() {
    super('ACP Plans does not start agents in an untrusted workspace: an agent is a program that runs code on this machine. Trust this workspace to start agents.');
  }
}

export interface AgentManagerDeps {
  extensionPath: string;
  storagePath: string;
  connect: (readable: NodeJS.ReadableStream, writable: NodeJS.WritableStream, options: ConnectOptions) => Promise<AcpConnection>;
  logs: Logs;
  broker: PermissionBroker;
  terminals: TerminalService;
  files: FileService;
  /** Every session event of every agent, in arrival order. */
  onEvent: (agentId: string, e: SessionEvent) => void;
  config: Config;
}

export class AgentManager implements vscode.Disposable {
  private readonly supervisors = new Map<string, AgentSupervisor>();
  private readonly changed = new vscode.EventEmitter<string>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  readonly onDidChange = this.changed.event;
  private problems: string[] = [];

  constructor(private readonly deps: AgentManagerDeps) {
    this.disposables.push(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('acp.agents') || e.affectsConfiguration('acp.offerV2') || e.affectsConfiguration('acp.demo')) this.reloadDefinitions();
    }));
    this.reloadDefinitions();
  }

  dispose(): void {
    for (const s of this.supervisors.values()) s.dispose();
    this.supervisors.clear();
    for (const d of this.disposables) d.dispose();
  }

  /** Problems found in the `acp.agents` setting, person-readable. */
  get configProblems(): string[] { return this.problems; }

  definitions(): AgentDefinition[] { return [...this.supervisors.values()].map((s) => s.def); }
  get(agentId: string): AgentSupervisor | undefined { return this.supervisors.get(agentId); }
  all(): AgentSupervisor[] { return [...this.supervisors.values()]; }
  running(): AgentSupervisor[] { return this.all().filter((s) => s.status === 'running'); }

  async start(agentId: string): Promise<AgentSupervisor> {
    if (!vscode.workspace.isTrusted) throw new UntrustedWorkspaceError();
    const sup = this.supervisors.get(agentId);
    if (!sup) throw new Error(`No agent "${agentId}" is configured.`);
    await sup.start();
    return sup;
  }

  private reloadDefinitions(): void {
    const { agents, problems } = parseAgentSettings(this.deps.config.agentsRaw(), this.deps.config.offerV2());
    if (JSON.stringify(problems) !== JSON.stringify(this.problems)) for (const p of problems) this.deps.logs.main.warn(`[config] ${p}`);
    this.problems = problems;
    const defs = [this.demoDefinition(), ...agents];
    const keep = new Set(defs.map((d) => d.id));
    for (const [id, sup] of this.supervisors) {
      if (!keep.has(id) && (sup.status === 'stopped' || sup.status === 'failed' || sup.status === 'crashed')) { sup.dispose(); this.supervisors.delete(id); this.changed.fire(id); }
    }
    for (const d of defs) {
      const existing = this.supervisors.get(d.id);
      if (existing && JSON.stringify(existing.def) === JSON.stringify(d)) continue;
      if (existing && existing.status !== 'stopped' && existing.status !== 'failed' && existing.status !== 'crashed') continue; // applied once it stops
      if (existing) existing.redefine(d); // keeps its sessions (transcripts, resume)
      else this.supervisors.set(d.id, new AgentSupervisor(d, this.host));
      this.changed.fire(d.id);
    }
  }

  private demoDefinition(): AgentDefinition {
    return {
      id: DEMO_AGENT_ID, name: 'Demo Agent', command: process.execPath,
      args: [path.join(this.deps.extensionPath, 'dist', 'demo-agent.js')],
      env: { ELECTRON_RUN_AS_NODE: '1', ACP_DEMO_STATE_DIR: path.join(this.deps.storagePath, 'demo-agent'), ...this.deps.config.demoEnv() },
      protocol: this.deps.config.demoProtocol() ?? (this.deps.config.offerV2() ? 'auto' : 1), builtIn: true,
    };
  }

  private readonly host: SupervisorHost = {
    assertMayStart: () => { if (!vscode.workspace.isTrusted) throw new UntrustedWorkspaceError(); },
    connect: (r, w, o) => this.deps.connect(r, w, o),
    spawnSpec: (def): SpawnSpec => ({
      command: def.command, args: def.args, env: def.env,
      cwd: def.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir(),
    }),
    connectOptions: () => ({
      clientInfo: { name: 'acp-plans', title: 'ACP Plans', version: '0.1.0' },
      initializeTimeoutMs: this.deps.config.initializeTimeoutMs(),
      maxLineBytes: this.deps.config.maxLineBytes(),
      unstablePlans: this.deps.config.v1UnstablePlans(),
    }),
    // Called once per connection: terminals and consent are scoped to (connection, agent, session).
    services: (agentId): ClientServices => ({
      ...this.deps.files.forConnection(agentId),
      terminal: this.deps.terminals.forConnection(agentId),
    }),
    logger: (def): ProtocolLogger => this.deps.logs.protocolLogger(def.name),
    stderr: (def, line) => this.deps.logs.stderr(def.name, line),
    onEvent: (agentId, e) => this.deps.onEvent(agentId, e),
    requestPermission: (agentId: string, req: PermissionRequest, token: CancelToken): Promise<PermissionOutcome> =>
      this.deps.broker.request(agentId, this.supervisors.get(agentId)?.def.name ?? agentId, req, token),
    changed: (agentId) => {
      this.changed.fire(agentId);
      // Settings edited while the agent ran take effect once it is no longer running.
      const status = this.supervisors.get(agentId)?.status;
      if (status === 'stopped' || status === 'failed' || status === 'crashed') this.reloadDefinitions();
    },
    report: (agentId, message, severity) => {
      this.deps.logs.main[severity === 'info' ? 'info' : severity === 'warning' ? 'warn' : 'error'](message);
      const show = severity === 'error' ? vscode.window.showErrorMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      void show(message, 'Show Log', 'Restart').then((pick) => {
        if (pick === 'Show Log') this.deps.logs.main.show(true);
        if (pick === 'Restart') void this.supervisors.get(agentId)?.restart();
      });
    },
    now: () => Date.now(),
  };
}
