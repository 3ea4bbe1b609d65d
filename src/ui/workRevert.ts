// Revert Changes of This Step: the plan comes from src/app/revertPlan.ts (what may be put back, file
// by file, or why not); this reads the files' current texts, asks in a quick pick that lists every
// file and what happens to it, asks again for a file whose write runs code later, writes through the
// editor, and says what was and was not reverted. Part of the work-actions bundle.
import * as path from 'path';
import * as vscode from 'vscode';
import { confirmationRows, planRevert, type RevertItem, type RevertPlan } from '../app/revertPlan';
import type { Checkpoints } from '../app/checkpoints/checkpoints';
import { checkWritePath } from '../common/safePath';
import { workspaceRoots } from '../platform/workspace';
import type { FileChanges } from '../state/attribution/workStore';
import { truncate } from '../state/planSummary';
import { pathRefusalWords } from './checkpointWords';
import { showCheckpointFailure } from './workRewind';

export interface RevertResult {
  reverted: string[];
  skipped: { path: string; why: string }[];
  cancelled?: boolean;
  /** Why nothing of this session may be reverted (an imported session, a replayed recording). */
  refused?: string;
}

/** The step to revert: its session, its label (in the words shown) and its changes, per file. */
export interface RevertRequest {
  readonly agentId: string;
  readonly sessionId: string;
  readonly label: string;
  readonly changes: readonly FileChanges[];
}

type Skipped = RevertResult['skipped'];

/** Undoes the step's own writes after a confirmation; returns what was and was not reverted. */
export async function revertStep(cps: Pick<Checkpoints, 'read' | 'merge'> | undefined, req: RevertRequest): Promise<RevertResult> {
  const plan = await planStepRevert(cps, req).catch(showCheckpointFailure);
  if (!plan) return { reverted: [], skipped: [] };
  if (plan.refused) {
    void vscode.window.showWarningMessage(plan.refused);
    return { reverted: [], skipped: [], refused: plan.refused };
  }
  const { skipped } = plan;
  if (!plan.todo.length) {
    const detail = skipped.map((s) => `${vscode.workspace.asRelativePath(s.path)}: ${s.why}`).join('\n') || vscode.l10n.t('It changed no files.');
    void vscode.window.showWarningMessage(vscode.l10n.t('Nothing of step "{0}" can be reverted. {1}', truncate(req.label, 60), detail));
    return { reverted: [], skipped };
  }
  if (!(await confirmRevert(plan, req.label))) return { reverted: [], skipped, cancelled: true };
  const reverted = await writeBack(await allowedOnly(plan.todo, skipped), skipped);
  showReverted(req.label, reverted, skipped);
  return { reverted, skipped };
}

/** What may be put back: the files' texts now, and with checkpoints on, a 3-way merge for a file changed since. */
function planStepRevert(cps: Pick<Checkpoints, 'read' | 'merge'> | undefined, req: RevertRequest): Promise<RevertPlan> {
  return planRevert({
    l10n: vscode.l10n,
    refusalWords: (r) => pathRefusalWords(r, vscode.l10n),
    agentId: req.agentId,
    sessionId: req.sessionId,
    changes: req.changes,
    roots: workspaceRoots(),
    currentText,
    ...(cps
      ? {
          checkpointText: async (folder, id, file) => {
            const b = await cps.read(folder, id, path.relative(folder, file).split(path.sep).join('/'));
            return b === null || b === undefined ? b : b.toString('utf8');
          },
          merge: (base, current, wanted) => cps.merge(base, current, wanted),
        }
      : {}),
  });
}

/** The confirmation: Revert, Cancel, then every file with what happens to it; true for Revert. */
async function confirmRevert(plan: RevertPlan, label: string): Promise<boolean> {
  const n = plan.todo.length;
  const deletes = plan.todo.filter((c) => c.deletes).length;
  const rows = confirmationRows(plan, (f) => vscode.workspace.asRelativePath(f), vscode.l10n);
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: `$(discard) ${
          n === 1
            ? vscode.l10n.t('Revert 1 file to before step "{0}"', truncate(label, 50))
            : vscode.l10n.t('Revert {0} files to before step "{1}"', n, truncate(label, 50))
        }${deletes ? ` ${vscode.l10n.t('(deletes {0})', deletes)}` : ''}`,
        go: true,
      },
      { label: `$(close) ${vscode.l10n.t('Cancel')}`, go: false },
      ...rows.map((r) => ({
        label: `${r.kind === 'delete' ? '$(trash) ' : r.kind === 'skipped' ? '$(warning) ' : ''}${r.label}`,
        description: r.description,
        go: undefined,
      })),
    ],
    { title: vscode.l10n.t('Revert Changes of This Step'), placeHolder: vscode.l10n.t('Check the files, then pick Revert'), ignoreFocusOut: true },
  );
  return picked?.go === true;
}

/** The files the user allows: one that runs code later is asked for on its own, as an agent's write to it would be. */
async function allowedOnly(todo: readonly RevertItem[], skipped: Skipped): Promise<RevertItem[]> {
  const allowed: RevertItem[] = [];
  for (const c of todo) {
    if (c.runsLater && !(await confirmRunsLater(c.path, c.deletes, c.runsLater))) {
      skipped.push({ path: c.path, why: vscode.l10n.t('you did not allow it ({0})', c.runsLater) });
      continue;
    }
    allowed.push(c);
  }
  return allowed;
}

/** Writes each file back (a failure joins `skipped` with why); returns the files reverted. */
async function writeBack(todo: readonly RevertItem[], skipped: Skipped): Promise<string[]> {
  const reverted: string[] = [];
  for (const c of todo) {
    // Checked again now: the agent may have put a link in the way while the confirmation was open.
    const target = await checkWritePath(workspaceRoots(), c.path).catch(() => undefined);
    if (!target?.ok) {
      skipped.push({ path: c.path, why: target ? pathRefusalWords(target.refusal, vscode.l10n) : vscode.l10n.t('its folder could not be looked at') });
      continue;
    }
    try {
      await restore(c.path, c.before);
      reverted.push(c.path);
    } catch (err) {
      skipped.push({ path: c.path, why: vscode.l10n.t('could not be written ({0})', err instanceof Error ? err.message : String(err)) });
    }
  }
  return reverted;
}

/** What was reverted and what was not, with why. */
function showReverted(label: string, reverted: readonly string[], skipped: Skipped): void {
  const notes = skipped.map((s) => `${vscode.workspace.asRelativePath(s.path)}: ${s.why}`);
  const done =
    reverted.length === 1
      ? vscode.l10n.t('Reverted 1 file of step "{0}".', truncate(label, 50))
      : vscode.l10n.t('Reverted {0} files of step "{1}".', reverted.length, truncate(label, 50));
  void vscode.window.showInformationMessage(notes.length ? `${done} ${vscode.l10n.t('Not reverted: {0}', notes.join('; '))}` : done);
}

/** A yes, asked now, for reverting a file that runs code later. */
async function confirmRunsLater(file: string, deletes: boolean, reason: string): Promise<boolean> {
  const verb = deletes ? vscode.l10n.t('Delete') : vscode.l10n.t('Write');
  const rel = vscode.workspace.asRelativePath(file);
  const answer = await vscode.window.showWarningMessage(
    deletes ? vscode.l10n.t('Delete {0}?', rel) : vscode.l10n.t('Write {0}?', rel),
    {
      modal: true,
      detail: deletes
        ? vscode.l10n.t('Reverting this step deletes it, and {0}. Allow only if you expect this change.', reason)
        : vscode.l10n.t('Reverting this step writes it, and {0}. Allow only if you expect this change.', reason),
    },
    verb,
  );
  return answer === verb;
}

/** The file's text now: an editor's unsaved changes, else the file on disk (a saved editor copy can lag it). */
async function currentText(file: string): Promise<string | null> {
  const open = vscode.workspace.textDocuments.find((d) => d.isDirty && d.uri.scheme === 'file' && d.uri.fsPath === file);
  if (open) return open.getText();
  return diskText(vscode.Uri.file(file));
}

async function diskText(uri: vscode.Uri): Promise<string | null> {
  try {
    return await vscode.workspace.decode(await vscode.workspace.fs.readFile(uri), { uri });
  } catch {
    return null;
  }
}

/** Puts back the text from before the step (null: the step created the file, so it is deleted). */
async function restore(file: string, before: string | null): Promise<void> {
  const uri = vscode.Uri.file(file);
  const edit = new vscode.WorkspaceEdit();
  if (before === null) edit.deleteFile(uri, { ignoreIfNotExists: true });
  else {
    const doc = await vscode.workspace.openTextDocument(uri);
    const disk = doc.isDirty ? null : await diskText(uri);
    if (disk !== null && disk.replace(/\r\n?/g, '\n') !== doc.getText().replace(/\r\n?/g, '\n')) {
      // The editor's saved copy is behind the file: the file itself is written (the editor reloads it).
      await vscode.workspace.fs.writeFile(uri, await vscode.workspace.encode(before, { encoding: doc.encoding }));
      return;
    }
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), before);
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(vscode.l10n.t('VS Code rejected the edit'));
  if (before !== null && !(await (await vscode.workspace.openTextDocument(uri)).save()))
    throw new Error(vscode.l10n.t('VS Code did not save it (the editor says why)'));
}
