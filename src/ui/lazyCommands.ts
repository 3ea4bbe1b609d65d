// Commands whose code loads when one of them first runs. They are registered at activation (so the
// palette and menus work at once); the implementation is a file of its own in the extension bundle
// (esbuild.mjs maps the `require`s below), so activation does not parse it.
import * as vscode from 'vscode';
import { lazyModule } from '../common/lazy';
import type * as Recording from '../recording/recordingCommands';
import type * as History from './historyCommands';
import type * as Plan from './planCommands';
import type * as Session from './sessionCommands';
import type * as Team from './team/teamCommands';

type Handlers = Record<string, (...args: unknown[]) => unknown>;
/** A lazily loaded module's handlers: exactly one for each of its command ids. */
export type CommandTable<Id extends string> = Record<Id, (...args: unknown[]) => unknown>;
/** The ids of a table of command ids. */
export type IdsOf<T extends Readonly<Record<string, string>> | readonly string[]> = T extends readonly string[] ? T[number] : T[keyof T];

/** Registers `ids`; the first run of any of them calls `load` once for all their handlers. */
export function registerLazyCommands(ids: readonly string[], load: () => Handlers): vscode.Disposable {
  let handlers: Handlers | undefined;
  return vscode.Disposable.from(
    ...ids.map((id) =>
      vscode.commands.registerCommand(id, (...args: unknown[]) => {
        handlers ??= load();
        const run = handlers[id];
        if (!run) throw new Error(vscode.l10n.t('ACP Plans: the command {0} has no handler. Reinstall the extension.', id));
        return run(...args);
      }),
    ),
  );
}

/** Delete Session History…, Clear All History…, Export Session…, Import Session… (dist/history-commands.js). */
export const HISTORY_COMMANDS = ['acp.deleteSessionHistory', 'acp.clearHistory', 'acp.exportSession', 'acp.importSession'] as const;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
export const historyCommandsModule = lazyModule('history-commands.js', () => require('./historyCommands') as typeof History);

/** Record Agent Traffic, Open Recording… and the replay controls (dist/recording-commands.js). */
export const RECORDING_COMMANDS = [
  'acp.recordAgentTraffic',
  'acp.openRecording',
  'acp.pauseReplay',
  'acp.resumeReplay',
  'acp.stepReplay',
  'acp.closeRecording',
] as const;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
export const recordingCommandsModule = lazyModule('recording-commands.js', () => require('../recording/recordingCommands') as typeof Recording);

/** The agent and session commands (agentCommands.ts) and those on subagent and background rows (backgroundCommands.ts): dist/session-commands.js. */
export const AGENT_COMMANDS = [
  'acp.startAgent',
  'acp.stopAgent',
  'acp.restartAgent',
  'acp.newSession',
  'acp.sendPrompt',
  'acp.cancelTurn',
  'acp.openSettings',
  'acp.showLog',
  'acp.showTrace',
  'acp.signIn',
  'acp.signOut',
  'acp.resumeSession',
  'acp.closeSession',
  'acp.deleteSession',
  'acp.setConfigOption',
  'acp.managePermissionRules',
] as const;
export const BACKGROUND_COMMANDS = { cancelSubagent: 'acp.cancelSubagent', cancelBackgroundWork: 'acp.cancelBackgroundWork' } as const;
export const SESSION_COMMANDS = [...AGENT_COMMANDS, ...Object.values(BACKGROUND_COMMANDS)] as const;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
const sessionCommandsModule = lazyModule('session-commands.js', () => require('./sessionCommands') as typeof Session);

/** Registers SESSION_COMMANDS; their handlers load with the first of them run. */
export function registerSessionCommands(deps: Session.SessionCommandDeps): vscode.Disposable {
  return registerLazyCommands(SESSION_COMMANDS, () => sessionCommandsModule().sessionCommands(deps));
}

/** The plan commands (planCommands.ts): dist/plan-commands.js. */
export const PLAN_COMMANDS = {
  focusPlans: 'acp.focusPlans',
  revealCurrentStep: 'acp.revealCurrentStep',
  showPlanHistory: 'acp.showPlanHistory',
  copyPlanAsMarkdown: 'acp.copyPlanAsMarkdown',
  exportPlan: 'acp.exportPlan',
  showRawPlan: 'acp.showRawPlan',
  openPlan: 'acp.openPlan',
} as const;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
export const planCommandsModule = lazyModule('plan-commands.js', () => require('./planCommands') as typeof Plan);

/** New Session in Worktree…, Run Prompt on Several Agents…, Compare Sessions…, Apply Worktree Changes…, Remove Worktree… (dist/team-commands.js). */
export const TEAM_COMMANDS = [
  'acp.newSessionInWorktree',
  'acp.runPromptOnSeveralAgents',
  'acp.compareSessions',
  'acp.applyWorktreeChanges',
  'acp.removeWorktree',
] as const;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
export const teamCommandsModule = lazyModule('team-commands.js', () => require('./team/teamCommands') as typeof Team);
