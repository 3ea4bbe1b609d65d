// The VS Code side of AttentionUi (src/app/attention.ts): the user is away when the window is
// unfocused (`window.state.focused`) or neither the Plans view nor a conversation is on screen;
// a notice is a notification with "Show Session", which makes the session the active one and
// focuses its conversation. The same answers serve the permission notification (ConsentAttention).
import * as vscode from 'vscode';
import type { AttentionUi } from '../app/attention';
import type { SessionKey } from '../state/sessionStore';
import type { ConsentAttention } from './permissionPrompts';

export interface AttentionDeps {
  enabled(): boolean;
  plansVisible(): boolean;
  conversationVisible(): boolean;
  /** Makes the session the active one (its conversation shows it). */
  activate(ref: SessionKey): void;
}

export function vscodeAttentionUi(deps: AttentionDeps): AttentionUi & ConsentAttention {
  const away = (): boolean => !vscode.window.state.focused || (!deps.plansVisible() && !deps.conversationVisible());
  const showSession = (ref: SessionKey): void => {
    deps.activate(ref);
    void vscode.commands.executeCommand('acp.conversation.focus');
  };
  return {
    enabled: deps.enabled,
    away,
    offerShowSession: () => deps.enabled() && away(),
    async notify(notice) {
      const show = notice.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      const showLabel = vscode.l10n.t('Show Session');
      return (await show(notice.message, showLabel)) === showLabel;
    },
    showSession,
    say: (message) => void vscode.window.showInformationMessage(message),
    l10n: vscode.l10n,
  };
}
