// Helpers of the team of agents' tests: the main tree's files as a snapshot, the merge editors open, a row's label, and a command answered through its confirmation.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { PlanTreeNode } from '../../../src/ui/tree/nodes';
import type { TestApi } from './ext';
import { confirm, SHOWN_PICK } from './quickPick';
import { waitForUi } from '../ui';

/** The files of a tree (but .git) with their contents: what an aborted apply must give back exactly. */
export function snapshot(repo: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(repo, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(repo);
  return out;
}

/** The merge editors open (their tab input class is a proposed API: recognised by its shape). */
export function mergeTabs(): { base: vscode.Uri; input1: vscode.Uri; input2: vscode.Uri; result: vscode.Uri }[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs.map((t) => t.input as { base?: unknown; input1?: unknown; input2?: unknown; result?: unknown }))
    .filter((i) => i && i.result instanceof vscode.Uri && i.input1 instanceof vscode.Uri)
    .map((i) => i as { base: vscode.Uri; input1: vscode.Uri; input2: vscode.Uri; result: vscode.Uri });
}

export async function label(a: TestApi, n: PlanTreeNode): Promise<{ label: string; description: string }> {
  const t = await a.internals.plansUi.tree.getTreeItem(n);
  return { label: typeof t.label === 'string' ? t.label : (t.label?.label ?? ''), description: String(t.description ?? '') };
}

/** Runs a command that asks for a confirmation (a quick pick titled `title`), picks `button`, and returns the command's result and the pick's text. */
export async function withConfirm<T>(run: () => Thenable<T>, title: RegExp, button: string): Promise<{ result: T; dialog: string }> {
  const pending = run();
  const titles = await waitForUi(`${SHOWN_PICK} .quick-input-title`, (t) => t.some((x) => title.test(x)), 15000);
  const rows = await confirm(
    titles.find((x) => title.test(x))!,
    button,
  );
  return { result: await pending, dialog: `${titles.join('\n')}\n${rows}` };
}
