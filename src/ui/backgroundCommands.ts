// Commands on subagent and background rows of the Plans tree: Cancel Subagent (a child session
// row whose capabilities offer cancel) and Cancel Background Work (a terminal or tool call row
// the agent offers to cancel). Both act through BackgroundActions; loaded with the session
// commands (sessionCommands.ts) the first time one of them runs.
import * as vscode from 'vscode';
import { BACKGROUND_COMMANDS, type CommandTable, type IdsOf } from './lazyCommands';
import type { BackgroundActions } from '../app/backgroundActions';
import type { CommandLog } from './commandLog';
import type { BackgroundWork } from '../protocol/domain';
import { isSessionKey } from '../state/sessionStore';

/** The handler of each command on subagent and background rows. */
export function backgroundCommands(actions: BackgroundActions, logs: CommandLog): CommandTable<IdsOf<typeof BACKGROUND_COMMANDS>> {
  const fail = (err: unknown): false => {
    const message = err instanceof Error ? err.message : String(err);
    logs.main.error(message);
    void vscode.window.showErrorMessage(message);
    return false;
  };
  return {
    [BACKGROUND_COMMANDS.cancelSubagent]: (arg: unknown) => {
      if (!isSessionKey(arg)) return fail(new Error(vscode.l10n.t('Cancel Subagent works on a subagent row of the Plans view.')));
      try {
        actions.cancelSubagent(arg);
        return true;
      } catch (err) {
        return fail(err);
      }
    },
    [BACKGROUND_COMMANDS.cancelBackgroundWork]: async (arg: unknown) => {
      const item = (arg as { item?: BackgroundWork } | undefined)?.item;
      if (!isSessionKey(arg) || !item) return fail(new Error(vscode.l10n.t('Cancel Background Work works on a background row of the Plans view.')));
      try {
        await actions.cancelWork(arg, item);
        return true;
      } catch (err) {
        return fail(err);
      }
    },
  };
}
