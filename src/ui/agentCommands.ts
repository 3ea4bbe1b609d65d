// Commands that drive agents and sessions. Registered from one table; handlers get their
// services injected and act through SessionActions (the one path to an agent). Each returns
// something useful to callers (tests, other extensions).
import * as vscode from 'vscode';
import type { AgentManager } from '../agents/agentManager';
import { UntrustedWorkspaceError } from '../platform/workspace';
import type { AgentSupervisor } from '../agents/supervisor';
import type { PermissionBroker } from '../app/permissionBroker';
import type { SessionActions } from '../app/sessionActions';
import { isSessionKey, type SessionKey, type SessionStore } from '../state/sessionStore';
import type { CommandLog } from './commandLog';
import { pickListedSession } from './sessionListPick';

export interface AgentCommandDeps {
  actions: SessionActions;
  agents: AgentManager;
  store: SessionStore;
  broker: PermissionBroker;
  logs: CommandLog;
}

export function registerAgentCommands(deps: AgentCommandDeps): vscode.Disposable {
  const { actions, agents, store, broker, logs } = deps;

  const fail = (err: unknown): undefined => {
    const message = err instanceof Error ? err.message : String(err);
    logs.main.error(message);
    if (err instanceof UntrustedWorkspaceError) {
      void vscode.window.showWarningMessage(message, 'Manage Workspace Trust').then((p) => {
        if (p) void vscode.commands.executeCommand('workbench.trust.manage');
      });
    } else {
      void vscode.window.showErrorMessage(message, 'Show Log').then((p) => {
        if (p) logs.main.show(true);
      });
    }
    return undefined;
  };

  const pickAgent = async (arg: unknown, running: boolean): Promise<AgentSupervisor | undefined> => {
    const id = typeof arg === 'string' ? arg : (arg as { agentId?: string } | undefined)?.agentId;
    if (id) return agents.get(id);
    const list = running ? agents.running() : agents.all();
    if (list.length === 0) {
      void vscode.window.showInformationMessage(running ? 'No agent is running.' : 'No agent is configured.');
      return undefined;
    }
    if (list.length === 1 && running) return list[0];
    const pick = await vscode.window.showQuickPick(
      list.map((s) => ({
        label: s.def.name,
        description: s.status === 'stopped' ? '' : s.status,
        detail: s.def.builtIn ? 'Built-in, no setup needed' : `${s.def.command} ${s.def.args.join(' ')}`,
        sup: s,
      })),
      { placeHolder: running ? 'Which agent?' : 'Start which agent?' },
    );
    return pick?.sup;
  };

  /** The session a command acts on: its argument, else the active session. */
  const sessionOf = (arg: unknown): SessionKey | undefined => (isSessionKey(arg) ? arg : store.activeSession);

  const commands: Record<string, (...args: unknown[]) => unknown> = {
    'acp.startAgent': async (arg) => {
      try {
        const sup = await pickAgent(arg, false);
        if (!sup) return undefined;
        return await actions.newSession(sup.id);
      } catch (err) {
        return fail(err);
      }
    },
    'acp.stopAgent': async (arg) => {
      const sup = await pickAgent(arg, true);
      if (!sup) return false;
      await actions.stopAgent(sup.id);
      return true;
    },
    'acp.restartAgent': async (arg) => {
      try {
        const sup = (await pickAgent(arg, true)) ?? (await pickAgent(arg, false));
        if (!sup) return false;
        await actions.restartAgent(sup.id);
        return true;
      } catch (err) {
        return fail(err);
      }
    },
    'acp.newSession': async (arg) => {
      try {
        const sup = (await pickAgent(arg, true)) ?? (await pickAgent(undefined, false));
        if (!sup) return undefined;
        return await actions.newSession(sup.id);
      } catch (err) {
        return fail(err);
      }
    },
    'acp.sendPrompt': async (arg, text?: unknown) => {
      try {
        let ref = sessionOf(arg);
        let prompt = typeof arg === 'string' ? arg : typeof text === 'string' ? text : undefined;
        if (!ref) {
          const start = await vscode.window.showInformationMessage('No agent session is open.', 'Start Agent…');
          if (!start) return false;
          ref = await vscode.commands.executeCommand<SessionKey | undefined>('acp.startAgent');
          if (!ref) return false;
        }
        prompt ??= await vscode.window.showInputBox({ prompt: 'Prompt for the agent', placeHolder: 'What should the agent do?' });
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
        const sup = await pickAgent(arg, true);
        if (!sup?.connection) return false;
        return await actions.signIn(sup.id);
      } catch (err) {
        return fail(err);
      }
    },
    'acp.signOut': async (arg) => {
      try {
        const sup = await pickAgent(arg, true);
        if (!sup?.connection) return false;
        if (!sup.connection.capabilities.logout) {
          void vscode.window.showInformationMessage(`${sup.def.name} does not support signing out.`);
          return false;
        }
        await sup.connection.logout();
        return true;
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
        const sup = await pickAgent(arg, true);
        const conn = sup?.connection;
        if (!sup || !conn) return undefined;
        // Programmatic form: (agentId, sessionId) resumes that session.
        if (typeof sessionArg === 'string') return await actions.resume(sup.id, sessionArg);
        if (!conn.capabilities.list) {
          void vscode.window.showInformationMessage(`${sup.def.name} cannot list its sessions.`);
          return undefined;
        }
        const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
        const picked = await pickListedSession((cursor) => conn.listSessions({ ...(cwd ? { cwd } : {}), ...(cursor !== undefined ? { cursor } : {}) }));
        if (!picked) return undefined;
        return await actions.resume(sup.id, picked.sessionId, { cwd: picked.cwd, ...(picked.title ? { title: picked.title } : {}) });
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
        const ok = await vscode.window.showWarningMessage('Delete this session on the agent? Its plans stay in the Plans history.', { modal: true }, 'Delete');
        if (ok !== 'Delete') return false;
        await actions.deleteSession(ref);
        return true;
      } catch (err) {
        return fail(err);
      }
    },
    'acp.setConfigOption': async (arg, configId?: unknown, value?: unknown) => {
      try {
        const ref = sessionOf(arg);
        const sup = ref && agents.get(ref.agentId);
        if (!ref || !sup?.connection) return false;
        if (typeof configId === 'string' && (typeof value === 'string' || typeof value === 'boolean')) {
          await actions.setConfigOption(ref, configId, value);
          return true;
        }
        const options = store.session(ref.agentId, ref.sessionId)?.configOptions ?? [];
        const opt = await vscode.window.showQuickPick(
          options.map((o) => ({ label: o.name, description: o.kind === 'unknown' ? '' : String(o.currentValue), o })),
          { placeHolder: 'Change which setting?' },
        );
        if (!opt) return false;
        const o = opt.o;
        if (o.kind === 'select') {
          const v = await vscode.window.showQuickPick(
            o.options.map((x) => ({ label: x.name, description: x.value === o.currentValue ? 'current' : (x.description ?? ''), value: x.value })),
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
        void vscode.window.showInformationMessage('No permission rules. Choosing an agent\'s "always allow" option creates one.');
        return [];
      }
      const picks = await vscode.window.showQuickPick(
        rules.map((r) => ({ label: broker.describe(r, agents.get(r.agentId)?.def.name ?? r.agentId), r })),
        { canPickMany: true, placeHolder: 'Select the rules to revoke' },
      );
      for (const p of picks ?? []) await broker.removeRule(p.r);
      return broker.rules;
    },
  };

  return vscode.Disposable.from(...Object.entries(commands).map(([id, run]) => vscode.commands.registerCommand(id, run)));
}
