// The agents the user can run: the built-in Demo Agent, the `acp.agents` setting and the agents
// installed from the ACP Registry (InstalledAgents). Owns their
// supervisors (one per definition), gives them what they need from VS Code (endpoints, settings,
// client services, workspace trust) and passes their events on, unchanged, to the composition
// root. Definitions edited while an agent runs apply once it stops.
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AcpConnection, CancelToken, ClientServices, ConnectOptions, ProtocolLogger } from '../protocol/api';
import type { MessageStream } from '../protocol/transport/messageStream';
import type { PermissionOutcome, PermissionRequest, SessionEvent } from '../protocol/domain';
import type { ElicitationRequest, ElicitationResponse } from '../protocol/elicitation';
import type { AgentEndpoint } from './agentEndpoint';
import { ProcessEndpoint } from './processEndpoint';
import { openRemoteEndpoint, type RemoteAccess } from './remoteAgent';
import { DEMO_AGENT_ID, parseAgentSettings, type AgentDefinition } from './agentConfig';
import { AgentSupervisor, type LifecycleEvent, type SupervisorHost } from './supervisor';
import type { FileHost, TerminalHost } from './lazyClientServices';
import type { Logs } from './logs';
import type { InstalledAgents } from './installedAgents';
import type { WireHook } from './wireRecorder';
import { Config } from '../platform/config';
import { assertTrusted } from '../platform/workspace';
import { Disposable, toDisposable } from '../common/lifecycle';

export interface AgentManagerDeps {
  extensionPath: string;
  storagePath: string;
  connect: (stream: MessageStream, options: ConnectOptions) => Promise<AcpConnection>;
  logs: Logs;
  terminals: TerminalHost;
  files: FileHost;
  config: Config;
  installed: InstalledAgents;
  requestPermission: (agentId: string, agentName: string, req: PermissionRequest, token: CancelToken) => Promise<PermissionOutcome>;
  /** Puts an elicitation to the user. */
  elicit: (agentId: string, agentName: string, req: ElicitationRequest, token: CancelToken) => Promise<ElicitationResponse>;
  elicitationComplete: (agentId: string, elicitationId: string) => void;
  /** A wire hook for each new connection of an agent (traffic recording). */
  wireTap?: (agentId: string) => WireHook;
  /** Secrets and the first-connection confirmation, for agents with a `url`. */
  remote: RemoteAccess;
}

/** What an agent reports for the user: a crash, a restart, a failure. */
export interface AgentReport {
  readonly agentId: string;
  readonly message: string;
  readonly severity: 'error' | 'warning' | 'info';
  /** The agent restarts on its own: a notice withdrawn once it runs again (or gives up). */
  readonly restarting?: boolean;
}

export class AgentManager extends Disposable {
  private readonly supervisors = new Map<string, AgentSupervisor>();
  private readonly _onDidChangeDefinitions = this._register(new vscode.EventEmitter<string>());
  /** An agent was added, removed or redefined (its id). */
  readonly onDidChangeDefinitions = this._onDidChangeDefinitions.event;
  private readonly _onDidReceiveEvent = this._register(new vscode.EventEmitter<{ agentId: string; event: SessionEvent }>());
  /** Every session event of every agent, synchronously, in arrival order. */
  readonly onDidReceiveEvent = this._onDidReceiveEvent.event;
  private readonly _onDidChangeLifecycle = this._register(new vscode.EventEmitter<{ agentId: string; event: LifecycleEvent }>());
  /** Status changes and sessions attached/detached, of every agent. */
  readonly onDidChangeLifecycle = this._onDidChangeLifecycle.event;
  private readonly _onDidReport = this._register(new vscode.EventEmitter<AgentReport>());
  /** An agent's crash or failure, for the user (already logged); the app layer shows it and offers Restart. */
  readonly onDidReport = this._onDidReport.event;
  private readonly _onDidChangeConfigProblems = this._register(new vscode.EventEmitter<void>());
  /** The problems found in the settings changed (configProblems). */
  readonly onDidChangeConfigProblems = this._onDidChangeConfigProblems.event;
  private problems: string[] = [];

  constructor(private readonly deps: AgentManagerDeps) {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (
          e.affectsConfiguration('acp.agents') ||
          e.affectsConfiguration('acp.offerV2') ||
          e.affectsConfiguration('acp.demo') ||
          e.affectsConfiguration('acp.registry.agentOverrides')
        )
          this.reloadDefinitions();
      }),
    );
    this._register(deps.installed.onDidChange(() => this.reloadDefinitions()));
    this._register(
      toDisposable(() => {
        for (const s of this.supervisors.values()) s.dispose();
        this.supervisors.clear();
      }),
    );
    this.reloadDefinitions();
  }

  /** Problems found in the `acp.agents` setting, person-readable. */
  get configProblems(): string[] {
    return this.problems;
  }

  definitions(): AgentDefinition[] {
    return [...this.supervisors.values()].map((s) => s.def);
  }
  get(agentId: string): AgentSupervisor | undefined {
    return this.supervisors.get(agentId);
  }
  all(): AgentSupervisor[] {
    return [...this.supervisors.values()];
  }
  running(): AgentSupervisor[] {
    return this.all().filter((s) => s.status === 'running');
  }

  /** Throws UntrustedWorkspaceError in an untrusted workspace (no agent program runs there). */
  assertTrusted(): void {
    assertTrusted();
  }

  async start(agentId: string): Promise<AgentSupervisor> {
    this.assertTrusted();
    const sup = this.supervisors.get(agentId);
    if (!sup) throw new Error(`No agent "${agentId}" is configured.`);
    await sup.start();
    return sup;
  }

  private reloadDefinitions(): void {
    const configured = parseAgentSettings(this.deps.config.agentsRaw(), this.deps.config.offerV2(), vscode.l10n);
    const installed = this.deps.installed.definitions(this.deps.config.registryOverridesRaw(), this.deps.config.offerV2());
    const agents = [...configured.agents, ...installed.agents];
    const problems = [...configured.problems, ...installed.problems];
    const changed = JSON.stringify(problems) !== JSON.stringify(this.problems);
    if (changed) for (const p of problems) this.deps.logs.main.warn(`[config] ${p}`);
    this.problems = problems;
    if (changed) this._onDidChangeConfigProblems.fire();
    const defs = [this.demoDefinition(), ...agents];
    const keep = new Set(defs.map((d) => d.id));
    for (const [id, sup] of this.supervisors) {
      if (!keep.has(id) && (sup.status === 'stopped' || sup.status === 'failed' || sup.status === 'crashed')) {
        sup.dispose();
        this.supervisors.delete(id);
        this._onDidChangeDefinitions.fire(id);
      }
    }
    for (const d of defs) {
      const existing = this.supervisors.get(d.id);
      if (existing && JSON.stringify(existing.def) === JSON.stringify(d)) continue;
      if (existing && existing.status !== 'stopped' && existing.status !== 'failed' && existing.status !== 'crashed') continue; // applied once it stops
      if (existing)
        existing.redefine(d); // keeps its sessions (transcripts, resume)
      else this.supervisors.set(d.id, new AgentSupervisor(d, this.host));
      this._onDidChangeDefinitions.fire(d.id);
    }
  }

  private demoDefinition(): AgentDefinition {
    return {
      id: DEMO_AGENT_ID,
      name: 'Demo Agent',
      command: process.execPath,
      args: [path.join(this.deps.extensionPath, 'dist', 'demo-agent.js')],
      env: { ELECTRON_RUN_AS_NODE: '1', ACP_DEMO_STATE_DIR: path.join(this.deps.storagePath, 'demo-agent'), ...this.deps.config.demoEnv() },
      protocol: this.deps.config.demoProtocol() ?? (this.deps.config.offerV2() ? 'auto' : 1),
      builtIn: true,
    };
  }

  /**
   * Where a definition's agent runs: a remote agent (`url`) over a WebSocket, else a local
   * `command` (a process over stdio). Another transport is a branch here and one AgentEndpoint module.
   */
  private openEndpoint(def: AgentDefinition): AgentEndpoint {
    if (def.remote) {
      const log = this.deps.logs.main;
      return openRemoteEndpoint(def, {
        access: this.deps.remote,
        maxMessageBytes: this.deps.config.maxLineBytes(),
        log: (l, m) => log[l](`[remote] ${m}`),
      });
    }
    const cwd = def.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    return new ProcessEndpoint({ command: def.command, args: def.args, env: def.env, cwd }, (line) => this.deps.logs.stderr(def.name, line), vscode.l10n);
  }

  private readonly host: SupervisorHost = {
    openEndpoint: (def) => this.openEndpoint(def),
    l10n: vscode.l10n,
    schedule: (fn, ms) => {
      const t = setTimeout(fn, ms);
      return { dispose: () => clearTimeout(t) };
    },
    assertMayStart: () => {
      assertTrusted();
    },
    connect: (stream, o) => this.deps.connect(stream, o),
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
    logger: (def): ProtocolLogger => this.deps.logs.protocolLogger(def.name, this.deps.wireTap?.(def.id)),
    onEvent: (agentId, event) => this._onDidReceiveEvent.fire({ agentId, event }),
    requestPermission: (agentId: string, req: PermissionRequest, token: CancelToken): Promise<PermissionOutcome> =>
      this.deps.requestPermission(agentId, this.supervisors.get(agentId)?.def.name ?? agentId, req, token),
    elicit: (agentId: string, req: ElicitationRequest, token: CancelToken): Promise<ElicitationResponse> =>
      this.deps.elicit(agentId, this.supervisors.get(agentId)?.def.name ?? agentId, req, token),
    elicitationComplete: (agentId: string, id: string) => this.deps.elicitationComplete(agentId, id),
    lifecycle: (agentId, e) => {
      this._onDidChangeLifecycle.fire({ agentId, event: e });
      // Settings edited while the agent ran take effect once it is no longer running.
      if (e.kind === 'status' && (e.status === 'stopped' || e.status === 'failed' || e.status === 'crashed')) this.reloadDefinitions();
    },
    report: (agentId, message, severity, kind) => {
      this.deps.logs.main[severity === 'info' ? 'info' : severity === 'warning' ? 'warn' : 'error'](message);
      this._onDidReport.fire({ agentId, message, severity, ...(kind === 'restarting' ? { restarting: true } : {}) });
    },
    now: () => Date.now(),
  };
}
