import * as vscode from 'vscode';

import { API_VERSION, type AcpPlansApi } from './api';

export function activate(context: vscode.ExtensionContext): AcpPlansApi {
  const log = vscode.window.createOutputChannel('ACP', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(
    vscode.commands.registerCommand('acp.showLog', () => log.show(true)),
  );
  return { apiVersion: API_VERSION };
}

export function deactivate(): void { /* subscriptions are disposed by VS Code */ }
