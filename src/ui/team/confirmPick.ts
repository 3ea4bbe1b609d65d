// The confirmation of Apply Worktree Changes… and Remove Worktree…: a quick pick that stays open
// when focus leaves it (as the registry's confirmations), the actions first, Cancel, then every
// file concerned as a row to read (typing filters them; the actions and Cancel stay). Cancel is
// the active row: Enter alone changes nothing. Resolves with the action picked, or undefined
// (Cancel, Escape).
import * as vscode from 'vscode';

type Row = vscode.QuickPickItem & { action?: string };

export function confirmPick(
  title: string,
  actions: readonly { label: string; detail: string }[],
  files: readonly string[],
  filesTitle: string,
): Promise<string | undefined> {
  const qp = vscode.window.createQuickPick<Row>();
  qp.title = title;
  qp.placeholder = vscode.l10n.t('Check the files, then pick what to do');
  qp.ignoreFocusOut = true;
  const items: Row[] = [...actions.map((a) => ({ label: a.label, detail: a.detail, action: a.label, alwaysShow: true }))];
  const cancel: Row = { label: vscode.l10n.t('Cancel'), detail: vscode.l10n.t('Change nothing'), action: '', alwaysShow: true };
  items.push(cancel, { label: `${filesTitle} (${files.length})`, kind: vscode.QuickPickItemKind.Separator }, ...files.map((f) => ({ label: `$(file) ${f}` })));
  qp.items = items;
  qp.activeItems = [cancel];
  return new Promise((resolve) => {
    const subs: vscode.Disposable[] = [];
    const finish = (v: string | undefined): void => {
      for (const d of subs) d.dispose();
      qp.dispose();
      resolve(v);
    };
    subs.push(
      qp.onDidAccept(() => {
        const a = qp.selectedItems[0]?.action;
        if (a === undefined) return; // a file row: stay open
        finish(a || undefined);
      }),
      qp.onDidHide(() => finish(undefined)),
    );
    qp.show();
  });
}
