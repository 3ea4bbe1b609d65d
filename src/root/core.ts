// The shared services every feature stands on, built completely before the first feature
// activates (src/root/host.ts): the stores, the session events, the agents layer and the
// application services, and the one path of an event into the stores. Data flows one way:
// agent → supervisor → AgentManager events → stores → session events → features and views; user
// actions flow back through SessionActions and the brokers.
import * as vscode from 'vscode';
import { AgentManager } from '../agents/agentManager';
import { InstalledAgents } from '../agents/installedAgents';
import { LazyFiles, LazyTerminals } from '../agents/lazyClientServices';
import { lazyConnect } from '../agents/lazyConnect';
import { Logs } from '../agents/logs';
import { ClientConsent } from '../app/clientConsent';
import { Elicitations } from '../app/elicitations';
import { IntentFeature } from '../app/intentFeature';
import { PermissionBroker } from '../app/permissionBroker';
import { approvedPlanEvent } from '../app/planApproval';
import { SessionActions } from '../app/sessionActions';
import { SessionEvents } from '../app/sessionEvents';
import { Disposable, toDisposable } from '../common/lifecycle';
import { Config, SETTINGS } from '../platform/config';
import { workspaceRoots } from '../platform/workspace';
import type { SessionEvent } from '../protocol/domain';
import { AgentBudget, budgetCutText, type BudgetCut } from '../state/agentBudget';
import { WorkStore } from '../state/attribution/workStore';
import { PlanStore } from '../state/planStore';
import { sessionKey, SessionStore } from '../state/sessionStore';
import { permissionItemId, toolCallItemId, Transcript } from '../state/transcript';
import { lazyConsentUi, lazyElicitationUi, lazySignInUi } from '../ui/lazyDialogs';
import { remoteAgentsUi, type RemoteAgentsUi } from '../ui/remoteAgents';
import { ReconnectNotices } from '../ui/remoteReconnect';
import { vscodeSessionActionsUi, vscodeWorkspace } from '../ui/sessionPrompts';
import { Ports, type FeatureHost, type PortKey } from './host';
import { ATTENTION, RECORDINGS, TEAM } from './ports';

export class Core extends Disposable implements FeatureHost {
  readonly config = new Config();
  readonly logs = this._register(new Logs(this.config));
  /** One memory budget per agent, and one limit for all together, drawn from by their plans and conversations (src/state/agentBudget.ts). */
  readonly budget = this._register(new AgentBudget(this.config.agentMemoryBytes(), this.config.totalMemoryBytes()));
  readonly store = this._register(new SessionStore({ budget: this.budget }));
  /** While a stored session is replayed, the time its records arrived (plan revisions keep it). */
  private replayTime: number | undefined;
  readonly plans = this._register(new PlanStore({ maxRevisions: this.config.planHistoryMax(), now: () => this.replayTime ?? Date.now(), budget: this.budget }));
  /** Which plan step each piece of work belongs to (src/state/attribution). */
  readonly work = this._register(new WorkStore({ cwd: (a, s) => this.store.session(a, s)?.cwd }));
  readonly transcript = this._register(
    new Transcript({ budget: this.budget, onListenerError: (e) => this.logs.main.error(`transcript listener: ${String(e)}`) }),
  );
  readonly events = this._register(new SessionEvents((e) => this.logs.main.error(`session event listener: ${String(e)}`)));
  readonly intent = this._register(new IntentFeature(this.config, this.logs, this.plans));
  readonly elicitations = this._register(new Elicitations(this.store, this.transcript, { ...lazyElicitationUi, l10n: vscode.l10n }));
  readonly installed: InstalledAgents;
  readonly broker: PermissionBroker;
  readonly agents: AgentManager;
  readonly actions: SessionActions;
  /** What remote agents ask of VS Code (secrets, the host confirmation, words); its resolver is the tests' to set. */
  readonly remote: RemoteAgentsUi;
  private readonly ports = new Ports();
  private readonly starts: (() => void)[] = [];

  constructor(readonly context: vscode.ExtensionContext) {
    super();
    this.remote = this._register(remoteAgentsUi(context));
    this.broker = this._register(
      new PermissionBroker(
        context.globalState,
        this.store,
        { ...lazyConsentUi(() => this.port(ATTENTION)), l10n: vscode.l10n },
        (m) => this.logs.main.info(m),
        {
          inspector: (agentId, req) => this.intent.inspectPermission(agentId, req),
          toolKindOf: (agentId, req) => {
            const s = req.subject;
            const tc = s?.type === 'tool_call' ? this.transcript.session(sessionKey(agentId, req.sessionId))?.item(toolCallItemId(s.toolCallId)) : undefined;
            return tc?.kind === 'tool_call' ? tc.toolKind : undefined;
          },
        },
      ),
    );
    this.installed = this._register(new InstalledAgents(context.globalState));
    const consent = this._register(new ClientConsent(this.broker, this.store, (agentId) => this.agents.get(agentId)?.def.name ?? agentId, vscode.l10n));
    const terminals = this.terminals(consent);
    this.agents = this._register(
      new AgentManager({
        extensionPath: context.extensionPath,
        storagePath: context.globalStorageUri.fsPath,
        connect: lazyConnect,
        logs: this.logs,
        terminals,
        files: this.files(consent),
        config: this.config,
        installed: this.installed,
        requestPermission: (agentId, agentName, req, token) => this.broker.request(agentId, agentName, req, token),
        elicit: (agentId, agentName, req, token) => this.elicitations.request(agentId, agentName, req, token),
        elicitationComplete: (agentId, id) => this.elicitations.complete(agentId, id),
        wireTap: (agentId) => this.port(RECORDINGS)!.tap(agentId),
        remote: this.remote,
      }),
    );
    this.actions = this._register(
      new SessionActions({
        agents: this.agents,
        store: this.store,
        broker: this.broker,
        workspace: vscodeWorkspace,
        log: this.logs.main,
        ui: vscodeSessionActionsUi(this.logs.main),
        signInUi: lazySignInUi(this.logs.main),
        l10n: vscode.l10n,
        beforeTurn: (ref) => this.events.willStartTurn(ref),
      }),
    );
    this.wireAgents(terminals);
    this.wirePermissions();
    this.wireStores();
  }

  afterActivation(start: () => void): void {
    this.starts.push(start);
  }
  /** Every feature is active: their deferred starts run, in the features' order. */
  activated(): void {
    for (const start of this.starts.splice(0)) start();
  }
  offer<T>(key: PortKey<T>, value: T): void {
    this.ports.offer(key, value);
  }
  port<T>(key: PortKey<T>): T | undefined {
    return this.ports.get(key);
  }
  setReplayTime(t: number | undefined): void {
    this.replayTime = t;
  }

  /** The one path of an event into the stores, in arrival order; then the session events. */
  apply(agentId: string, e: SessionEvent): void {
    const t = Date.now();
    this.store.applyEvent(agentId, e);
    this.plans.apply(agentId, e);
    this.transcript.apply(e, sessionKey(agentId, e.sessionId));
    const declared = this.intent.apply(agentId, e);
    this.work.apply(agentId, e, this.replayTime ?? t);
    this.events.fireApplied({ agentId, event: e, t });
    // A declare_plan tool call declares an intent plan: applied (and kept) like one the agent sent.
    if (declared) this.apply(agentId, declared);
  }

  /** Client terminals: their output goes to the conversation and the session events; none outlives its agent. */
  private terminals(consent: ClientConsent): LazyTerminals {
    const terminals = new LazyTerminals({
      onOutput: (o) => {
        this.transcript.appendClientTerminalOutput(sessionKey(o.agentId, o.sessionId), o.terminalId, o.text, o.exit); // exit once, at the end
        this.events.fireTerminalOutput({
          agentId: o.agentId,
          sessionId: o.sessionId,
          terminalId: o.terminalId,
          text: o.text,
          ...(o.exit ? { exit: o.exit } : {}),
          t: Date.now(),
        });
      },
      roots: (agentId, sessionId) => this.agents.get(agentId)?.roots(sessionId) ?? [],
      approve: (req) => consent.approveCommand(req),
    });
    this._register(toDisposable(() => terminals.releaseAll()));
    return terminals;
  }

  /** Client file services: a worktree session reads and writes its worktree alone; each write is attributed and announced. */
  private files(consent: ClientConsent): LazyFiles {
    return new LazyFiles(
      { roots: (a, s) => this.port(TEAM)?.roots(a, s) ?? workspaceRoots(), confirm: (req) => consent.confirmWrite(req), l10n: vscode.l10n },
      (w) => {
        const t = Date.now();
        this.work.recordWrite(w.agentId, w.sessionId, w.path, w.before, w.after, t);
        this.events.fireWrite({ agentId: w.agentId, sessionId: w.sessionId, path: w.path, before: w.before, after: w.after, t });
      },
    );
  }

  /** Agent events into the stores, in arrival order; lifecycle into the SessionStore. */
  private wireAgents(terminals: LazyTerminals): void {
    this._register(this.agents.onDidReceiveEvent(({ agentId, event }) => this.apply(agentId, event)));
    this._register(
      this.agents.onDidChangeLifecycle(({ agentId, event }) => {
        this.actions.applyLifecycle(agentId, event);
        // No terminal process outlives its agent.
        if (event.kind === 'status' && event.status !== 'running' && event.status !== 'starting') {
          terminals.releaseAll({ agentId });
          this.elicitations.cancelAgent(agentId, vscode.l10n.t('Cancelled: the agent stopped before this was answered.'));
        }
        if (event.kind === 'session_detached' || event.kind === 'session_deleted') {
          terminals.releaseAll({ agentId, sessionId: event.sessionId });
          this.elicitations.cancelSession(agentId, event.sessionId, vscode.l10n.t('Cancelled: the session ended before this was answered.'));
        }
      }),
    );
    this._register(this.agents.onDidChangeDefinitions((agentId) => this.actions.definitionChanged(agentId)));
    // A crash or failure is shown with Show Log and Restart; Restart goes through SessionActions.
    // A restart on its own is a notice withdrawn once the agent is back (or gives up).
    const reconnecting = this._register(new ReconnectNotices(this.store));
    this._register(
      this.agents.onDidReport((r) => (r.restarting ? reconnecting.show(r.agentId, r.message) : this.actions.agentReported(r.agentId, r.message, r.severity))),
    );
  }

  /** The broker decides; the transcript renders each request and its answer once; the session events tell the rest. */
  private wirePermissions(): void {
    this._register(
      this.broker.onDidAsk((p) => {
        this.transcript.addPermissionRequest(p.request, { requestId: p.id, flags: [...p.flags], key: sessionKey(p.agentId, p.request.sessionId) });
        this.events.fireAsked({ agentId: p.agentId, sessionId: p.request.sessionId, id: p.id, request: p.request, flags: p.flags, t: Date.now() });
      }),
    );
    this._register(
      this.broker.onDidDecide((d) => {
        const key = sessionKey(d.agentId, d.sessionId);
        // Requests answered without asking (a user rule, the intent check) still show in the conversation.
        if (d.auto && !this.transcript.session(key)?.item(permissionItemId(d.id))) {
          const flags = d.auto.byRule ? ['allowed_by_rule'] : ['not_in_plan', 'auto_rejected'];
          this.transcript.addPermissionRequest(d.request, { requestId: d.id, flags, key });
          this.events.fireAsked({ agentId: d.agentId, sessionId: d.sessionId, id: d.id, request: d.request, flags, t: Date.now() });
        }
        this.transcript.resolvePermission(key, d.id, d.outcome);
        this.events.fireAnswered({ agentId: d.agentId, sessionId: d.sessionId, id: d.id, outcome: d.outcome, t: Date.now() });
        const approved = approvedPlanEvent(
          this.transcript.session(key)?.item(permissionItemId(d.id)),
          d.outcome,
          d.sessionId,
          this.plans.plans(d.agentId, d.sessionId),
        );
        if (approved) this.apply(d.agentId, approved);
      }),
    );
  }

  /** What the stores owe each other: cleared plans clear their work; a cut budget is said; limits follow the settings. */
  private wireStores(): void {
    this._register(
      this.plans.onDidChange((c) => {
        if (c.kind !== 'cleared') return;
        if (c.sessionId === undefined) this.work.clearAgent(c.agentId);
        else this.work.clearSession(c.agentId, c.sessionId);
      }),
    );
    this._register(this.budget.onDidCut((cut) => this.sayCut(cut)));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`acp.${SETTINGS.planHistoryMax}`)) this.plans.setMaxRevisions(this.config.planHistoryMax());
        if (e.affectsConfiguration(`acp.${SETTINGS.agentMemoryMiB}`)) this.budget.setLimit(this.config.agentMemoryBytes());
        if (e.affectsConfiguration(`acp.${SETTINGS.totalMemoryMiB}`)) this.budget.setTotalLimit(this.config.totalMemoryBytes());
      }),
    );
  }

  /** An agent passed its memory budget or a count cap: said once, in the session and the log. */
  private sayCut(cut: BudgetCut): void {
    const text = budgetCutText(this.agents.get(cut.agentId)?.def.name ?? cut.agentId, cut);
    this.logs.main.warn(text);
    if (cut.sessionId !== undefined) this.apply(cut.agentId, { kind: 'notice', sessionId: cut.sessionId, severity: 'warning', title: text });
  }
}
