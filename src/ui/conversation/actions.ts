// What the extension does for clicks in the conversation: open a file at a line, open a link.
import * as vscode from 'vscode';
import { checkLink, refusedLinkNote } from '../../common/linkTarget';
import { insideWorkspace } from '../../platform/workspace';
import { toUri } from './diffDocuments';

/** Opens `path` (absolute, or relative to the workspace) at 1-based `line`; outside the workspace only after asking. */
export async function openLocation(path: string, line: number | null): Promise<void> {
  const uri = toUri(path);
  if (!uri) return;
  if (uri.scheme === 'file' && !insideWorkspace(uri.fsPath)) {
    const open = vscode.l10n.t('Open');
    const ok = await vscode.window.showWarningMessage(
      vscode.l10n.t("The agent's link points outside the workspace folders: {0}. Open it?", uri.fsPath),
      { modal: true },
      open,
    );
    if (ok !== open) return;
  }
  const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(pos, pos), preview: true });
}

/** https links (http to this machine) open outside VS Code when checkLink accepts them; file links open in an editor; anything else is ignored. */
export async function openLink(href: string): Promise<boolean> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(href, true);
  } catch {
    return false;
  }
  if (uri.scheme === 'http' || uri.scheme === 'https') {
    // The same rule as elicitation links: never open an address that could hide where it goes.
    const link = checkLink(href, vscode.l10n);
    if (!link.ok) {
      void vscode.window.showWarningMessage(refusedLinkNote(link.reason, vscode.l10n));
      return false;
    }
    return vscode.env.openExternal(vscode.Uri.parse(link.url, true));
  }
  if (uri.scheme === 'file') {
    if (uri.authority) return false; // a file on another host (UNC): never opened from agent text
    const m = /^L?(\d+)/.exec(uri.fragment);
    await openLocation(uri.fsPath, m ? Number(m[1]) : null);
    return true;
  }
  return false;
}
