// The VS Code side of asking for consent: a notification per request whose buttons carry each
// option's kind next to the agent's name (never the name alone), and, before a lasting rule is
// created, a pick that says exactly what each candidate rule will cover. While the user is away
// (src/app/attention.ts) the notification also offers "Show Session"; a click on one of its
// buttons after the request was answered elsewhere says so and does nothing else.
import * as vscode from 'vscode';
import type { OptionView, RuleCandidate, RuleOffer } from '../consent/permissionRules';
import type { ConsentUi } from '../app/permissionBroker';
import { toastText } from '../app/attention';
import type { PendingPermission, SessionKey } from '../state/sessionStore';

/** Where the permission notification looks for "away" and "Show Session" (absent: never offered). */
export interface ConsentAttention {
  offerShowSession(): boolean;
  showSession(ref: SessionKey): void;
}

export const vscodeConsentUi = (attention: () => ConsentAttention | undefined): ConsentUi => ({
  ask: (entry, views) => askInNotification(attention, entry, views),

  alreadyAnswered(entry) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('That request from {0} was already answered; nothing was changed.', toastText(entry.agentName, 60)),
    );
  },

  pickRule: (offer, agentName) => pickRuleScope(offer, agentName),

  ruleCreated(description, undo) {
    const undoLabel = vscode.l10n.t('Undo');
    const manage = vscode.l10n.t('Manage Rules');
    void vscode.window.showInformationMessage(vscode.l10n.t('Rule created — {0}.', description), undoLabel, manage).then((pick) => {
      if (pick === undoLabel) undo();
      if (pick === manage) void vscode.commands.executeCommand('acp.managePermissionRules');
    });
  },

  warn(message) {
    void vscode.window.showWarningMessage(message);
  },
});

/** The request as a notification, one button per option (and "Show Session" while the user is away). */
async function askInNotification(
  attention: () => ConsentAttention | undefined,
  entry: PendingPermission,
  views: readonly OptionView[],
): Promise<OptionView | undefined> {
  const req = entry.request;
  const SHOW_SESSION = vscode.l10n.t('Show Session');
  const flag = entry.flags.includes('not_in_plan') ? vscode.l10n.t(' [not in the declared intent plan]') : '';
  const detail = req.subject?.type === 'command' ? ` — ${req.subject.command}` : '';
  const warnings = views
    .filter((v) => v.warning)
    .map((v) => v.warning)
    .join(' ');
  const show = attention();
  const offer = show?.offerShowSession() ? [SHOW_SESSION] : [];
  const pick = await vscode.window.showInformationMessage(
    toastText(vscode.l10n.t('{0} asks: {1}', entry.agentName, `${req.title}${detail}${flag}${warnings ? ` ⚠ ${warnings}` : ''}`), 600),
    ...views.map((v) => v.label),
    ...offer,
  );
  if (pick === SHOW_SESSION && !views.some((v) => v.label === SHOW_SESSION)) {
    show?.showSession({ agentId: entry.agentId, sessionId: req.sessionId });
    return undefined;
  }
  return pick === undefined ? undefined : views.find((v) => v.label === pick);
}

/** What the rule of an "always allow" covers: a candidate, `null` for no rule, undefined if dismissed. */
async function pickRuleScope(offer: RuleOffer, agentName: string): Promise<RuleCandidate | null | undefined> {
  if (offer.candidates.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('{0} {1} is allowed this time only.', offer.reason ?? vscode.l10n.t('No rule can cover this request.'), agentName),
    );
    return null;
  }
  type Item = vscode.QuickPickItem & { candidate: RuleCandidate | null };
  const items: Item[] = [
    ...offer.candidates.map((c): Item => ({
      label: c.breadth === 'narrow' ? vscode.l10n.t('$(shield) Exactly this') : vscode.l10n.t('$(unlock) Wider'),
      detail: c.description,
      candidate: c,
    })),
    {
      label: vscode.l10n.t('$(circle-slash) No rule'),
      detail: vscode.l10n.t('Allow this request only; {0} asks again next time.', agentName),
      candidate: null,
    },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Always allow — what should the rule for {0} cover?', agentName),
    placeHolder: vscode.l10n.t('Each rule covers exactly what its line says.'),
    ignoreFocusOut: true,
  });
  return pick?.candidate;
}
