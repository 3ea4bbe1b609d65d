// Sign-in right after install, through the extension's own `acp.signIn` (agent auth: the agent's
// authenticate / auth/login; terminal auth: the agent run with the method's args in a VS Code
// terminal). A terminal sign-in is over when its terminal closes: the agent is then restarted so
// it starts signed in.
import * as vscode from 'vscode';
import type { RegistryHost } from '../api';

export async function offerSignIn(host: RegistryHost, agentId: string, name: string, methods: string[]): Promise<void> {
  const signIn = vscode.l10n.t('Sign In');
  const pick = await vscode.window.showInformationMessage(
    vscode.l10n.t('{0} is installed. It asks you to sign in ({1}).', name, methods.join(', ')),
    signIn,
    vscode.l10n.t('Later'),
  );
  if (pick !== signIn) return;
  const before = new Set(vscode.window.terminals);
  const ok = await vscode.commands.executeCommand<boolean>('acp.signIn', agentId);
  const term = vscode.window.terminals.find((t) => !before.has(t));
  if (!ok || !term) return;
  const sub = vscode.window.onDidCloseTerminal((t) => {
    if (t !== term) return;
    sub.dispose();
    host.agents.restartAgent(agentId).then(
      () => void vscode.window.showInformationMessage(vscode.l10n.t('{0} restarted after sign-in.', name)),
      (err: unknown) =>
        void vscode.window.showErrorMessage(vscode.l10n.t('{0} did not restart after sign-in: {1}', name, err instanceof Error ? err.message : String(err))),
    );
  });
  host.own(sub);
}
