// Fork Session, Archive Session, Unarchive Session and Rename Session…: on a session row (its menu
// shows each only where the agent offers it) or from the command palette (the active session).
// They ask (the new title) and show; SessionManagement decides and acts, and its reasons are worded
// here. Each returns something useful to callers (tests, other extensions).
import * as vscode from 'vscode';
import { ManageError, titleProblem, type SessionManagement } from '../../app/sessionManagement/sessionManagement';
import { isSessionKey, type SessionKey, type SessionStore } from '../../state/sessionStore';
import { manageWords } from './manageWords';

export const SESSION_MANAGEMENT_COMMANDS = ['acp.forkSession', 'acp.archiveSession', 'acp.unarchiveSession', 'acp.renameSession'] as const;

export interface ManageCommandDeps {
  manage: SessionManagement;
  store: SessionStore;
  log: { error(message: string): void; show(preserveFocus?: boolean): void };
}

export function registerSessionManagementCommands(deps: ManageCommandDeps): vscode.Disposable {
  const { manage, store } = deps;
  const guard = <T>(arg: unknown, run: (ref: SessionKey) => Promise<T>): Promise<T | undefined> => {
    const ref = isSessionKey(arg) ? { agentId: arg.agentId, sessionId: arg.sessionId } : store.activeSession;
    if (!ref) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Pick a session in the Plans view first.'));
      return Promise.resolve(undefined);
    }
    return run(ref).catch((err: unknown) => failed(deps, err));
  };
  const table: Record<(typeof SESSION_MANAGEMENT_COMMANDS)[number], (arg?: unknown, more?: unknown) => Promise<unknown>> = {
    'acp.forkSession': (arg) => guard(arg, (ref) => manage.fork(ref)),
    'acp.archiveSession': (arg) => guard(arg, (ref) => manage.setArchived(ref, true).then(() => true)),
    'acp.unarchiveSession': (arg) => guard(arg, (ref) => manage.setArchived(ref, false).then(() => true)),
    'acp.renameSession': (arg, title) => guard(arg, (ref) => rename(deps, ref, title)),
  };
  return vscode.Disposable.from(...SESSION_MANAGEMENT_COMMANDS.map((id) => vscode.commands.registerCommand(id, table[id])));
}

/** `title` given (programmatic form): set as is; else asked, checked as it is typed. */
async function rename({ manage, store }: ManageCommandDeps, ref: SessionKey, title: unknown): Promise<string | undefined> {
  const typed =
    typeof title === 'string'
      ? title
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Rename Session'),
          prompt: vscode.l10n.t('The session title, as the agent will keep it.'),
          value: store.session(ref.agentId, ref.sessionId)?.title ?? '',
          validateInput: (v) => {
            const problem = titleProblem(v);
            return problem ? manageWords(problem, vscode.l10n) : undefined;
          },
        });
  if (typed === undefined) return undefined;
  return await manage.rename(ref, typed);
}

function failed({ log }: ManageCommandDeps, err: unknown): undefined {
  const message = err instanceof ManageError ? manageWords(err.reason, vscode.l10n) : err instanceof Error ? err.message : String(err);
  log.error(err instanceof Error ? err.message : String(err));
  void vscode.window.showErrorMessage(message, vscode.l10n.t('Show Log')).then((p) => {
    if (p) log.show(true);
  });
  return undefined;
}
