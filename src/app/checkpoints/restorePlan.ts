// What "Restore Workspace to Before This Step" (and its undo) would do, decided before anything is
// shown or written: the checkpoint of the present is taken first (the undo point), then every file
// that differs between the target checkpoint and the present gets the target's bytes back, or is
// deleted when the target did not have it. Free of `vscode`: src/ui/workRewind.ts asks and writes.
//
// Consent as for Revert: an imported session or a replayed recording is refused whole; a file
// whose write runs code later (.vscode/, .git/, CI files…) is marked and asked for on its own; a
// path with a link on the way that leads outside its workspace folder, or nowhere, is refused
// (src/common/safePath.ts: a dangling link is never written through); the view checks each path
// again right before it writes (the agent may have made a link since).
import * as path from 'node:path';
import { executesLater } from '../../agents/executesLater';
import { english, type L10n } from '../../common/l10n';
import { checkWritePath, pathRefusalMessage, type PathRefusal } from '../../common/safePath';
import { isImportedAgent, isReplayAgent } from '../../common/pseudoAgents';
import type { Checkpoints } from './checkpoints';

export interface RestoreItem {
  readonly path: string;
  /** The workspace folder it is restored in (the only folder its write may reach). */
  readonly folder: string;
  /** The target's bytes; null: the file is deleted (the target did not have it). */
  readonly bytes: Buffer | null;
  readonly runsLater?: string;
}

export interface RestorePlan {
  readonly refused?: string;
  readonly todo: RestoreItem[];
  /** `refusal`: a link on the way that Restore never writes through. */
  readonly skipped: { path: string; why: string; refusal?: PathRefusal }[];
  /** The present, as checkpointed before anything is written: restoring it undoes the restore. */
  readonly undo: { folder: string; id: string }[];
}

export interface RestoreInput {
  readonly agentId: string;
  readonly sessionId: string;
  /** The checkpoint to go back to, per workspace folder. */
  readonly targets: readonly { readonly folder: string; readonly id: string }[];
  readonly checkpoints: Pick<Checkpoints, 'read' | 'snapshot' | 'changes'>;
  /** Files with unsaved changes in an editor are left alone. */
  isDirty(path: string): boolean;
  /** Words the refusal and the reasons a file was skipped (English without). */
  readonly l10n?: L10n;
  /** The words of a link refused on the way (the view's; English by default). */
  readonly refusalWords?: (r: PathRefusal) => string;
}

export async function planRestore(input: RestoreInput): Promise<RestorePlan> {
  const l10n = input.l10n ?? english;
  const refused = isImportedAgent(input.agentId)
    ? l10n.t('Restore is not available for an imported session: its checkpoints were not taken here.')
    : isReplayAgent(input.agentId)
      ? l10n.t('Restore is not available for a replayed recording: its checkpoints were not taken here.')
      : undefined;
  if (refused) return { refused, todo: [], skipped: [], undo: [] };
  const now = await input.checkpoints.snapshot(input.agentId, input.sessionId);
  const undo = [...now].map(([folder, id]) => ({ folder, id }));
  const todo: RestoreItem[] = [];
  const skipped: RestorePlan['skipped'] = [];
  const words = input.refusalWords ?? pathRefusalMessage;
  for (const t of input.targets) {
    const present = now.get(t.folder);
    const files = present === undefined ? undefined : await input.checkpoints.changes(t.folder, t.id, present);
    if (!files) {
      skipped.push({ path: t.folder, why: l10n.t('its checkpoint is no longer stored, or git is not available: nothing in this folder was restored') });
      continue;
    }
    for (const f of files) {
      const file = path.join(t.folder, ...f.path.split('/'));
      const target = await checkWritePath([t.folder], file);
      if (!target.ok) {
        skipped.push({ path: file, why: words(target.refusal), refusal: target.refusal });
        continue;
      }
      if (input.isDirty(file)) {
        skipped.push({ path: file, why: l10n.t('it has unsaved changes in an editor (save or revert them, then restore again)') });
        continue;
      }
      const bytes = f.status === 'added' ? null : await input.checkpoints.read(t.folder, t.id, f.path);
      if (bytes === undefined) {
        skipped.push({ path: file, why: l10n.t('its text could not be read from the checkpoint') });
        continue;
      }
      const runsLater = executesLater(t.folder, file, l10n);
      todo.push({ path: file, folder: t.folder, bytes, ...(runsLater ? { runsLater } : {}) });
    }
  }
  return { todo, skipped, undo };
}
