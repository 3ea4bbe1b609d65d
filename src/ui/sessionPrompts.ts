// The VS Code sides of SessionActions' ports (src/app/agentPorts.ts): the warning for queued
// prompts that will not be sent (with Copy Prompts), an agent's crash report (Show Log, Restart),
// notices and errors; and the workspace as VS Code sees it (folders, the acp.mcpServers setting,
// trust).
import * as vscode from 'vscode';
import type { SessionActionsUi, WorkspacePort } from '../app/agentPorts';
import { assertTrusted } from '../platform/workspace';

export function vscodeSessionActionsUi(log: { show(preserveFocus?: boolean): void }): SessionActionsUi {
  return {
    queueDropped(message, texts) {
      void vscode.window.showWarningMessage(message, vscode.l10n.t('Copy Prompts')).then((pick) => {
        if (pick) void vscode.env.clipboard.writeText(texts.join('\n\n'));
      });
    },

    async agentReport(message, severity) {
      const show =
        severity === 'error'
          ? vscode.window.showErrorMessage
          : severity === 'warning'
            ? vscode.window.showWarningMessage
            : vscode.window.showInformationMessage;
      const showLog = vscode.l10n.t('Show Log');
      const restart = vscode.l10n.t('Restart');
      const pick = await show(message, showLog, restart);
      if (pick === showLog) log.show(true);
      return pick === restart ? 'restart' : undefined;
    },

    notice(message) {
      void vscode.window.showInformationMessage(message);
    },

    showError(message) {
      void vscode.window.showErrorMessage(message);
    },
  };
}

export const vscodeWorkspace: WorkspacePort = {
  folders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ fsPath: f.uri.fsPath, local: f.uri.scheme === 'file' })),
  mcpServersSetting: () => vscode.workspace.getConfiguration('acp').get<unknown>('mcpServers', []),
  assertTrusted,
};
