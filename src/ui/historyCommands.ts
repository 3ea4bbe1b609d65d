// Commands over the stored session history of this workspace: delete one session's history,
// clear all (both with a confirmation), export a session as a JSON bundle and import one (shown
// read-only until resumed on its agent). Nothing is written outside VS Code's storage without the
// user choosing where.
import * as vscode from 'vscode';
import type { SessionHistory } from '../app/history/sessionHistory';
import { BUNDLE_FORMAT, MAX_BUNDLE_BYTES, planImport, type Bundle } from '../app/history/bundle';
import { isSessionKey, type SessionKey, type SessionStore } from '../state/sessionStore';

/** The handlers of HISTORY_COMMANDS (registered by lazyCommands.ts, this file loaded on first use). */
export function historyCommands(history: SessionHistory | undefined, store: SessionStore): Record<string, (...args: unknown[]) => unknown> {
  // Without a history (no folder, or the setting off) each command says why and does nothing.
  return {
    'acp.deleteSessionHistory': async (arg) => (history ? deleteSessionHistory(history, store, arg) : unavailable()),
    'acp.clearHistory': async () => (history ? clearHistory(history) : unavailable()),
    'acp.exportSession': async (arg, file?: unknown) => (history ? exportSession(history, store, arg, file) : unavailable()),
    'acp.importSession': async (file?: unknown) => (history ? importSession(history, store, file) : unavailable()),
  };
}

function unavailable(): false {
  void vscode.window.showInformationMessage(vscode.l10n.t('Session history is off: open a folder, and turn on the acp.history.enabled setting.'));
  return false;
}

/** The session a command acts on: its argument, else the active session. */
const target = (store: SessionStore, arg: unknown): SessionKey | undefined => (isSessionKey(arg) ? arg : store.activeSession);
const nameOf = (store: SessionStore, k: SessionKey): string => store.session(k.agentId, k.sessionId)?.title ?? `session ${k.sessionId}`;

async function deleteSessionHistory(history: SessionHistory, store: SessionStore, arg: unknown): Promise<boolean> {
  const k = target(store, arg);
  if (!k) return false;
  const del = vscode.l10n.t('Delete');
  const ok = await vscode.window.showWarningMessage(
    vscode.l10n.t('Delete the stored history of “{0}”?', nameOf(store, k)),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Its plans, their revisions and the conversation are removed from this workspace. The agent keeps its own copy of the session, if it has one.',
      ),
    },
    del,
  );
  if (ok !== del) return false;
  await history.delete(k);
  return true;
}

async function clearHistory(history: SessionHistory): Promise<boolean> {
  const clear = vscode.l10n.t('Clear All');
  const ok = await vscode.window.showWarningMessage(
    vscode.l10n.t('Clear all stored sessions of this workspace?'),
    { modal: true, detail: vscode.l10n.t('Every stored plan, revision and conversation of this workspace is deleted. Running sessions keep running.') },
    clear,
  );
  if (ok !== clear) return false;
  await history.clear();
  return true;
}

/** Writes the session's stored records as a bundle to `file`, else to where the user picks. */
async function exportSession(history: SessionHistory, store: SessionStore, arg: unknown, file: unknown): Promise<vscode.Uri | false> {
  const k = target(store, arg);
  const stored = k && (await history.records(k));
  if (!k || !stored) {
    void vscode.window.showInformationMessage(vscode.l10n.t('This session has no stored history to export yet.'));
    return false;
  }
  const uri =
    file instanceof vscode.Uri
      ? file
      : await vscode.window.showSaveDialog({
          title: vscode.l10n.t('Export session'),
          filters: { 'ACP session': ['json'] },
          defaultUri: vscode.Uri.joinPath(
            vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file('/'),
            `${safeName(nameOf(store, k))}.acp-session.json`,
          ),
        });
  if (!uri) return false;
  const s = stored.session;
  const bundle: Bundle = {
    format: BUNDLE_FORMAT,
    version: 1,
    agentId: s.agentId,
    agentName: s.agentName,
    sessionId: s.sessionId,
    exportedAt: new Date().toISOString(),
    records: stored.records,
    ...(s.title ? { title: s.title } : {}),
    ...(s.cwd ? { cwd: s.cwd } : {}),
  };
  await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(bundle)));
  return uri;
}

/** Reads a bundle from `file`, else from where the user picks, and shows its first new session. */
async function importSession(history: SessionHistory, store: SessionStore, file: unknown): Promise<SessionKey | false> {
  const uri =
    file instanceof vscode.Uri
      ? file
      : (await vscode.window.showOpenDialog({ title: vscode.l10n.t('Import session'), filters: { 'ACP session': ['json'] }, canSelectMany: false }))?.[0];
  if (!uri) return false;
  const size = (await vscode.workspace.fs.stat(uri)).size;
  if (size > MAX_BUNDLE_BYTES) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Not imported: the file is {0} MB; a session bundle may be at most {1} MB.', Math.round(size / 1048576), MAX_BUNDLE_BYTES / 1048576),
    );
    return false;
  }
  const plan = planImport(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'), vscode.l10n);
  if (typeof plan === 'string') {
    void vscode.window.showErrorMessage(plan);
    return false;
  }
  let first: SessionKey | undefined;
  for (const s of plan.sessions) {
    if (await history.importSession(s, s.records)) first ??= { agentId: s.agentId, sessionId: s.sessionId };
  }
  if (plan.note) void vscode.window.showWarningMessage(plan.note);
  if (!first) {
    const s = plan.sessions[0];
    void vscode.window.showInformationMessage(vscode.l10n.t('Session “{0}” is already in this workspace.', s?.title ?? s?.sessionId ?? ''));
    return false;
  }
  store.setActiveSession(first);
  return first;
}

function safeName(s: string): string {
  return s.replace(/[^\w.-]+/g, '-').slice(0, 60) || 'session';
}
