// Helpers of the team of agents' tests: the main tree's files as a snapshot, and the merge editors open.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

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
