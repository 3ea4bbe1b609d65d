// Rejected `acp.agents` entries (and registry overrides), said where the user looks: each new
// reason once as a warning with Open Settings; the Plans tree shows an error row per reason until
// the setting is fixed (plansTreeProvider's `problems`). The reasons are the AgentManager's
// sentences (also in the log).
import * as vscode from 'vscode';

export interface SettingProblems {
  readonly configProblems: readonly string[];
  readonly onDidChangeConfigProblems: vscode.Event<void>;
}

/** Warns once per reason (per window) with Open Settings, now and whenever the reasons change. */
export function warnSettingProblems(source: SettingProblems): vscode.Disposable {
  const said = new Set<string>();
  const warn = (): void => {
    for (const p of source.configProblems) {
      if (said.has(p)) continue;
      said.add(p);
      const open = vscode.l10n.t('Open Settings');
      void vscode.window.showWarningMessage(p, open).then((pick) => {
        if (pick === open) void vscode.commands.executeCommand('workbench.action.openSettings', 'acp.agents');
      });
    }
  };
  warn();
  return source.onDidChangeConfigProblems(warn);
}
