// The VS Code side of sign-in (SignInUi, src/app/agentPorts.ts): the warning that offers Sign In
// (and Show Log), the quick pick of the agent's methods, the modal that shows a terminal method's
// command line, arguments and variables (secrets already masked by SignIn) with "Run in Terminal"
// and Cancel, the messages, and the terminal a terminal method runs in (its exit code read when it
// closes).
import * as vscode from 'vscode';
import { confirmPick } from '../registry/ui/confirm';
import type { AuthMethod } from '../protocol/domain';
import type { SignInUi, TerminalRun } from '../app/agentPorts';
import { signInQuestion } from '../app/signInWords';

export function vscodeSignInUi(log: { show(preserveFocus?: boolean): void }): SignInUi {
  return {
    async askToSignIn(name, what) {
      const signIn = vscode.l10n.t('Sign In');
      const showLog = vscode.l10n.t('Show Log');
      const pick = await vscode.window.showWarningMessage(signInQuestion(name, what, vscode.l10n), signIn, showLog);
      if (pick === showLog) log.show(true);
      return pick === signIn;
    },

    async pickMethod(name, methods) {
      const pick = await vscode.window.showQuickPick(
        methods.map((m) => ({ label: m.name, description: methodKind(m), detail: m.description ?? undefined, m })),
        { placeHolder: vscode.l10n.t('Sign in to {0}: pick a method', name), ignoreFocusOut: true },
      );
      return pick?.m;
    },

    confirmTerminalRun(c) {
      // A quick pick, as every confirmation of what will run (registry installs too): each line stays
      // readable, and it works in every VS Code host (a modal dialog is refused in some).
      const facts = c.sections.map((s) => ({ label: s.label, value: s.lines.map((l) => l.trim()).join('   ') }));
      return confirmPick({ title: c.message, action: vscode.l10n.t('Run in Terminal'), actionDetail: c.commandLine, facts });
    },

    showError(message) {
      void vscode.window.showErrorMessage(message);
    },

    showInfo(message) {
      void vscode.window.showInformationMessage(message);
    },

    runInTerminal(spec): TerminalRun {
      const term = vscode.window.createTerminal({
        name: spec.name,
        shellPath: spec.command,
        shellArgs: [...spec.args],
        env: { ...spec.env },
        ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
        isTransient: true,
      });
      let listener: vscode.Disposable | undefined;
      const exit = new Promise<number | undefined>((resolve) => {
        listener = vscode.window.onDidCloseTerminal((t) => {
          if (t === term) resolve(t.exitStatus?.code);
        });
      });
      term.show();
      return {
        exit,
        dispose: () => {
          listener?.dispose();
          term.dispose();
        },
      };
    },
  };
}

function methodKind(m: AuthMethod): string {
  return m.type === 'terminal' ? 'in a terminal' : m.type === 'agent' ? 'by the agent' : m.type;
}
