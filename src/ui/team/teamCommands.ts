// The team commands (dist/team-commands.js, loaded when one first runs): New Session in Worktree…,
// Run Prompt on Several Agents…, Compare Sessions…, Apply Worktree Changes…, Remove Worktree….
// Each acts through the Team service (src/app/team), which asks through TeamView (teamView.ts);
// every failure is one message saying what happened and what to do, worded from its reason
// (teamWords.ts). Arguments let tests and menus skip the pickers.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentChoice } from '../../app/agentPorts';
import { Team, type WorktreeTarget, type TeamDeps } from '../../app/team/team';
import type { StepIn } from '../../app/team/teamPorts';
import type { WorktreeSessions } from '../../app/team/worktreeSessions';
import type { ContentBlock } from '../../protocol/domain';
import type { WorkStore } from '../../state/attribution/workStore';
import type { PlanStore } from '../../state/planStore';
import type { SessionKey, SessionStore } from '../../state/sessionStore';
import type { CommandTable, IdsOf, TEAM_COMMANDS } from '../lazyCommands';
import { TeamView } from './teamView';
import { nameRuleText, problemText } from './teamWords';

export interface TeamCommandDeps {
  readonly sessions: WorktreeSessions;
  readonly store: SessionStore;
  readonly plans: PlanStore;
  /** Which files each plan step wrote (Compare Sessions lists them per step). */
  readonly work?: Pick<WorkStore, 'stepAt'>;
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

/** A worktree named by a command's argument (`{ path, mode }`: tests, menus); absent parts are asked. */
function targetOf(arg: unknown): WorktreeTarget {
  const t = arg && typeof arg === 'object' ? (arg as { path?: unknown; mode?: unknown }) : {};
  return {
    ...(typeof t.path === 'string' && t.path ? { path: t.path } : {}),
    ...(t.mode === 'merge' || t.mode === 'squash' ? { mode: t.mode } : {}),
  };
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

/** The Team service's needs, from the commands' (the stores read here, SessionActions behind the functions). */
function teamDeps(deps: TeamCommandDeps): TeamDeps {
  return {
    sessions: deps.sessions,
    newSession: (agentId, cwd) => deps.newSession(agentId, cwd),
    prompt: (ref, blocks) => deps.prompt(ref, blocks),
    closeSession: (ref) => deps.closeSession(ref),
    isLive: (ref) => !!deps.store.session(ref.agentId, ref.sessionId)?.live,
    steps: (ref) => stepsOf(deps, ref),
    agentName: (id) => deps.agentChoices().find((c) => c.id === id)?.name ?? id,
    location: () => deps.location(),
    maxParallel: () => deps.maxParallel(),
  };
}

/** A session's plan steps, each with the files it wrote (relative to the session's worktree). */
function stepsOf(deps: TeamCommandDeps, ref: SessionKey): StepIn[] {
  const root = deps.sessions.of(ref.agentId, ref.sessionId)?.path;
  const rel = (f: string): string => {
    const r = root && path.isAbsolute(f) ? path.relative(root, f) : f;
    return (r && !r.startsWith('..') && !path.isAbsolute(r) ? r : f).split(path.sep).join('/');
  };
  return deps.plans.plans(ref.agentId, ref.sessionId).flatMap((p) =>
    p.view.kind === 'items'
      ? p.view.plan.entries.map((e, i) => {
          const files = deps.work?.stepAt(ref.agentId, ref.sessionId, p.planId, i)?.files ?? [];
          return { content: e.content, status: e.status, ...(files.length ? { files: [...new Set(files.map(rel))] } : {}) };
        })
      : [],
  );
}

/** The handler of each team command: one line each, the work in the named functions below. */
export function teamCommands(deps: TeamCommandDeps): CommandTable<IdsOf<typeof TEAM_COMMANDS>> {
  const team: Team = new Team(teamDeps(deps), new TeamView(deps.own, (repo, rev, file) => team.baseText(repo, rev, file)));
  const fail = (err: unknown): undefined => failed(deps, err);
  return {
    'acp.newSessionInWorktree': (arg) => newSessionInWorktree(deps, team, argsOf(arg)).catch(fail),
    'acp.runPromptOnSeveralAgents': (arg) => runPromptOnSeveralAgents(deps, team, argsOf(arg)).catch(fail),
    'acp.compareSessions': (x, y) => team.compare(x, y).catch(fail),
    'acp.applyWorktreeChanges': (arg) => team.apply(targetOf(arg)).catch(fail),
    'acp.removeWorktree': (arg) => team.remove(targetOf(arg)).catch(fail),
  };
}

/** A command's failure: logged, and shown as one message worded from its reason; the command returns undefined. */
function failed(deps: TeamCommandDeps, err: unknown): undefined {
  deps.log.error(`[team] ${err instanceof Error ? err.message : String(err)}`);
  void vscode.window.showErrorMessage(problemText(err, vscode.l10n));
  return undefined;
}

/** New Session in Worktree…: folder, agent, base and name (each asked unless given), then the session. */
async function newSessionInWorktree(deps: TeamCommandDeps, team: Team, a: Args): Promise<SessionKey | undefined> {
  const folder = await folderOf(a);
  if (!folder) return undefined;
  const agentId = a.agentId ?? (await pickAgents(deps, vscode.l10n.t('Which agent works in the new worktree?'), false))[0]?.id;
  if (!agentId) return undefined;
  const choices = await team.baseChoices(folder);
  const base = a.base ?? (await vscode.window.showQuickPick(choices, { placeHolder: vscode.l10n.t('The worktree’s branch starts from…') }));
  if (!base) return undefined;
  const name = a.name ?? (await askName(team, agentId));
  if (!name) return undefined;
  const { ref, record } = await team.newSessionInWorktree({ folder, agentId, base, name: name.trim() });
  deps.log.info(`[team] session ${ref.sessionId} of ${agentId} in ${record.path} (${record.branch})`);
  return ref;
}

/** The new worktree's name, checked as it is typed against the service's naming rule. */
function askName(team: Team, agentId: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    prompt: vscode.l10n.t('Name of the worktree (its branch: {0})', `acp/${agentId}/<name>`),
    validateInput: (v) => {
      const rule = team.nameRule(v.trim());
      return rule && nameRuleText(rule, vscode.l10n);
    },
  });
}

/** Run Prompt on Several Agents…: folder, agents and prompt (each asked unless given); the sessions started. */
async function runPromptOnSeveralAgents(deps: TeamCommandDeps, team: Team, a: Args): Promise<SessionKey[] | undefined> {
  const folder = await folderOf(a);
  if (!folder) return undefined;
  const agents = a.agents ?? (await pickAgents(deps, vscode.l10n.t('Pick 2 to 5 agents (the same agent may be picked more than once)'), true)).map((c) => c.id);
  if (!agents.length) return undefined;
  const prompt = a.prompt ?? (await vscode.window.showInputBox({ prompt: vscode.l10n.t('Prompt for {0} agents, each in its own worktree', agents.length) }));
  if (!prompt) return undefined;
  return (await team.runOnSeveral(folder, agents, prompt, a.base ?? 'HEAD')).map((s) => s.ref);
}

/** One agent, or several (`many`: the same agent may be picked several times, each row one more session of it). */
async function pickAgents(deps: TeamCommandDeps, placeHolder: string, many: boolean): Promise<AgentChoice[]> {
  const list = deps.agentChoices();
  if (!list.length) throw new Error(vscode.l10n.t('No agent is configured: add one in the acp.agents setting (or install one from the ACP Registry).'));
  const items = list.map((c) => ({ label: c.name, description: c.id, choice: c }));
  if (!many) {
    const one = await vscode.window.showQuickPick(items, { placeHolder });
    return one ? [one.choice] : [];
  }
  const rows = items.flatMap((i) => [1, 2, 3].map((n) => ({ ...i, label: n === 1 ? i.label : `${i.label} (#${n})` })));
  return ((await vscode.window.showQuickPick(rows, { placeHolder, canPickMany: true })) ?? []).map((r) => r.choice);
}
