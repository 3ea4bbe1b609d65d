// Commands that drive agents and sessions: one table, loaded the first time one of them runs
// (sessionCommands.ts, registered by id in lazyCommands.ts); handlers get their services injected and act through SessionActions (the one path to an agent), reading agents and
// sessions from the SessionStore (pickers get SessionActions.agentChoices) and rules from the
// PermissionBroker. Each returns something useful to callers (tests, other extensions).
import * as vscode from 'vscode';
import { UntrustedWorkspaceError } from '../platform/workspace';
import type { AgentChoice } from '../app/agentPorts';
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

/** The handler of each agent and session command. */
export function agentCommands(deps: AgentCommandDeps): CommandTable<IdsOf<typeof AGENT_COMMANDS>> {
  const { actions, store, broker, logs } = deps;

  const fail = (err: unknown): undefined => {
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
  };

  const pickAgent = async (arg: unknown, running: boolean): Promise<AgentChoice | undefined> => {
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
  };

  /** The session a command acts on: its argument, else the active session. */
  const sessionOf = (arg: unknown): SessionKey | undefined => (isSessionKey(arg) ? arg : store.activeSession);

  return {
    'acp.startAgent': async (arg) => {
      try {
        const agent = await pickAgent(arg, false);
        if (!agent) return undefined;
        return await actions.newSession(agent.id);
      } catch (err) {
        return fail(err);
      }
    },
    'acp.stopAgent': async (arg) => {
      const agent = await pickAgent(arg, true);
      if (!agent) return false;
      await actions.stopAgent(agent.id);
      return true;
    },
    'acp.restartAgent': async (arg) => {
      try {
        const agent = (await pickAgent(arg, true)) ?? (await pickAgent(arg, false));
        if (!agent) return false;
        await actions.restartAgent(agent.id);
        return true;
      } catch (err) {
        return fail(err);
      }
    },
    'acp.newSession': async (arg) => {
      try {
        const agent = (await pickAgent(arg, true)) ?? (await pickAgent(undefined, false));
        if (!agent) return undefined;
        return await actions.newSession(agent.id);
      } catch (err) {
        return fail(err);
      }
    },
    'acp.sendPrompt': async (arg, text?: unknown) => {
      try {
        let ref = sessionOf(arg);
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
      } catch (err) {
        return fail(err);
      }
    },
    'acp.cancelTurn': (arg) => {
      const ref = sessionOf(arg);
      if (!ref) return false;
      actions.cancel(ref);
      return true;
    },
    'acp.openSettings': () => vscode.commands.executeCommand('workbench.action.openSettings', 'acp.'),
    'acp.showLog': () => logs.main.show(true),
    'acp.showTrace': () => logs.trace.show(true),
    'acp.signIn': async (arg) => {
      try {
        // Agent methods through authenticate; terminal methods in a terminal, then a restart.
        const agent = await pickAgent(arg, true);
        if (agent?.status !== 'running') return false;
        return await actions.signIn(agent.id);
      } catch (err) {
        return fail(err);
      }
    },
    'acp.signOut': async (arg) => {
      try {
        const agent = await pickAgent(arg, true);
        if (agent?.status !== 'running') return false;
        return await actions.signOut(agent.id);
      } catch (err) {
        return fail(err);
      }
    },
    'acp.resumeSession': async (arg, sessionArg?: unknown) => {
      try {
        // A session row (a stored session of a stopped agent too): start its agent and resume it.
        if (isSessionKey(arg)) return await actions.resume(arg.agentId, arg.sessionId);
        if (typeof arg === 'string' && typeof sessionArg === 'string') return await actions.resume(arg, sessionArg);
        // From the palette with a stored (not running) session shown: resume that one.
        const shown = store.activeSession;
        if (arg === undefined && shown && store.session(shown.agentId, shown.sessionId)?.live === false)
          return await actions.resume(shown.agentId, shown.sessionId);
        const agent = await pickAgent(arg, true);
        if (agent?.status !== 'running') return undefined;
        // Programmatic form: (agentId, sessionId) resumes that session.
        if (typeof sessionArg === 'string') return await actions.resume(agent.id, sessionArg);
        if (!actions.canListSessions(agent.id)) return undefined;
        const picked = await pickListedSession((cursor) => actions.listSessions(agent.id, cursor));
        if (!picked) return undefined;
        return await actions.resume(agent.id, picked.sessionId, { cwd: picked.cwd, ...(picked.title ? { title: picked.title } : {}) });
      } catch (err) {
        return fail(err);
      }
    },
    'acp.closeSession': async (arg) => {
      try {
        const ref = sessionOf(arg);
        if (!ref) return false;
        await actions.closeSession(ref);
        return true;
      } catch (err) {
        return fail(err);
      }
    },
    'acp.deleteSession': async (arg) => {
      try {
        const ref = sessionOf(arg);
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
      } catch (err) {
        return fail(err);
      }
    },
    'acp.setConfigOption': async (arg, configId?: unknown, value?: unknown) => {
      try {
        const ref = sessionOf(arg);
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
      } catch (err) {
        return fail(err);
      }
    },
    'acp.managePermissionRules': async () => {
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
    },
  };
}
