// Commands that drive agents and sessions: one table, loaded the first time one of them runs
// (sessionCommands.ts, registered by id in lazyCommands.ts); handlers get their services injected and act through SessionActions (the one path to an agent), reading agents and
// sessions from the SessionStore (pickers get SessionActions.agentChoices) and rules from the
// PermissionBroker. Each returns something useful to callers (tests, other extensions).
import * as vscode from 'vscode';
import { UntrustedWorkspaceError } from '../platform/workspace';
import type { AgentChoice } from '../app/agentPorts';
import type { PermissionRule } from '../consent/ruleTypes';
import type { PermissionBroker } from '../app/permissionBroker';
import type { SessionActions } from '../app/sessionActions';
import { isSessionKey, type SessionKey, type SessionStore } from '../state/sessionStore';
import type { CommandLog } from './commandLog';
import type { AGENT_COMMANDS, CommandTable, IdsOf } from './lazyCommands';
import { pickListedSession } from './sessionListPick';

export interface AgentCommandDeps {
  actions: SessionActions;
  store: SessionStore;
  broker: PermissionBroker;
  logs: CommandLog;
}

/** The handler of each agent and session command: one line each, the work in the named functions below. */
export function agentCommands(deps: AgentCommandDeps): CommandTable<IdsOf<typeof AGENT_COMMANDS>> {
  const { logs } = deps;
  /** Runs a handler; a failure is logged and shown (with what to do), and the command returns undefined. */
  const guard = <T>(run: () => Promise<T>): Promise<T | undefined> => attempt(logs, run);
  return {
    'acp.startAgent': (arg) => guard(() => startAgent(deps, arg)),
    'acp.stopAgent': (arg) => stopAgent(deps, arg),
    'acp.restartAgent': (arg) => guard(() => restartAgent(deps, arg)),
    'acp.newSession': (arg) => guard(() => newSession(deps, arg)),
    'acp.sendPrompt': (arg, text?: unknown) => guard(() => sendPrompt(deps, arg, text)),
    'acp.cancelTurn': (arg) => cancelTurn(deps, arg),
    'acp.openSettings': () => vscode.commands.executeCommand('workbench.action.openSettings', 'acp.'),
    'acp.showLog': () => logs.main.show(true),
    'acp.showTrace': () => logs.trace.show(true),
    'acp.signIn': (arg) => guard(() => signIn(deps, arg)),
    'acp.signOut': (arg) => guard(() => signOut(deps, arg)),
    'acp.resumeSession': (arg, sessionArg?: unknown) => guard(() => resumeSession(deps, arg, sessionArg)),
    'acp.closeSession': (arg) => guard(() => closeSession(deps, arg)),
    'acp.deleteSession': (arg) => guard(() => deleteSession(deps, arg)),
    'acp.setConfigOption': (arg, configId?: unknown, value?: unknown) => guard(() => setConfigOption(deps, arg, configId, value)),
    'acp.managePermissionRules': () => managePermissionRules(deps),
  };
}

// ------------------------------------------------------------------ agents

async function startAgent({ actions }: AgentCommandDeps, arg: unknown): Promise<SessionKey | undefined> {
  const agent = await pickAgent(actions, arg, false);
  if (!agent) return undefined;
  return await actions.newSession(agent.id);
}

async function stopAgent({ actions }: AgentCommandDeps, arg: unknown): Promise<boolean> {
  const agent = await pickAgent(actions, arg, true);
  if (!agent) return false;
  await actions.stopAgent(agent.id);
  return true;
}

async function restartAgent({ actions }: AgentCommandDeps, arg: unknown): Promise<boolean> {
  const agent = (await pickAgent(actions, arg, true)) ?? (await pickAgent(actions, arg, false));
  if (!agent) return false;
  await actions.restartAgent(agent.id);
  return true;
}

async function newSession({ actions }: AgentCommandDeps, arg: unknown): Promise<SessionKey | undefined> {
  const agent = (await pickAgent(actions, arg, true)) ?? (await pickAgent(actions, undefined, false));
  if (!agent) return undefined;
  return await actions.newSession(agent.id);
}

/** Agent methods through authenticate; terminal methods in a terminal, then a restart. */
async function signIn({ actions }: AgentCommandDeps, arg: unknown): Promise<boolean> {
  const agent = await pickAgent(actions, arg, true);
  if (agent?.status !== 'running') return false;
  return await actions.signIn(agent.id);
}

async function signOut({ actions }: AgentCommandDeps, arg: unknown): Promise<boolean> {
  const agent = await pickAgent(actions, arg, true);
  if (agent?.status !== 'running') return false;
  return await actions.signOut(agent.id);
}

// ------------------------------------------------------------------ sessions

async function sendPrompt({ actions, store }: AgentCommandDeps, arg: unknown, text: unknown): Promise<boolean> {
  let ref = sessionOf(store, arg);
  let prompt = typeof arg === 'string' ? arg : typeof text === 'string' ? text : undefined;
  if (!ref) {
    const start = await vscode.window.showInformationMessage(vscode.l10n.t('No agent session is open.'), vscode.l10n.t('Start Agent…'));
    if (!start) return false;
    ref = await vscode.commands.executeCommand<SessionKey | undefined>('acp.startAgent');
    if (!ref) return false;
  }
  // Kept open when focus moves: a walkthrough button refocuses its page right after running the command.
  prompt ??= await vscode.window.showInputBox({
    prompt: vscode.l10n.t('Prompt for the agent'),
    placeHolder: vscode.l10n.t('What should the agent do?'),
    ignoreFocusOut: true,
  });
  if (!prompt) return false;
  actions.prompt(ref, [{ type: 'text', text: prompt }]);
  return true;
}

function cancelTurn({ actions, store }: AgentCommandDeps, arg: unknown): boolean {
  const ref = sessionOf(store, arg);
  if (!ref) return false;
  actions.cancel(ref);
  return true;
}

async function resumeSession({ actions, store }: AgentCommandDeps, arg: unknown, sessionArg: unknown): Promise<SessionKey | undefined> {
  // A session row (a stored session of a stopped agent too): start its agent and resume it.
  if (isSessionKey(arg)) return await actions.resume(arg.agentId, arg.sessionId);
  if (typeof arg === 'string' && typeof sessionArg === 'string') return await actions.resume(arg, sessionArg);
  // From the palette with a stored (not running) session shown: resume that one.
  const shown = store.activeSession;
  if (arg === undefined && shown && store.session(shown.agentId, shown.sessionId)?.live === false) return await actions.resume(shown.agentId, shown.sessionId);
  const agent = await pickAgent(actions, arg, true);
  if (agent?.status !== 'running') return undefined;
  // Programmatic form: (agentId, sessionId) resumes that session.
  if (typeof sessionArg === 'string') return await actions.resume(agent.id, sessionArg);
  if (!actions.canListSessions(agent.id)) return undefined;
  const picked = await pickListedSession((cursor) => actions.listSessions(agent.id, cursor));
  if (!picked) return undefined;
  return await actions.resume(agent.id, picked.sessionId, { cwd: picked.cwd, ...(picked.title ? { title: picked.title } : {}) });
}

async function closeSession({ actions, store }: AgentCommandDeps, arg: unknown): Promise<boolean> {
  const ref = sessionOf(store, arg);
  if (!ref) return false;
  await actions.closeSession(ref);
  return true;
}

async function deleteSession({ actions, store }: AgentCommandDeps, arg: unknown): Promise<boolean> {
  const ref = sessionOf(store, arg);
  if (!ref) return false;
  const del = vscode.l10n.t('Delete');
  const ok = await vscode.window.showWarningMessage(
    vscode.l10n.t('Delete this session on the agent? Its plans stay in the Plans history.'),
    { modal: true },
    del,
  );
  if (ok !== del) return false;
  await actions.deleteSession(ref);
  return true;
}

/** Sets `configId` to `value` when both are given, else asks which setting and its new value. */
async function setConfigOption({ actions, store }: AgentCommandDeps, arg: unknown, configId: unknown, value: unknown): Promise<boolean> {
  const ref = sessionOf(store, arg);
  if (!ref || store.agent(ref.agentId)?.status !== 'running') return false;
  if (typeof configId === 'string' && (typeof value === 'string' || typeof value === 'boolean')) {
    await actions.setConfigOption(ref, configId, value);
    return true;
  }
  const options = store.session(ref.agentId, ref.sessionId)?.configOptions ?? [];
  const opt = await vscode.window.showQuickPick(
    options.map((o) => ({ label: o.name, description: o.kind === 'unknown' ? '' : String(o.currentValue), o })),
    { placeHolder: vscode.l10n.t('Change which setting?') },
  );
  if (!opt) return false;
  const o = opt.o;
  if (o.kind === 'select') {
    const v = await vscode.window.showQuickPick(
      o.options.map((x) => ({
        label: x.name,
        description: x.value === o.currentValue ? vscode.l10n.t('current') : (x.description ?? ''),
        value: x.value,
      })),
    );
    if (v) await actions.setConfigOption(ref, o.id, v.value);
  } else if (o.kind === 'boolean') {
    await actions.setConfigOption(ref, o.id, !o.currentValue);
  }
  return true;
}

async function managePermissionRules({ actions, broker }: AgentCommandDeps): Promise<PermissionRule[]> {
  const rules = broker.rules;
  if (rules.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No permission rules. Choosing an agent\'s "always allow" option creates one.'));
    return [];
  }
  const picks = await vscode.window.showQuickPick(
    rules.map((r) => ({ label: broker.describe(r, actions.agentName(r.agentId)), r })),
    { canPickMany: true, placeHolder: vscode.l10n.t('Select the rules to revoke') },
  );
  for (const p of picks ?? []) await broker.removeRule(p.r);
  return broker.rules;
}

// ------------------------------------------------------------------ asking and failing

/** Runs `run`; a failure is logged and shown, and the result is undefined. */
async function attempt<T>(logs: CommandLog, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (err) {
    return fail(logs, err);
  }
}

/** Logs and shows a failure, with what to do: manage workspace trust, or show the log. */
function fail(logs: CommandLog, err: unknown): undefined {
  const message = err instanceof Error ? err.message : String(err);
  logs.main.error(message);
  if (err instanceof UntrustedWorkspaceError) {
    void vscode.window.showWarningMessage(message, vscode.l10n.t('Manage Workspace Trust')).then((p) => {
      if (p) void vscode.commands.executeCommand('workbench.trust.manage');
    });
  } else {
    void vscode.window.showErrorMessage(message, vscode.l10n.t('Show Log')).then((p) => {
      if (p) logs.main.show(true);
    });
  }
  return undefined;
}

/** The agent a command acts on: its argument (an id or a row with `agentId`), the only running one, else the user's pick. */
async function pickAgent(actions: SessionActions, arg: unknown, running: boolean): Promise<AgentChoice | undefined> {
  const id = typeof arg === 'string' ? arg : (arg as { agentId?: string } | undefined)?.agentId;
  if (id) return actions.agentChoices().find((c) => c.id === id);
  const list = actions.agentChoices(running ? 'running' : 'all');
  if (list.length === 0) {
    void vscode.window.showInformationMessage(running ? vscode.l10n.t('No agent is running.') : vscode.l10n.t('No agent is configured.'));
    return undefined;
  }
  if (list.length === 1 && running) return list[0];
  const pick = await vscode.window.showQuickPick(
    list.map((c) => ({ label: c.name, description: c.status === 'stopped' ? '' : c.status, detail: c.detail, choice: c })),
    { placeHolder: running ? vscode.l10n.t('Which agent?') : vscode.l10n.t('Start which agent?') },
  );
  return pick?.choice;
}

/** The session a command acts on: its argument, else the active session. */
function sessionOf(store: SessionStore, arg: unknown): SessionKey | undefined {
  return isSessionKey(arg) ? arg : store.activeSession;
}
