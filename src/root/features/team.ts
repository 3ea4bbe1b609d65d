// Feature: a team of agents in git worktrees (src/app/team, src/ui/team): the worktree sessions'
// owner, the team commands (dist/team-commands.js, acting through the Team service and
// SessionActions) and the team's status item. It offers the folders each session may use (the file
// service asks at each call) and the worktree sessions (the Plans tree groups them; the history
// tells it which restored sessions work in a worktree, and keeps each one's worktree on its record).
import * as vscode from 'vscode';
import { WorktreeSessions } from '../../app/team/worktreeSessions';
import { workspaceRoots } from '../../platform/workspace';
import { registerLazyCommands, TEAM_COMMANDS, teamCommandsModule } from '../../ui/lazyCommands';
import type { TeamCommandDeps } from '../../ui/team/teamCommands';
import { TeamStatus } from '../../ui/team/teamStatus';
import { worktreeHost } from '../../ui/team/worktreeWatch';
import type { Feature, FeatureHost } from '../host';
import { HISTORY, TEAM } from '../ports';

export interface TeamParts extends vscode.Disposable {
  readonly sessions: WorktreeSessions;
  readonly status: TeamStatus;
  /** The folders a session may read and write: a worktree session its worktree alone, any other the workspace folders. */
  roots(agentId: string, sessionId: string): readonly string[];
}

export const teamFeature: Feature = {
  name: 'team',
  activate(host) {
    const owned: vscode.Disposable[] = [];
    const sessions = new WorktreeSessions(
      host.context.workspaceState,
      host.store,
      (l) => host.logs.main.info(l),
      (r, w) => host.port(HISTORY)?.history.setWorktree(r, w),
      worktreeHost,
    );
    const status = new TeamStatus(sessions);
    const commands = registerLazyCommands(TEAM_COMMANDS, () => teamCommandsModule().teamCommands(commandDeps(host, sessions, owned)));
    const all = vscode.Disposable.from(commands, status, sessions, { dispose: () => owned.splice(0).forEach((d) => d.dispose()) });
    const team: TeamParts = { sessions, status, roots: (a, s) => sessions.rootsFor(a, s) ?? workspaceRoots(), dispose: () => all.dispose() };
    host.offer(TEAM, team);
    return team;
  },
};

/** What the team commands act through: the Team service's deps, SessionActions for sessions. */
function commandDeps(host: FeatureHost, sessions: WorktreeSessions, owned: vscode.Disposable[]): TeamCommandDeps {
  const { actions, config } = host;
  return {
    sessions,
    store: host.store,
    plans: host.plans,
    work: host.work,
    agentChoices: () => actions.agentChoices(),
    newSession: (agentId, cwd) => actions.newSession(agentId, cwd),
    prompt: (ref, blocks) => actions.prompt(ref, blocks),
    closeSession: (ref) => actions.closeSession(ref),
    location: () => config.worktreesLocation(),
    maxParallel: () => config.worktreesMaxParallel(),
    log: host.logs.main,
    own: (d) => owned.push(d),
  };
}
