// The VS Code side of asking for consent: a notification per request whose buttons carry each
// option's kind next to the agent's name (never the name alone), and, before a lasting rule is
// created, a pick that says exactly what each candidate rule will cover. While the user is away
// (src/app/attention.ts) the notification also offers "Show Session"; a click on one of its
// buttons after the request was answered elsewhere says so and does nothing else.
import * as vscode from 'vscode';
import type { RuleCandidate } from '../consent/permissionRules';
import type { ConsentUi } from '../app/permissionBroker';
import { toastText } from '../app/attention';
import type { SessionKey } from '../state/sessionStore';

/** Where the permission notification looks for "away" and "Show Session" (absent: never offered). */
export interface ConsentAttention {
  offerShowSession(): boolean;
  showSession(ref: SessionKey): void;
}

const SHOW_SESSION = 'Show Session';

export const vscodeConsentUi = (attention: () => ConsentAttention | undefined): ConsentUi => ({
  async ask(entry, views) {
    const req = entry.request;
    const flag = entry.flags.includes('not_in_plan') ? ' [not in the declared intent plan]' : '';
    const detail = req.subject?.type === 'command' ? ` — ${req.subject.command}` : '';
    const warnings = views
      .filter((v) => v.warning)
      .map((v) => v.warning)
      .join(' ');
    const show = attention();
    const offer = show?.offerShowSession() ? [SHOW_SESSION] : [];
    const pick = await vscode.window.showInformationMessage(
      toastText(`${entry.agentName} asks: ${req.title}${detail}${flag}${warnings ? ` ⚠ ${warnings}` : ''}`, 600),
      ...views.map((v) => v.label),
      ...offer,
    );
    if (pick === SHOW_SESSION && !views.some((v) => v.label === SHOW_SESSION)) {
      show?.showSession({ agentId: entry.agentId, sessionId: req.sessionId });
      return undefined;
    }
    return pick === undefined ? undefined : views.find((v) => v.label === pick);
  },

  alreadyAnswered(entry) {
    void vscode.window.showInformationMessage(`That request from ${toastText(entry.agentName, 60)} was already answered; nothing was changed.`);
  },

  async pickRule(offer, agentName) {
    if (offer.candidates.length === 0) {
      void vscode.window.showInformationMessage(`${offer.reason ?? 'No rule can cover this request.'} ${agentName} is allowed this time only.`);
      return null;
    }
    type Item = vscode.QuickPickItem & { candidate: RuleCandidate | null };
    const items: Item[] = [
      ...offer.candidates.map((c): Item => ({
        label: c.breadth === 'narrow' ? '$(shield) Exactly this' : '$(unlock) Wider',
        detail: c.description,
        candidate: c,
      })),
      { label: '$(circle-slash) No rule', detail: `Allow this request only; ${agentName} asks again next time.`, candidate: null },
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: `Always allow — what should the rule for ${agentName} cover?`,
      placeHolder: 'Each rule covers exactly what its line says.',
      ignoreFocusOut: true,
    });
    return pick?.candidate;
  },

  ruleCreated(description, undo) {
    void vscode.window.showInformationMessage(`Rule created — ${description}.`, 'Undo', 'Manage Rules').then((pick) => {
      if (pick === 'Undo') undo();
      if (pick === 'Manage Rules') void vscode.commands.executeCommand('acp.managePermissionRules');
    });
  },

  warn(message) {
    void vscode.window.showWarningMessage(message);
  },
});
