// Confirmations as a quick pick rather than a modal dialog: the first row is the action with the
// exact command line beneath it, then one row per fact (source, license, where it is installed).
// Only the action row goes ahead; Escape, Cancel or a click elsewhere goes back with nothing done.
// (A quick pick keeps every line selectable and readable, and works in every VS Code host.)
import * as vscode from 'vscode';

export interface ConfirmOptions {
  title: string;
  action: string;
  /** Shown under the action (the command line). */
  actionDetail?: string;
  facts: { label: string; value: string; warning?: boolean }[];
  /** A second way out, e.g. "Get Node.js": runs `run` and cancels. */
  other?: { label: string; run: () => void };
}

interface Row extends vscode.QuickPickItem {
  go?: 'action' | 'cancel' | 'other';
}

export function confirmPick(o: ConfirmOptions): Promise<boolean> {
  const qp = vscode.window.createQuickPick<Row>();
  qp.title = o.title;
  qp.placeholder = vscode.l10n.t('Check what will happen, then pick "{0}"', o.action);
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.ignoreFocusOut = true;
  const items: Row[] = [
    { label: `$(check) ${o.action}`, ...(o.actionDetail ? { detail: o.actionDetail } : {}), go: 'action', alwaysShow: true },
    ...(o.other ? [{ label: `$(link-external) ${o.other.label}`, go: 'other' as const, alwaysShow: true }] : []),
    { label: `$(close) ${vscode.l10n.t('Cancel')}`, go: 'cancel', alwaysShow: true },
    { label: vscode.l10n.t('Details'), kind: vscode.QuickPickItemKind.Separator },
    ...o.facts.map((f): Row => ({ label: `${f.warning ? '$(warning) ' : ''}${f.label}`, detail: f.value })),
  ];
  qp.items = items;
  qp.activeItems = [items[0]!];
  return new Promise<boolean>((resolve) => {
    const subs: vscode.Disposable[] = [];
    const finish = (ok: boolean): void => {
      for (const d of subs) d.dispose();
      qp.dispose();
      resolve(ok);
    };
    subs.push(
      qp.onDidAccept(() => {
        const go = qp.selectedItems[0]?.go;
        if (!go) return; // a detail row: stay open
        if (go === 'other') o.other?.run();
        finish(go === 'action');
      }),
    );
    subs.push(qp.onDidHide(() => finish(false)));
    qp.show();
  });
}
