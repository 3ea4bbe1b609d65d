// The team commands (dist/team-commands.js, loaded when one first runs): New Session in Worktree…,
// Run Prompt on Several Agents…, Compare Sessions…, Apply Worktree Changes…, Remove Worktree….
// Each acts through the Team service and the worktree sessions' owner; every failure is one
// message saying what happened and what to do. Arguments let tests and menus skip the pickers.
import * as vscode from 'vscode';
import type { AgentChoice } from '../../app/agentPorts';
import { Team } from '../../app/team/team';
import type { WorktreeSessions } from '../../app/team/worktreeSessions';
import type { ContentBlock } from '../../protocol/domain';
import type { PlanStore } from '../../state/planStore';
import type { SessionKey, SessionStore } from '../../state/sessionStore';
import { branchNameProblem } from '../../worktrees/branchName';
import { branches, repositoryOf } from '../../worktrees/repo';
import type { CommandTable, IdsOf, TEAM_COMMANDS } from '../lazyCommands';
import { applyWorktree, removeWorktree } from './applyWorktree';
import { compareSessions } from './compareSessions';

export interface TeamCommandDeps {
  readonly sessions: WorktreeSessions;
  readonly store: SessionStore;
  readonly plans: PlanStore;
  agentChoices(): readonly AgentChoice[];
  newSession(agentId: string, cwd: string): Promise<SessionKey>;
  prompt(ref: SessionKey, blocks: readonly ContentBlock[]): unknown;
  closeSession(ref: SessionKey): Promise<void>;
  location(): string;
  maxParallel(): number;
  readonly log: { error(m: string): void; info(m: string): void };
  /** Owns what the commands register on first use (the comparison's document providers). */
  own(d: vscode.Disposable): void;
}

type Args = { folder?: string; agentId?: string; agents?: string[]; base?: string; name?: string; prompt?: string };

function argsOf(arg: unknown): Args {
  return arg && typeof arg === 'object' ? (arg as Args) : {};
}

/** The folder whose repository the worktree comes from: the argument, the only workspace folder, or a pick. */
async function folderOf(a: Args): Promise<string | undefined> {
  if (a.folder) return a.folder;
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0)
    throw new Error(vscode.l10n.t('Open a folder in a git repository first: worktrees are made from the repository of a workspace folder.'));
  if (folders.length === 1) return folders[0]!.uri.fsPath;
  return (await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Worktree of which folder’s repository?') }))?.uri.fsPath;
}

export function teamCommands(deps: TeamCommandDeps): CommandTable<IdsOf<typeof TEAM_COMMANDS>> {
  const team = new Team(deps);
  const fail = (err: unknown): undefined => {
    const message = err instanceof Error ? err.message : String(err);
    deps.log.error(`[team] ${message}`);
    void vscode.window.showErrorMessage(message);
    return undefined;
  };
  const agentPick = async (placeHolder: string, many: boolean): Promise<AgentChoice[]> => {
    const list = deps.agentChoices();
    if (!list.length) throw new Error(vscode.l10n.t('No agent is configured: add one in the acp.agents setting (or install one from the ACP Registry).'));
    const items = list.map((c) => ({ label: c.name, description: c.id, choice: c }));
    if (!many) {
      const one = await vscode.window.showQuickPick(items, { placeHolder });
      return one ? [one.choice] : [];
    }
    // The same agent may be picked several times: each row is one more session of it.
    const rows = items.flatMap((i) => [1, 2, 3].map((n) => ({ ...i, label: n === 1 ? i.label : `${i.label} (#${n})` })));
    return ((await vscode.window.showQuickPick(rows, { placeHolder, canPickMany: true })) ?? []).map((r) => r.choice);
  };

  return {
    'acp.newSessionInWorktree': async (arg?: unknown) => {
      try {
        const a = argsOf(arg);
        const folder = await folderOf(a);
        if (!folder) return undefined;
        const agentId = a.agentId ?? (await agentPick(vscode.l10n.t('Which agent works in the new worktree?'), false))[0]?.id;
        if (!agentId) return undefined;
        const repo = await repositoryOf(folder);
        const base =
          a.base ??
          (await vscode.window.showQuickPick(['HEAD', ...(await branches(repo))], { placeHolder: vscode.l10n.t('The worktree’s branch starts from…') }));
        if (!base) return undefined;
        const name =
          a.name ??
          (await vscode.window.showInputBox({
            prompt: vscode.l10n.t('Name of the worktree (its branch: {0})', `acp/${agentId}/<name>`),
            validateInput: (v) => branchNameProblem(v.trim()),
          }));
        if (!name) return undefined;
        const { ref, record } = await team.newSessionInWorktree({ folder, agentId, base, name: name.trim() });
        deps.log.info(`[team] session ${ref.sessionId} of ${agentId} in ${record.path} (${record.branch})`);
        return ref;
      } catch (e) {
        return fail(e);
      }
    },
    'acp.runPromptOnSeveralAgents': async (arg?: unknown) => {
      try {
        const a = argsOf(arg);
        const folder = await folderOf(a);
        if (!folder) return undefined;
        const agents = a.agents ?? (await agentPick(vscode.l10n.t('Pick 2 to 5 agents (the same agent may be picked more than once)'), true)).map((c) => c.id);
        if (!agents.length) return undefined;
        const prompt =
          a.prompt ?? (await vscode.window.showInputBox({ prompt: vscode.l10n.t('Prompt for {0} agents, each in its own worktree', agents.length) }));
        if (!prompt) return undefined;
        return (await team.runOnSeveral(folder, agents, prompt, a.base ?? 'HEAD')).map((s) => s.ref);
      } catch (e) {
        return fail(e);
      }
    },
    'acp.compareSessions': (x?: unknown, y?: unknown) => compareSessions(deps, x, y).catch(fail),
    'acp.applyWorktreeChanges': (arg?: unknown) => applyWorktree(deps, arg).catch(fail),
    'acp.removeWorktree': (arg?: unknown) => removeWorktree(deps, arg).catch(fail),
  };
}
