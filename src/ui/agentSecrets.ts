// Remote agents' VS Code dialogs, loaded on first use (dist/remote-ui.js, through remoteAgents.ts):
// the confirmation before the first connection to a host (a quick pick showing the URL, the header
// names and the secrets they use), and "ACP: Set Agent Secret…" (which secret, then its value in a
// password box; empty deletes it).
import * as vscode from 'vscode';
import { confirmPick } from '../registry/ui/confirm';
import { Config } from '../platform/config';
import { SECRET_PREFIX, SECRET_NAME as NAME, type HostConfirmation } from './agentSecretKeys';

export function askHost(c: HostConfirmation): Promise<boolean> {
  const u = new URL(c.url);
  for (const k of [...u.searchParams.keys()]) u.searchParams.set(k, '***');
  const facts = [
    { label: vscode.l10n.t('URL'), value: u.href },
    { label: vscode.l10n.t('Headers sent'), value: c.headerNames.length ? c.headerNames.join(', ') : vscode.l10n.t('none') },
    ...(c.secrets.length ? [{ label: vscode.l10n.t('Secrets used (from VS Code secret storage)'), value: c.secrets.join(', ') }] : []),
    {
      label: vscode.l10n.t('What the agent can do'),
      value: vscode.l10n.t('Read and write files and run commands in this workspace, as any agent you start, each behind its permission prompts.'),
    },
    { label: vscode.l10n.t('Remembered'), value: vscode.l10n.t('Connections to {0} are not asked about again.', c.host) },
  ];
  return confirmPick({
    title: vscode.l10n.t('Connect to the agent "{0}" at {1}?', c.agentName, c.host),
    action: vscode.l10n.t('Connect'),
    actionDetail: u.href,
    facts,
  });
}

/** The secret names the acp.agents headers refer to, each once. */
function referencedSecrets(): string[] {
  const names = new Set<string>();
  const raw = new Config().agentsRaw();
  for (const e of Array.isArray(raw) ? raw : []) {
    const headers = (e as { headers?: unknown })?.headers;
    if (!headers || typeof headers !== 'object') continue;
    for (const v of Object.values(headers)) if (typeof v === 'string') for (const m of v.matchAll(/\$\{secret:([A-Za-z0-9._-]{1,64})\}/g)) names.add(m[1]!);
  }
  return [...names];
}

async function pickName(context: vscode.ExtensionContext): Promise<string | undefined> {
  const items: vscode.QuickPickItem[] = [];
  for (const n of referencedSecrets())
    items.push({ label: n, description: (await context.secrets.get(SECRET_PREFIX + n)) ? vscode.l10n.t('set') : vscode.l10n.t('not set') });
  items.push({ label: `$(add) ${vscode.l10n.t('Another name…')}`, alwaysShow: true });
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('ACP: Set Agent Secret'),
    placeHolder: vscode.l10n.t('Which secret? Headers name them as {0}', '${secret:NAME}'),
  });
  if (!pick) return undefined;
  if (!pick.label.startsWith('$(add)')) return pick.label;
  return vscode.window.showInputBox({
    title: vscode.l10n.t('ACP: Set Agent Secret'),
    prompt: vscode.l10n.t("The secret's name, as a header names it: {0}", '"Authorization": "Bearer ${secret:NAME}"'),
    validateInput: (v) => (NAME.test(v) ? undefined : vscode.l10n.t('1–64 letters, digits, ".", "_" or "-"')),
  });
}

/** "ACP: Set Agent Secret…": stores (or, with an empty value, deletes) one secret. */
export async function setSecret(context: vscode.ExtensionContext, nameArg: unknown, valueArg: unknown): Promise<boolean> {
  const name = typeof nameArg === 'string' ? nameArg : await pickName(context);
  if (name === undefined) return false;
  if (!NAME.test(name)) {
    void vscode.window.showErrorMessage(vscode.l10n.t('"{0}" is not a secret name: use 1–64 letters, digits, ".", "_" or "-".', name));
    return false;
  }
  const value =
    typeof valueArg === 'string'
      ? valueArg
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('ACP: Set Agent Secret "{0}"', name),
          prompt: vscode.l10n.t("Its value, kept in VS Code's secret storage (never in settings or logs). Leave empty to delete it."),
          password: true,
          ignoreFocusOut: true,
        });
  if (value === undefined) return false;
  if (value === '') {
    await context.secrets.delete(SECRET_PREFIX + name);
    void vscode.window.showInformationMessage(vscode.l10n.t('The secret "{0}" was deleted.', name));
  } else {
    await context.secrets.store(SECRET_PREFIX + name, value);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The secret "{0}" is stored. Agents whose headers name it use it from their next connection.', name),
    );
  }
  return true;
}
