// Restore Workspace to Before This Step (rewind) and Undo Restore: the plan comes from
// src/app/checkpoints/restorePlan.ts (the present is checkpointed first, so a restore can be
// undone); this asks in a quick pick that lists every file and what happens to it, asks again for
// a file whose write runs code later, writes, and offers Undo Restore. Part of the work-actions bundle.
import * as vscode from 'vscode';
import type { Checkpoints } from '../app/checkpoints/checkpoints';
import { planRestore } from '../app/checkpoints/restorePlan';
import { truncate } from '../state/planSummary';

export interface RestoreResult {
  restored: string[];
  skipped: { path: string; why: string }[];
  cancelled?: boolean;
  refused?: string;
  /** Restoring these undoes this restore. */
  undo?: { folder: string; id: string }[];
}

export interface RestoreRequest {
  readonly agentId: string;
  readonly sessionId: string;
  readonly targets: readonly { readonly folder: string; readonly id: string }[];
  /** "to before step "…"" / "as it was before the restore". */
  readonly what: string;
}

export async function restoreWorkspace(cps: Pick<Checkpoints, 'read' | 'snapshot' | 'changes'>, req: RestoreRequest): Promise<RestoreResult> {
  const isDirty = (file: string): boolean => vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.scheme === 'file' && d.uri.fsPath === file);
  const plan = await planRestore({ agentId: req.agentId, sessionId: req.sessionId, targets: req.targets, checkpoints: cps, isDirty });
  if (plan.refused) {
    void vscode.window.showWarningMessage(plan.refused);
    return { restored: [], skipped: [], refused: plan.refused };
  }
  const rel = (f: string): string => vscode.workspace.asRelativePath(f);
  const { skipped } = plan;
  if (!plan.todo.length) {
    const why = skipped.map((s) => `${rel(s.path)}: ${s.why}`).join('; ');
    void vscode.window.showInformationMessage(`Nothing to restore: the workspace is already ${req.what}.${why ? ` Left alone: ${why}` : ''}`);
    return { restored: [], skipped, undo: plan.undo };
  }
  const deletes = plan.todo.filter((t) => t.bytes === null).length;
  const n = plan.todo.length;
  const picked = await vscode.window.showQuickPick(
    [
      { label: `$(history) Restore ${n} file${n === 1 ? '' : 's'} ${truncate(req.what, 60)}${deletes ? ` (deletes ${deletes})` : ''}`, go: true },
      { label: '$(close) Cancel', go: false },
      ...plan.todo.map((t) => ({
        label: `${t.bytes === null ? '$(trash) ' : ''}${rel(t.path)}`,
        description: `${t.bytes === null ? 'will be deleted (it did not exist then)' : 'will get its content from then'}${t.runsLater ? `; runs code later (${t.runsLater}): asked separately` : ''}`,
        go: undefined,
      })),
      ...skipped.map((s) => ({ label: `$(warning) ${rel(s.path)}`, description: `left alone: ${s.why}`, go: undefined })),
    ],
    {
      title: 'Restore Workspace',
      placeHolder: 'Check the files, then pick Restore. The present state is kept: Undo Restore brings it back.',
      ignoreFocusOut: true,
    },
  );
  if (picked?.go !== true) return { restored: [], skipped, cancelled: true, undo: plan.undo };
  const restored: string[] = [];
  for (const t of plan.todo) {
    if (t.runsLater && !(await confirmRunsLater(rel(t.path), t.bytes === null, t.runsLater))) {
      skipped.push({ path: t.path, why: `you did not allow it (${t.runsLater})` });
      continue;
    }
    try {
      const uri = vscode.Uri.file(t.path);
      if (t.bytes === null) await vscode.workspace.fs.delete(uri, { useTrash: false });
      else await vscode.workspace.fs.writeFile(uri, t.bytes);
      restored.push(t.path);
    } catch (err) {
      skipped.push({ path: t.path, why: `could not be written (${err instanceof Error ? err.message : String(err)})` });
    }
  }
  const notes = skipped.map((s) => `${rel(s.path)}: ${s.why}`);
  void vscode.window
    .showInformationMessage(
      `Restored ${restored.length} file${restored.length === 1 ? '' : 's'} ${truncate(req.what, 60)}.${notes.length ? ` Left alone: ${notes.join('; ')}` : ''}`,
      'Undo Restore',
    )
    .then((a) => (a === 'Undo Restore' ? vscode.commands.executeCommand('acp.undoRestoreWorkspace') : undefined));
  return { restored, skipped, undo: plan.undo };
}

async function confirmRunsLater(file: string, deletes: boolean, reason: string): Promise<boolean> {
  const verb = deletes ? 'Delete' : 'Write';
  const answer = await vscode.window.showWarningMessage(
    `${verb} ${file}?`,
    { modal: true, detail: `Restoring the workspace ${deletes ? 'deletes' : 'writes'} it, and ${reason}. Allow only if you expect this change.` },
    verb,
  );
  return answer === verb;
}
