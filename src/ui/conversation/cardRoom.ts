// Room for a card that waits for the user: the side bar's Conversation told us (cramped) that a
// plan approval, permission or form is taller than its visible area. As chat extensions do, the
// conversation is offered in an editor tab. The setting `acp.conversation.cardRoom` decides without
// asking ("editor" / "sideBar"); with "ask", "Always in Editor" and "Keep in Side Bar" are written to
// that user setting (seen, and undone, in the Settings editor) and asked no more.
import * as vscode from 'vscode';

export type CardRoomChoice = 'ask' | 'editor' | 'sideBar';

/** The user's choice (the setting; anything else reads as "ask"). */
export function cardRoomChoice(): CardRoomChoice {
  const v = vscode.workspace.getConfiguration('acp').get<unknown>('conversation.cardRoom');
  return v === 'editor' || v === 'sideBar' ? v : 'ask';
}

/** Asks whether to open the conversation in an editor tab for a card of `needed` px shown in `available` px. */
export async function offerEditor(needed: number, available: number): Promise<boolean> {
  const OPEN = vscode.l10n.t('Open in Editor');
  const ALWAYS = vscode.l10n.t('Always in Editor');
  const KEEP = vscode.l10n.t('Keep in Side Bar');
  const answer = await vscode.window.showInformationMessage(
    vscode.l10n.t(
      'A card waiting for your answer needs {0} px, and the Conversation in the side bar shows {1} px. Open the conversation in an editor tab to read it without scrolling? (Setting: ACP › Conversation: Card Room)',
      needed,
      available,
    ),
    OPEN,
    ALWAYS,
    KEEP,
  );
  if (answer === ALWAYS || answer === KEEP)
    await vscode.workspace.getConfiguration('acp').update('conversation.cardRoom', answer === ALWAYS ? 'editor' : 'sideBar', vscode.ConfigurationTarget.Global);
  return answer === OPEN || answer === ALWAYS;
}
