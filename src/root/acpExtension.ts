// The composition root: builds the stores, the agents layer, the application services and the
// views, and wires each once. Data flows one way: agent → supervisor → AgentManager events →
// stores (SessionStore, PlanStore, Transcript, intent) → views; user actions flow back through
// SessionActions and the PermissionBroker. Everything is owned by this object.
import * as path from 'path';
import * as vscode from 'vscode';
import { lazyConnect } from '../agents/lazyConnect';
import type { SessionEvent } from '../protocol/domain';
import { Disposable, toDisposable } from '../common/lifecycle';
import { Config, SETTINGS } from '../platform/config';
import { Logs } from '../agents/logs';
import { LazyFiles, LazyTerminals } from '../agents/lazyClientServices';
import { workspaceRoots } from '../platform/workspace';
import { AgentManager } from '../agents/agentManager';
import { InstalledAgents } from '../agents/installedAgents';
import { registerRegistryCommands, registryLoader } from '../ui/registryCommands';
import type { RegistryAgentActions } from '../registry/api';
import { parseSessionKey, sessionKey, SessionStore, type SessionKey } from '../state/sessionStore';
import { PlanStore } from '../state/planStore';
import { AgentBudget, budgetCutText, type BudgetCut } from '../state/agentBudget';
import { MAX_TEXT_CHARS, WorkStore } from '../state/attribution/workStore';
import { permissionItemId, toolCallItemId, Transcript } from '../state/transcript';
import { remoteAgentsUi } from '../ui/remoteAgents';
import {
  HISTORY_COMMANDS,
  historyCommandsModule,
  RECORDING_COMMANDS,
  recordingCommandsModule,
  registerLazyCommands,
  registerSessionCommands,
} from '../ui/lazyCommands';
import { createPlansUi, type PlansUi } from '../ui/plansUi';
import { Conversation } from '../ui/conversation';
import { WorkCommands } from '../ui/workCommands';
import { ContextKeys } from '../ui/contextKeys';
import { PermissionBroker } from '../app/permissionBroker';
import { Elicitations } from '../app/elicitations';
import { approvedPlanEvent } from '../app/planApproval';
import { wireAttention, type AttentionWiring } from './attentionWiring';
import { vscodeSessionActionsUi, vscodeWorkspace } from '../ui/sessionPrompts';
import { lazyConsentUi, lazyElicitationUi, lazySignInUi } from '../ui/lazyDialogs';
import { SessionActions } from '../app/sessionActions';
import { IntentFeature } from '../app/intentFeature';
import { ClientConsent } from '../app/clientConsent';
import type { SessionHistory } from '../app/history/sessionHistory';
import type { Checkpoints } from '../app/checkpoints/checkpoints';
import { createCheckpoints } from './checkpointWiring';
import { createTeam, type TeamParts } from './teamWiring';
import { createHistory, restoreHistory } from './historyWiring';
import { Recordings } from '../recording/recordings';

export class AcpExtension extends Disposable {
  readonly config = new Config();
  readonly logs = this._register(new Logs(this.config));
  /** One memory budget per agent, drawn from by its plans and conversations (src/state/agentBudget.ts). */
  readonly budget = this._register(new AgentBudget(this.config.agentMemoryBytes()));
  readonly store = this._register(new SessionStore({ budget: this.budget }));
  /** While a stored session is replayed, the time its records arrived (plan revisions keep it). */
  private replayTime: number | undefined;
  readonly plans = this._register(new PlanStore({ maxRevisions: this.config.planHistoryMax(), now: () => this.replayTime ?? Date.now(), budget: this.budget }));
  /** Which plan step each piece of work belongs to (src/state/attribution). */
  readonly work = this._register(new WorkStore());
  readonly transcript = this._register(
    new Transcript({ budget: this.budget, onListenerError: (e) => this.logs.main.error(`transcript listener: ${String(e)}`) }),
  );
  readonly broker: PermissionBroker;
  readonly elicitations = this._register(new Elicitations(this.store, this.transcript, { ...lazyElicitationUi, l10n: vscode.l10n }));
  readonly intent: IntentFeature;
  readonly agents: AgentManager;
  readonly actions: SessionActions;
  readonly plansUi: PlansUi;
  readonly conversation: Conversation;
  readonly workCommands: WorkCommands;
  readonly team: TeamParts;
  /** The durable history of this workspace's sessions (none without a workspace, or when turned off). */
  readonly history: SessionHistory | undefined;
  /** Where the history is written (the extension's workspace storage), when it is on. */
  historyDir: string | undefined;
  /** Checkpoints of the workspace folders while agents work (src/app/checkpoints); none without workspace storage. */
  readonly checkpoints: Checkpoints | undefined;
  readonly recordings: Recordings;
  private attention: AttentionWiring | undefined;

  constructor(context: vscode.ExtensionContext) {
    super();
    this.broker = this._register(
      new PermissionBroker(context.globalState, this.store, { ...lazyConsentUi(() => this.attention?.consent), l10n: vscode.l10n }, (m) =>
        this.logs.main.info(m),
      ),
    );
    this.intent = this._register(new IntentFeature(this.config, this.logs, this.plans));
    this.broker.inspector = (agentId, req) => this.intent.inspectPermission(agentId, req);
    this.broker.toolKindOf = (agentId, req) => {
      const s = req.subject;
      const tc = s?.type === 'tool_call' ? this.transcript.session(sessionKey(agentId, req.sessionId))?.item(toolCallItemId(s.toolCallId)) : undefined;
      return tc?.kind === 'tool_call' ? tc.toolKind : undefined;
    };
    const consent = this._register(new ClientConsent(this.broker, this.store, (agentId) => this.agents.get(agentId)?.def.name ?? agentId, vscode.l10n));
    const terminals = new LazyTerminals({
      onOutput: (t) => {
        this.transcript.appendClientTerminalOutput(sessionKey(t.agentId, t.sessionId), t.terminalId, t.text, t.exit); // exit once, at the end
        this.history?.record(t.agentId, t.sessionId, { t: Date.now(), term: { terminalId: t.terminalId, text: t.text, ...(t.exit ? { exit: t.exit } : {}) } });
      },
      roots: (agentId, sessionId) => this.agents.get(agentId)?.roots(sessionId) ?? [],
      approve: (req) => consent.approveCommand(req),
    });
    this._register(toDisposable(() => terminals.releaseAll()));
    this.team = this._register(createTeam(this, context));
    const files = new LazyFiles({ roots: (a, s) => this.team.roots(a, s), confirm: (req) => consent.confirmWrite(req), l10n: vscode.l10n }, (w) => {
      this.work.recordWrite(w.agentId, w.sessionId, w.path, w.before, w.after, Date.now());
      if ((w.before?.length ?? 0) + w.after.length <= 2 * MAX_TEXT_CHARS)
        this.history?.record(w.agentId, w.sessionId, { t: Date.now(), write: { path: w.path, before: w.before, after: w.after } });
    });
    const installed = this._register(new InstalledAgents(context.globalState));
    // Record and replay traffic (src/recording): a tap on every connection; replays feed apply().
    this.recordings = this._register(
      new Recordings({
        storagePath: context.globalStorageUri.fsPath,
        store: this.store,
        plans: this.plans,
        transcript: this.transcript,
        apply: (agentId, e) => this.apply(agentId, e),
        agents: () => this.agents,
        log: this.logs.main,
      }),
    );
    this._register(
      registerLazyCommands(RECORDING_COMMANDS, () =>
        recordingCommandsModule().recordingCommands(this.recordings, () => this.agents.all().map((s) => ({ id: s.id, name: s.def.name }))),
      ),
    );
    this.agents = this._register(
      new AgentManager({
        extensionPath: context.extensionPath,
        storagePath: context.globalStorageUri.fsPath,
        connect: lazyConnect,
        logs: this.logs,
        terminals,
        files,
        config: this.config,
        installed,
        requestPermission: (agentId, agentName, req, token) => this.broker.request(agentId, agentName, req, token),
        elicit: (agentId, agentName, req, token) => this.elicitations.request(agentId, agentName, req, token),
        elicitationComplete: (agentId, id) => this.elicitations.complete(agentId, id),
        wireTap: (agentId) => this.recordings.tap(agentId),
        remote: this._register(remoteAgentsUi(context)),
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
        beforeTurn: (ref) => this.checkpoints?.turnStarting(ref.agentId, ref.sessionId) ?? Promise.resolve(),
      }),
    );
    const storage = context.storageUri?.fsPath;
    if (storage && this.config.historyEnabled()) {
      this.historyDir = path.join(storage, 'history');
      const h = createHistory({
        dir: this.historyDir,
        config: this.config,
        store: this.store,
        plans: this.plans,
        transcript: this.transcript,
        work: this.work,
        agentName: (agentId) => this.agents.get(agentId)?.def.name ?? this.store.agent(agentId)?.name ?? agentId,
        setReplayTime: (t) => (this.replayTime = t),
        warn: (m) => this.logs.main.warn(`[history] ${m}`),
        removed: (agentId, sessionId) => void this.checkpoints?.forget(agentId, sessionId, workspaceRoots()),
        worktrees: this.team.sessions,
      });
      this.history = h.history;
      this._register(h.disposable);
    }
    if (storage) {
      const c = createCheckpoints({
        storageDir: storage,
        config: this.config,
        work: this.work,
        store: this.store,
        history: () => this.history,
        roots: (agentId, sessionId) => this.agents.get(agentId)?.roots(sessionId),
        log: (line) => this.logs.main.info(line),
      });
      this.checkpoints = c.checkpoints;
      this._register(c.disposable);
    }
    this.plansUi = this._register(
      createPlansUi(this.store, this.plans, {
        ...(this.history ? { restoring: this.history } : {}),
        intent: this.intent,
        agentMarks: this.recordings,
        foldDoneStepsAfter: () => this.config.foldDoneStepsAfter(),
        transcript: this.transcript,
        work: this.work,
        worktrees: this.team.sessions,
        timeline: (ref) => this.workCommands.showTimeline(ref),
      }),
    );
    this.conversation = this._register(
      new Conversation({
        extensionUri: context.extensionUri,
        transcript: this.transcript,
        log: this.logs.main,
        // The conversation knows sessions by sessionKey(agent, session).
        promptCapabilities: (key) => {
          const ref = parseSessionKey(key);
          return ref && this.agents.get(ref.agentId)?.connection?.capabilities.prompt;
        },
        sessionFacts: {
          get: (key) => {
            const ref = parseSessionKey(key);
            const s = ref && this.store.session(ref.agentId, ref.sessionId);
            const prompt = s && this.agents.get(s.agentId)?.connection?.capabilities.prompt;
            return s && (prompt ? { ...s, accepts: { image: prompt.image, audio: prompt.audio } } : s);
          },
          onDidChange: (listener) =>
            this.store.onDidChange((c) => {
              if (c.scope === 'session') listener(sessionKey(c.agentId, c.sessionId));
            }),
        },
      }),
    );
    this._register(this.conversation.registerView());
    this._register((this.attention = wireAttention(this)).watcher);
    this.workCommands = this._register(new WorkCommands(this.work, this.store, this.conversation, this.checkpoints));
    this._register(
      this.plans.onDidChange((c) => {
        if (c.kind !== 'cleared') return;
        if (c.sessionId === undefined) this.work.clearAgent(c.agentId);
        else this.work.clearSession(c.agentId, c.sessionId);
      }),
    );
    this._register(this.budget.onDidCut((cut) => this.sayCut(cut)));
    this.wireAgents(terminals);
    this.wirePermissions();
    this.wireConversation();
    this._register(registerSessionCommands({ actions: this.actions, store: this.store, broker: this.broker, logs: this.logs, agents: this.agents }));
    this._register(vscode.commands.registerCommand('acp.openConversation', () => this.conversation.openPanel()));
    this._register(registerLazyCommands(HISTORY_COMMANDS, () => historyCommandsModule().historyCommands(this.history, this.store)));
    this._register(
      registerRegistryCommands(
        {
          storageRoot: path.join(context.globalStorageUri.fsPath, 'registry'),
          installed,
          agents: this.registryAgentActions(),
          log: this.logs.main,
          own: (d) => this._register(d),
        },
        registryLoader(context.extensionPath),
      ),
    );
    const configured = (): boolean => {
      const raw = this.config.agentsRaw();
      return (Array.isArray(raw) && raw.length > 0) || installed.list().length > 0;
    };
    const plansOfSession = {
      hasPlans: (agentId: string, sessionId: string) => this.plans.plans(agentId, sessionId).length > 0,
      onDidChange: this.plans.onDidChange,
    };
    this._register(new ContextKeys(this.store, configured, installed.onDidChange, plansOfSession));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`acp.${SETTINGS.planHistoryMax}`)) this.plans.setMaxRevisions(this.config.planHistoryMax());
        if (e.affectsConfiguration(`acp.${SETTINGS.agentMemoryMiB}`)) this.budget.setLimit(this.config.agentMemoryBytes());
        if (e.affectsConfiguration(`acp.${SETTINGS.foldDoneStepsAfter}`)) this.plansUi.tree.refreshAll();
      }),
    );
    if (this.history) this._register(restoreHistory(this.history, this.logs.main));
  }

  /** The agent actions the registry module may take: SessionActions, and agent status from the SessionStore. */
  private registryAgentActions(): RegistryAgentActions {
    return {
      status: (agentId) => this.store.agent(agentId)?.status,
      startAgent: async (agentId) => ({ authMethods: (await this.actions.startAgent(agentId)).connection?.authMethods.map((m) => m.name) ?? [] }),
      stopAgent: (agentId) => this.actions.stopAgent(agentId),
      restartAgent: (agentId) => this.actions.restartAgent(agentId),
    };
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
    this._register(this.agents.onDidReport((r) => this.actions.agentReported(r.agentId, r.message, r.severity)));
  }

  private apply(agentId: string, e: SessionEvent): void {
    this.store.applyEvent(agentId, e);
    this.plans.apply(agentId, e);
    this.transcript.apply(e, sessionKey(agentId, e.sessionId));
    const declared = this.intent.apply(agentId, e);
    this.work.apply(agentId, e, this.replayTime ?? Date.now());
    this.checkpoints?.afterEvent(agentId, e);
    this.history?.record(agentId, e.sessionId, { t: Date.now(), e });
    // A declare_plan tool call declares an intent plan: applied (and kept) like one the agent sent.
    if (declared) this.apply(agentId, declared);
  }

  /** An agent passed its memory budget or a count cap: said once, in the session and the log. */
  private sayCut(cut: BudgetCut): void {
    const text = budgetCutText(this.agents.get(cut.agentId)?.def.name ?? cut.agentId, cut);
    this.logs.main.warn(text);
    if (cut.sessionId !== undefined) this.apply(cut.agentId, { kind: 'notice', sessionId: cut.sessionId, severity: 'warning', title: text });
  }

  /** The broker decides; the transcript renders each request and its answer once. */
  private wirePermissions(): void {
    this._register(
      this.broker.onDidAsk((p) => {
        this.transcript.addPermissionRequest(p.request, { requestId: p.id, flags: [...p.flags], key: sessionKey(p.agentId, p.request.sessionId) });
        this.history?.record(p.agentId, p.request.sessionId, { t: Date.now(), ask: { id: p.id, request: p.request, flags: p.flags } });
      }),
    );
    this._register(
      this.broker.onDidDecide((d) => {
        const key = sessionKey(d.agentId, d.sessionId);
        // Requests answered without asking (a user rule, the intent check) still show in the conversation.
        if (d.auto && !this.transcript.session(key)?.item(permissionItemId(d.id))) {
          const flags = d.auto.byRule ? ['allowed_by_rule'] : ['not_in_plan', 'auto_rejected'];
          this.transcript.addPermissionRequest(d.request, { requestId: d.id, flags, key });
          this.history?.record(d.agentId, d.sessionId, { t: Date.now(), ask: { id: d.id, request: d.request, flags } });
        }
        this.transcript.resolvePermission(key, d.id, d.outcome);
        this.history?.record(d.agentId, d.sessionId, { t: Date.now(), answer: { id: d.id, outcome: d.outcome } });
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

  /** The conversation's user actions go straight to the services that act on them. */
  private wireConversation(): void {
    const c = this.conversation;
    const act = (key: string, f: (ref: SessionKey) => unknown): void => {
      const ref = parseSessionKey(key);
      if (!ref) return;
      Promise.resolve()
        .then(() => f(ref))
        .catch((err: unknown) => void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err)));
    };
    this._register(c.onDidSelectPermissionOption((p) => void this.broker.choose(p.requestId, { index: p.option })));
    this._register(c.onDidAnswerElicitation((p) => void this.elicitations.answer(p.requestId, p.action, p.values)));
    this._register(c.onDidRequestCancel(({ sessionId }) => act(sessionId, (ref) => this.actions.cancel(ref))));
    this._register(c.onDidSetConfigOption(({ sessionId, configId, value }) => act(sessionId, (ref) => this.actions.setConfigOption(ref, configId, value))));
    this._register(c.onDidRemoveQueuedPrompt(({ sessionId, id }) => act(sessionId, (ref) => this.actions.removeQueued(ref, id))));
    this._register(
      c.onDidSubmitPrompt((p) => {
        const active = this.store.activeSession;
        const key = p.sessionId ?? (active && sessionKey(active.agentId, active.sessionId));
        if (key) act(key, (ref) => this.actions.prompt(ref, p.blocks));
        else void vscode.commands.executeCommand('acp.sendPrompt', p.text); // offers to start an agent
      }),
    );
    this._register(
      this.store.onDidChange((ch) => {
        if (ch.scope === 'active') this.conversation.setActiveSession(ch.current && sessionKey(ch.current.agentId, ch.current.sessionId));
        const added = ch.scope === 'session' && ch.kind === 'added' ? this.store.session(ch.agentId, ch.sessionId) : undefined;
        if (added?.live && !added.parentSessionId) void this.revealSession(added);
      }),
    );
  }

  /** Shows a new session in the Plans view, expanded under its agent (without taking focus). */
  private async revealSession(ref: SessionKey): Promise<void> {
    const tree = this.plansUi.tree;
    const agent = tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === ref.agentId);
    const session = agent && tree.getChildren(agent).find((n) => n.kind === 'session' && n.sessionId === ref.sessionId);
    if (session) await this.plansUi.treeView.reveal(session, { expand: true, select: false, focus: false }).then(undefined, () => undefined);
  }
}
