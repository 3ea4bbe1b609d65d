// The team of agents wired: the worktree sessions' owner (made early: the file service, the tree
// and the status bar read it), the team commands (dist/team-commands.js, acting through
// SessionActions) and the team's status bar item.
import * as vscode from 'vscode';
import { WorktreeSessions } from '../app/team/worktreeSessions';
import { workspaceRoots } from '../platform/workspace';
import { registerLazyCommands, TEAM_COMMANDS, teamCommandsModule } from '../ui/lazyCommands';
import { TeamStatus } from '../ui/team/teamStatus';
import { worktreeHost } from '../ui/team/worktreeWatch';
import type { AcpExtension } from './acpExtension';

export interface TeamParts extends vscode.Disposable {
  readonly sessions: WorktreeSessions;
  readonly status: TeamStatus;
  /** The folders a session may read and write: a worktree session its worktree alone, any other the workspace folders. */
  roots(agentId: string, sessionId: string): readonly string[];
}

/**
 * Builds the worktree sessions' owner, the status item and the team commands. Called while the
 * composition root is being built: `ext.actions` is read only when a command runs.
 */
export function createTeam(
  ext: Pick<AcpExtension, 'store' | 'plans' | 'config' | 'actions' | 'logs' | 'history'>,
  context: vscode.ExtensionContext,
): TeamParts {
  const owned: vscode.Disposable[] = [];
  // The history is made after the team (`ext.history` read when a worktree session is added or removed).
  const sessions = new WorktreeSessions(
    context.workspaceState,
    ext.store,
    (l) => ext.logs.main.info(l),
    (r, w) => ext.history?.setWorktree(r, w),
    worktreeHost,
  );
  const status = new TeamStatus(sessions);
  const commands = registerLazyCommands(TEAM_COMMANDS, () =>
    teamCommandsModule().teamCommands({
      sessions,
      store: ext.store,
      plans: ext.plans,
      agentChoices: () => ext.actions.agentChoices(),
      newSession: (agentId, cwd) => ext.actions.newSession(agentId, cwd),
      prompt: (ref, blocks) => ext.actions.prompt(ref, blocks),
      closeSession: (ref) => ext.actions.closeSession(ref),
      location: () => ext.config.worktreesLocation(),
      maxParallel: () => ext.config.worktreesMaxParallel(),
      log: ext.logs.main,
      own: (d) => owned.push(d),
    }),
  );
  const all = vscode.Disposable.from(commands, status, sessions, { dispose: () => owned.splice(0).forEach((d) => d.dispose()) });
  return { sessions, status, roots: (a, s) => sessions.rootsFor(a, s) ?? workspaceRoots(), dispose: () => all.dispose() };
}
