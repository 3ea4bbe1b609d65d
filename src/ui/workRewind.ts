// Restore Workspace to Before This Step (rewind) and Undo Restore: the plan comes from
// src/app/checkpoints/restorePlan.ts (the present is checkpointed first, so a restore can be
// undone); this asks in a quick pick that lists every file and what happens to it, asks again for
// a file whose write runs code later, writes, and offers Undo Restore. Part of the work-actions bundle.
import * as vscode from 'vscode';
import type { Checkpoints } from '../app/checkpoints/checkpoints';
import { checkpointReason } from '../app/checkpoints/reasons';
import { planRestore, type RestoreItem, type RestorePlan } from '../app/checkpoints/restorePlan';
import { checkWritePath } from '../common/safePath';
import { truncate } from '../state/planSummary';
import { checkpointWords, pathRefusalWords } from './checkpointWords';

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

type Skipped = RestoreResult['skipped'];

const rel = (f: string): string => vscode.workspace.asRelativePath(f);

/** Puts the workspace back to the request's checkpoints after a confirmation; returns what was restored and how to undo it. */
export async function restoreWorkspace(cps: Pick<Checkpoints, 'read' | 'snapshot' | 'changes'>, req: RestoreRequest): Promise<RestoreResult> {
  const isDirty = (file: string): boolean => vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.scheme === 'file' && d.uri.fsPath === file);
  const plan = await planRestore({
    agentId: req.agentId,
    sessionId: req.sessionId,
    targets: req.targets,
    checkpoints: cps,
    isDirty,
    l10n: vscode.l10n,
    refusalWords: (r) => pathRefusalWords(r, vscode.l10n),
  }).catch(showCheckpointFailure);
  if (!plan) return { restored: [], skipped: [] };
  if (plan.refused) {
    void vscode.window.showWarningMessage(plan.refused);
    return { restored: [], skipped: [], refused: plan.refused };
  }
  const { skipped } = plan;
  if (!plan.todo.length) {
    const why = skipped.map((s) => `${rel(s.path)}: ${s.why}`).join('; ');
    const none = vscode.l10n.t('Nothing to restore: the workspace is already {0}.', req.what);
    void vscode.window.showInformationMessage(why ? `${none} ${vscode.l10n.t('Left alone: {0}', why)}` : none);
    return { restored: [], skipped, undo: plan.undo };
  }
  if (!(await confirmRestore(plan, req.what))) return { restored: [], skipped, cancelled: true, undo: plan.undo };
  const restored = await writeFiles(plan.todo, skipped);
  showRestored(req.what, restored, skipped);
  return { restored, skipped, undo: plan.undo };
}

/** The confirmation: Restore, Cancel, then every file with what happens to it (and those left alone, with why); true for Restore. */
async function confirmRestore(plan: RestorePlan, what: string): Promise<boolean> {
  const deletes = plan.todo.filter((t) => t.bytes === null).length;
  const n = plan.todo.length;
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: `$(history) ${n === 1 ? vscode.l10n.t('Restore 1 file {0}', truncate(what, 60)) : vscode.l10n.t('Restore {0} files {1}', n, truncate(what, 60))}${
          deletes ? ` ${vscode.l10n.t('(deletes {0})', deletes)}` : ''
        }`,
        go: true,
      },
      { label: `$(close) ${vscode.l10n.t('Cancel')}`, go: false },
      ...plan.todo.map((t) => ({
        label: `${t.bytes === null ? '$(trash) ' : ''}${rel(t.path)}`,
        description: `${t.bytes === null ? vscode.l10n.t('will be deleted (it did not exist then)') : vscode.l10n.t('will get its content from then')}${
          t.runsLater ? `; ${vscode.l10n.t('runs code later ({0}): asked separately', t.runsLater)}` : ''
        }`,
        go: undefined,
      })),
      ...plan.skipped.map((s) => ({ label: `$(warning) ${rel(s.path)}`, description: vscode.l10n.t('left alone: {0}', s.why), go: undefined })),
    ],
    {
      title: vscode.l10n.t('Restore Workspace'),
      placeHolder: vscode.l10n.t('Check the files, then pick Restore. The present state is kept: Undo Restore brings it back.'),
      ignoreFocusOut: true,
    },
  );
  return picked?.go === true;
}

/**
 * Writes (or deletes) each file; one whose write runs code later is asked for on its own first. A
 * file not allowed or not written joins `skipped` with why; returns the files restored.
 */
async function writeFiles(todo: readonly RestoreItem[], skipped: Skipped): Promise<string[]> {
  const restored: string[] = [];
  for (const t of todo) {
    if (t.runsLater && !(await confirmRunsLater(rel(t.path), t.bytes === null, t.runsLater))) {
      skipped.push({ path: t.path, why: vscode.l10n.t('you did not allow it ({0})', t.runsLater) });
      continue;
    }
    // Checked again now: the agent may have put a link in the way while the confirmation was open.
    const target = await checkWritePath([t.folder], t.path).catch(() => undefined);
    if (!target?.ok) {
      skipped.push({ path: t.path, why: target ? pathRefusalWords(target.refusal, vscode.l10n) : vscode.l10n.t('its folder could not be looked at') });
      continue;
    }
    try {
      const uri = vscode.Uri.file(t.path);
      if (t.bytes === null) await vscode.workspace.fs.delete(uri, { useTrash: false });
      else await vscode.workspace.fs.writeFile(uri, t.bytes);
      restored.push(t.path);
    } catch (err) {
      skipped.push({ path: t.path, why: vscode.l10n.t('could not be written ({0})', err instanceof Error ? err.message : String(err)) });
    }
  }
  return restored;
}

/** What was restored and what was left alone, with Undo Restore. */
function showRestored(what: string, restored: readonly string[], skipped: Skipped): void {
  const notes = skipped.map((s) => `${rel(s.path)}: ${s.why}`);
  const done =
    restored.length === 1
      ? vscode.l10n.t('Restored 1 file {0}.', truncate(what, 60))
      : vscode.l10n.t('Restored {0} files {1}.', restored.length, truncate(what, 60));
  const undo = vscode.l10n.t('Undo Restore');
  void vscode.window
    .showInformationMessage(notes.length ? `${done} ${vscode.l10n.t('Left alone: {0}', notes.join('; '))}` : done, undo)
    .then((a) => (a === undo ? vscode.commands.executeCommand('acp.undoRestoreWorkspace') : undefined));
}

/** A Revert or Restore that could not read a checkpoint: why, in words. */
export function showCheckpointFailure(err: unknown): void {
  void vscode.window.showErrorMessage(checkpointWords(checkpointReason(err), vscode.l10n));
}

async function confirmRunsLater(file: string, deletes: boolean, reason: string): Promise<boolean> {
  const verb = deletes ? vscode.l10n.t('Delete') : vscode.l10n.t('Write');
  const answer = await vscode.window.showWarningMessage(
    deletes ? vscode.l10n.t('Delete {0}?', file) : vscode.l10n.t('Write {0}?', file),
    {
      modal: true,
      detail: deletes
        ? vscode.l10n.t('Restoring the workspace deletes it, and {0}. Allow only if you expect this change.', reason)
        : vscode.l10n.t('Restoring the workspace writes it, and {0}. Allow only if you expect this change.', reason),
    },
    verb,
  );
  return answer === verb;
}
