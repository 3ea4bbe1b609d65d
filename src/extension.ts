// Activation: builds the stores, the agents layer and the UI, wires them together, and returns
// the public API. Everything created here is owned by `context.subscriptions`.
import * as vscode from 'vscode';
import { connect } from './protocol/connect';
import type { ContentBlock, SessionEvent } from './protocol/events';
import { PlanStore } from './state/planStore';
import { Registry } from './state/registry';
import { permissionItemId, Transcript } from './state/transcript';
import { Config, SETTINGS } from './config';
import { Logs } from './agents/logs';
import { PermissionBroker } from './agents/permissionBroker';
import { TerminalService } from './agents/terminalService';
import { FileService, workspaceRoots } from './agents/fsService';
import { AgentManager } from './agents/agentManager';
import { registerAgentCommands, sendPrompt } from './ui/agentCommands';
import { createPlansUi, type PlansUi } from './ui/plansUi';
import { Conversation } from './ui/conversation';
import { ContextKeys } from './ui/contextKeys';
import { IntentChecks } from './ui/intentChecks';
import { createApi, type AcpPlansApi } from './api';

export function activate(context: vscode.ExtensionContext): AcpPlansApi {
  const t0 = performance.now();
  const own = <T extends vscode.Disposable>(d: T): T => { context.subscriptions.push(d); return d; };
  const config = new Config();
  const logs = own(new Logs(config));

  const registry = own(new Registry());
  const plans = own(new PlanStore({ maxRevisions: config.planHistoryMax() }));
  const transcript = own(new Transcript({ onListenerError: (e) => logs.main.error(`transcript listener: ${String(e)}`) }));
  const broker = own(new PermissionBroker(context.globalState));
  const intent = own(new IntentChecks(config, logs, plans));
  broker.inspector = (agentId, req) => intent.inspectPermission(agentId, req);

  const onEvent = (agentId: string, e: SessionEvent): void => {
    registry.apply(agentId, e);
    plans.apply(agentId, e);
    transcript.apply(e);
    intent.apply(agentId, e);
  };

  let agents: AgentManager | undefined = undefined;
  // Not yet connected to the permission broker: until then no client terminal runs and no file that
  // runs code later is written (see the contracts atop terminalService.ts and fileAccess.ts).
  const terminals = new TerminalService({
    onOutput: (t) => transcript.appendClientTerminalOutput(t.sessionId, t.terminalId, t.text, t.exit), // exit only once: the rest are appends
    roots: (agentId, sessionId) => { const cwd = agents?.get(agentId)?.sessions.get(sessionId)?.cwd; return cwd ? [cwd] : []; },
    approve: () => Promise.resolve(false),
  });
  own({ dispose: () => terminals.dispose() });
  const files = new FileService({ roots: () => workspaceRoots(), confirm: () => Promise.resolve(false) });
  agents = own(new AgentManager({
    extensionPath: context.extensionPath,
    storagePath: context.globalStorageUri.fsPath,
    connect, logs, broker, terminals, files, onEvent, config,
  }));
  const manager = agents;

  // Agents → registry (name, version, status) and the session queues → transcript.
  const syncAgent = (agentId: string): void => {
    const sup = manager.get(agentId);
    if (!sup) { registry.removeAgent(agentId); return; }
    // An agent appears in the Plans tree once it has been started (until then the view's
    // welcome content offers to start one).
    if (sup.status !== 'running' && sup.status !== 'starting') {
      terminals.releaseAll({ agentId }); // no process outlives its agent
    }
    if (sup.status === 'stopped' && sup.sessions.size === 0 && !registry.agent(agentId)) return;
    registry.upsertAgent({ id: sup.id, name: sup.def.name, status: sup.status, ...(sup.lastError ? { detail: sup.lastError } : {}), ...(sup.version ? { protocolVersion: sup.version } : {}) });
    for (const s of sup.sessions.values()) {
      transcript.setQueuedPrompts(s.sessionId, s.queue.map((q) => ({ id: q.id, text: promptText(q.blocks) })));
    }
  };
  own(manager.onDidChange(syncAgent));
  for (const sup of manager.all()) syncAgent(sup.id);

  // Permissions: shown inline in the conversation and answered from there or from a notification.
  own(broker.onDidChange(() => {
    for (const s of registry.sessions()) registry.setPendingPermissions(s.agentId, s.sessionId, broker.pendingFor(s.sessionId).length);
    for (const p of broker.pending) {
      const item = transcript.session(p.request.sessionId)?.item(permissionItemId(p.id));
      if (!item) transcript.addPermissionRequest(p.request, { requestId: p.id, flags: p.flags });
    }
  }));
  own(broker.onDidDecide((d) => {
    // Requests answered without asking (a user rule, the intent check) still show in the conversation.
    if (d.auto && !transcript.session(d.sessionId)?.item(permissionItemId(d.id))) {
      transcript.addPermissionRequest(d.request, { requestId: d.id, flags: d.auto.byRule ? ['allowed_by_rule'] : ['not_in_plan', 'auto_rejected'] });
    }
    transcript.resolvePermission(d.sessionId, d.id, d.outcome);
  }));

  const plansUi = own(createPlansUi(registry, plans, { intent }));
  const conversation = own(new Conversation({
    extensionUri: context.extensionUri,
    transcript,
    promptCapabilities: (sessionId) => manager.all().find((a) => a.sessions.has(sessionId))?.connection?.capabilities.prompt,
    log: logs.main,
  }));
  own(conversation.registerView());
  own(conversation.onDidSelectPermissionOption((p) => void broker.respond(p.requestId, p.optionId)));
  own(conversation.onDidRequestCancel(({ sessionId }) => {
    const ref = registry.sessions().find((s) => s.sessionId === sessionId);
    if (ref) void vscode.commands.executeCommand('acp.cancelTurn', { agentId: ref.agentId, sessionId });
  }));
  own(conversation.onDidSetConfigOption(({ sessionId, configId, value }) => {
    const ref = registry.sessions().find((s) => s.sessionId === sessionId);
    if (ref) void vscode.commands.executeCommand('acp.setConfigOption', { agentId: ref.agentId, sessionId }, configId, value);
  }));
  own(conversation.onDidRemoveQueuedPrompt(({ sessionId, id }) => {
    const sup = manager.all().find((a) => a.sessions.has(sessionId));
    const s = sup?.sessions.get(sessionId);
    const index = s ? s.queue.findIndex((q) => q.id === id) : -1;
    if (sup && s && index >= 0) { s.queue.splice(index, 1); syncAgent(sup.id); }
  }));

  const commandDeps = { agents: manager, registry, broker, logs };
  own(conversation.onDidSubmitPrompt((p) => {
    const active = registry.activeSession;
    const ref = p.sessionId ? registry.sessions().find((s) => s.sessionId === p.sessionId) : active && registry.session(active.agentId, active.sessionId);
    if (!ref) { void vscode.commands.executeCommand('acp.sendPrompt', p.text); return; }
    try { sendPrompt(commandDeps, { agentId: ref.agentId, sessionId: ref.sessionId }, p.blocks); } catch (err) {
      void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
    }
  }));
  own(registry.onDidChange((c) => {
    if (c.scope === 'active') conversation.setActiveSession(registry.activeSession?.sessionId);
    if (c.scope === 'session' && c.kind === 'added') void revealSession(plansUi, c.agentId, c.sessionId);
  }));
  own(registerAgentCommands(commandDeps));
  own(vscode.commands.registerCommand('acp.openConversation', () => conversation.openPanel()));
  own(new ContextKeys(registry, manager, () => config.agentsRaw()));
  own(vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(`acp.${SETTINGS.planHistoryMax}`)) plans.setMaxRevisions(config.planHistoryMax());
  }));

  const activationMs = performance.now() - t0;
  logs.main.info(`activated in ${activationMs.toFixed(1)} ms`);
  return createApi({ registry, plans, transcript, agents: manager, broker, conversation, plansUi, intent, activationMs });
}

/** Shows a new session in the Plans view, expanded under its agent (without taking focus). */
async function revealSession(ui: PlansUi, agentId: string, sessionId: string): Promise<void> {
  const agent = ui.tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === agentId);
  const session = agent && ui.tree.getChildren(agent).find((n) => n.kind === 'session' && n.sessionId === sessionId);
  if (session) await ui.treeView.reveal(session, { expand: true, select: false, focus: false }).then(undefined, () => undefined);
}

function promptText(blocks: ContentBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? `@${b.name}` : '')).filter(Boolean).join(' ');
}

export function deactivate(): void { /* everything is disposed through context.subscriptions */ }
