// Helpers shared by the intent plan tests (intent.test.ts, intentTree.test.ts): a Plans tree item
// read as a row (label, description, icon, context value, tooltip), and a global `acp.*` setting
// set for a test with its restorer.
import * as vscode from 'vscode';

export interface Row {
  label: string;
  description: string;
  icon: string;
  context: string;
  tooltip: string;
}

export function rowOf(item: vscode.TreeItem): Row {
  const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : '';
  return {
    label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''),
    description: typeof item.description === 'string' ? item.description : '',
    icon,
    context: item.contextValue ?? '',
    tooltip: typeof item.tooltip === 'string' ? item.tooltip : '',
  };
}

/** Sets a global setting; returns its restorer. */
export async function setting(key: string, value: unknown): Promise<() => Thenable<void>> {
  const before = vscode.workspace.getConfiguration('acp').inspect(key)?.globalValue;
  await vscode.workspace.getConfiguration('acp').update(key, value, vscode.ConfigurationTarget.Global);
  return () => vscode.workspace.getConfiguration('acp').update(key, before, vscode.ConfigurationTarget.Global);
}
