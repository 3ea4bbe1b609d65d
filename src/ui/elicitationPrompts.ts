// The elicitation UI outside a conversation: a request-scoped elicitation (no session yet) is a
// notification naming the agent; "Fill In…" walks the form's fields in quick inputs (each checked
// as typed), a link is opened only after the user picks "Open <host>". Opening goes through
// `vscode.env.openExternal`, only for links checkLink accepts and whose host VS Code's own parse
// agrees with (checked again here).
import * as vscode from 'vscode';
import type { ElicitationField, ElicitationRequest, ElicitationResponse } from '../protocol/elicitation';
import type { RawValues } from '../state/elicitationValues';
import { formChecks } from '../state/elicitationChecks';
import type { ElicitationUi } from '../app/elicitationBroker';
import { checkLink, hostOf } from '../common/linkTarget';
import { elicitationProblemWords } from './elicitationWords';

export const vscodeElicitationUi: ElicitationUi = {
  async askOutsideSession(agentName, req) {
    if (req.mode !== 'form' && req.mode !== 'url') return undefined;
    const message = vscode.l10n.t('{0} asks: {1}', agentName, req.message.slice(0, 300));
    const go = req.mode === 'url' ? vscode.l10n.t('Open {0}', hostOf(req.url, vscode.l10n)) : vscode.l10n.t('Fill In…');
    const decline = vscode.l10n.t('Decline');
    const pick = await vscode.window.showInformationMessage(message, go, decline);
    if (pick === decline) return { action: 'decline' };
    if (pick !== go) return undefined;
    if (req.mode === 'url') return (await openHttpUrl(req.url)) ? { action: 'accept' } : undefined;
    return fillIn(req);
  },
  openUrl: openHttpUrl,
  warn: (message) => void vscode.window.showWarningMessage(message),
  problemWords: (problem) => elicitationProblemWords(problem, vscode.l10n),
};

/**
 * False when the link could hide where it goes (checkLink), VS Code's own parse names another host
 * than the one shown, or it was not opened (VS Code's own link check may say no).
 */
export async function openHttpUrl(url: string): Promise<boolean> {
  const link = checkLink(url);
  if (!link.ok) return false;
  try {
    const uri = vscode.Uri.parse(link.url, true);
    if (uri.scheme !== 'http' && uri.scheme !== 'https') return false;
    if (uri.authority.toLowerCase() !== link.host && uri.authority.toLowerCase() !== hostWithPort(link.url)) return false;
    return await vscode.env.openExternal(uri);
  } catch {
    return false;
  }
}

/** The authority as written (with a default port, if the link spells it out). */
function hostWithPort(url: string): string {
  return /^[a-z]+:\/\/([^/?#]*)/.exec(url)?.[1]?.toLowerCase() ?? '';
}

/** One quick input per field; Escape cancels the whole form. */
async function fillIn(req: Extract<ElicitationRequest, { mode: 'form' }>): Promise<ElicitationResponse | undefined> {
  const values: RawValues = formChecks().initialValues(req.form);
  for (const f of req.form.fields) {
    const v = await askField(f, values[f.name]);
    if (v === undefined) return undefined;
    values[f.name] = v;
  }
  const check = formChecks().checkForm(req.form, values, vscode.l10n);
  return check.ok ? { action: 'accept', content: check.content } : undefined;
}

async function askField(f: ElicitationField, current: RawValues[string] | undefined): Promise<RawValues[string] | undefined> {
  const title = f.required ? vscode.l10n.t('{0} (required)', f.label) : f.label;
  switch (f.kind) {
    case 'unknown':
      return f.required ? undefined : '';
    case 'boolean': {
      const yes = vscode.l10n.t('Yes');
      const p = await vscode.window.showQuickPick([yes, vscode.l10n.t('No')], { title, placeHolder: f.description ?? undefined });
      return p === undefined ? undefined : p === yes;
    }
    case 'choice':
    case 'multi': {
      const items = f.options.map((o) => ({
        label: o.title,
        description: o.description ?? undefined,
        value: o.value,
        picked: Array.isArray(current) && current.includes(o.value),
      }));
      if (f.kind === 'multi') {
        const p = await vscode.window.showQuickPick(items, { title, canPickMany: true, placeHolder: f.description ?? undefined });
        return p?.map((i) => i.value);
      }
      const p = await vscode.window.showQuickPick(items, { title, placeHolder: f.description ?? undefined });
      return p?.value;
    }
    default: {
      const one = { fields: [f] };
      return vscode.window.showInputBox({
        title,
        prompt: f.description ?? undefined,
        value: typeof current === 'string' ? current : '',
        validateInput: (text) => {
          const c = formChecks().checkForm(one, { [f.name]: text }, vscode.l10n);
          return c.ok ? undefined : c.errors[f.name];
        },
      });
    }
  }
}
