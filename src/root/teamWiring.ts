// The team of agents wired: the worktree sessions' owner (made first: the file service, the tree
// and the status bar read it), the team commands (dist/team-commands.js, acting through
// SessionActions) and the team's status bar item.
import * as vscode from 'vscode';
import { WorktreeSessions } from '../app/team/worktreeSessions';
import type { SessionStore } from '../state/sessionStore';
import { registerLazyCommands, TEAM_COMMANDS, teamCommandsModule } from '../ui/lazyCommands';
import { TeamStatus } from '../ui/team/teamStatus';
import type { AcpExtension } from './acpExtension';

export interface TeamParts {
  readonly sessions: WorktreeSessions;
  /** Set by wireTeam. */
  status?: TeamStatus;
}

export function createWorktreeSessions(context: vscode.ExtensionContext, store: SessionStore, log: (line: string) => void): WorktreeSessions {
  return new WorktreeSessions(context.workspaceState, store, log);
}

/** Registers the team commands and the status item; returns what to dispose. */
export function wireTeam(ext: Pick<AcpExtension, 'team' | 'store' | 'plans' | 'config' | 'actions' | 'logs'>): vscode.Disposable {
  const owned: vscode.Disposable[] = [];
  const { sessions } = ext.team;
  const status = (ext.team.status = new TeamStatus(sessions));
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
  return vscode.Disposable.from(status, commands, { dispose: () => owned.splice(0).forEach((d) => d.dispose()) });
}
