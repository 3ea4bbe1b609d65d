// The texts Review Changes of This Step shows for a file whose diffs carried only a patch: rebuilt
// from the kept patch sections and the file as it is now (src/state/attribution/patchTexts.ts).
// The file is read only where Open Diff reads it without asking (diffAccess.ts: a regular file of
// at most 16 MiB inside the workspace folders); otherwise the hunks alone are shown, or, for a
// new or deleted file, the text the patch holds whole.
import * as vscode from 'vscode';
import { workspaceRoots } from '../platform/workspace';
import { reviewTexts, type ReviewTexts } from '../state/attribution/patchTexts';
import type { FileChange } from '../state/attribution/workStore';
import { decideDiffRead, readCapped } from './conversation/diffAccess';

/** Undefined when the step's texts of this file are known whole, or no patch was kept. */
export async function patchReviewTexts(c: { path: string; first: FileChange; last: FileChange; all: readonly FileChange[] }): Promise<ReviewTexts | undefined> {
  if (c.first.before !== undefined && c.last.after !== undefined) return undefined;
  const patch = c.all.flatMap((x) => (x.patch === undefined ? [] : [x.patch]));
  if (!patch.length) return undefined;
  return reviewTexts({ before: c.first.before, after: c.last.after, patch }, await liveText(c.path));
}

/** The file now: null when it does not exist, undefined when it may not be read without asking. */
async function liveText(file: string): Promise<string | null | undefined> {
  const d = await decideDiffRead(file, workspaceRoots());
  if (d.kind === 'refuse') return d.missing ? null : undefined;
  if (d.kind === 'ask') return undefined;
  const open = vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'file' && doc.uri.fsPath === d.path);
  if (open) return open.getText();
  try {
    return await readCapped(d.real);
  } catch {
    return undefined;
  }
}
