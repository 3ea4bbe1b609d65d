// What Revert Changes of This Step may do, decided before anything is shown or written: for each
// file the step changed, the text to put back (null: the step created it, so it is deleted) or why
// not. Free of `vscode`: src/ui/workActions.ts reads the files' current texts, asks the user and
// writes.
//
// Revert needs the consent a live agent's write would need, and more:
//   - an imported session or a replayed recording is never reverted (its write records are what a
//     file says, not changes made here): the whole revert is refused with the reason;
//   - a path outside every workspace folder as written is refused with the reason, before the file
//     is read; so is one with a link on the way that leads outside them or nowhere
//     (src/common/safePath.ts: every component is looked at, a dangling link is never written through);
//   - a path whose write runs code later (src/agents/executesLater.ts: .vscode/, .git/, CI files…)
//     is marked `runsLater` with that reason: the user is asked for it separately;
//   - a delete is marked `deletes`; the confirmation lists every file, each with what happens to it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { executesLater } from '../agents/executesLater';
import { within } from '../common/paths';
import { checkWritePath, pathRefusalMessage, type PathRefusal } from '../common/safePath';
import { english, type L10n } from '../common/l10n';
import { isImportedAgent, isReplayAgent } from '../common/pseudoAgents';
import type { FileChange } from '../state/attribution/workStore';

const imported = (l10n: L10n): string => l10n.t('Revert is not available for an imported session: its changes were not made here.');
const replayed = (l10n: L10n): string => l10n.t('Revert is not available for a replayed recording: its changes were not made here.');
const outside = (l10n: L10n): string => l10n.t('it is outside the workspace folders (Revert writes only inside them)');
export const IMPORTED_REVERT_REFUSED = imported(english);
export const REPLAYED_REVERT_REFUSED = replayed(english);
export const OUTSIDE_WORKSPACE = outside(english);

/** One file to put back as it was before the step. */
export interface RevertItem {
  readonly path: string;
  readonly before: string | null;
  /** The file is deleted (the step created it). */
  readonly deletes: boolean;
  /** Why writing (or deleting) it runs code later: the user is asked for this file separately. */
  readonly runsLater?: string;
  /** The file changed after the step: `before` is its text now with only the step's change taken out (a 3-way merge). */
  readonly merged?: boolean;
}

export interface RevertPlan {
  /** Why nothing of this session may be reverted at all. */
  readonly refused?: string;
  readonly todo: RevertItem[];
  /** `refusal`: a link on the way (or the path itself) that Revert never writes through. */
  readonly skipped: { path: string; why: string; refusal?: PathRefusal }[];
}

export interface RevertInput {
  readonly agentId: string;
  readonly sessionId: string;
  /** The step's changes, per file (WorkStore.stepChanges). */
  readonly changes: readonly { readonly path: string; readonly all: readonly FileChange[] }[];
  /** The workspace folders (absolute). */
  readonly roots: readonly string[];
  /** The file's text now (an editor's unsaved text first), null when it does not exist. */
  currentText(path: string): Promise<string | null>;
  /** Checkpoints (src/app/checkpoints): a file's text in one (null: absent there), undefined when not available. */
  checkpointText?(folder: string, id: string, path: string): Promise<string | null | undefined>;
  /** `current` with the change base → wanted applied; conflicts: places where both changed. */
  merge?(base: string, current: string, wanted: string): Promise<{ text: string; conflicts: number }>;
  /** The words of the reasons (vscode.l10n in the product; English by default). */
  readonly l10n?: L10n;
  /** The words of a link refused on the way (the view's; English by default). */
  readonly refusalWords?: (r: PathRefusal) => string;
}

/** What reverting the step's changes would do, file by file. */
export async function planRevert(input: RevertInput): Promise<RevertPlan> {
  const l10n = input.l10n ?? english;
  const refused = isImportedAgent(input.agentId) ? imported(l10n) : isReplayAgent(input.agentId) ? replayed(l10n) : undefined;
  if (refused) return { refused, todo: [], skipped: [] };
  const words = input.refusalWords ?? pathRefusalMessage;
  const roots = input.roots.map((r) => path.resolve(r));
  const realRoots = await Promise.all(roots.map((r) => fs.promises.realpath(r).catch(() => r)));
  const todo: RevertItem[] = [];
  const skipped: RevertPlan['skipped'] = [];
  for (const c of input.changes) {
    const file = path.resolve(c.path);
    const root = roots.find((r) => within(r, file));
    const target = await checkWritePath(input.roots, file);
    if (!root || !target.ok) {
      const refusal = root && !target.ok && target.refusal.code !== 'outside' ? target.refusal : undefined;
      skipped.push(refusal ? { path: c.path, why: words(refusal), refusal } : { path: c.path, why: outside(l10n) });
      continue;
    }
    const real = target.real;
    // The client's own writes know their texts exactly: they decide where there are some; the checkpoints decide otherwise.
    const wire = c.all.filter((x) => !x.checkpoint);
    const plan =
      !wire.some((x) => x.written) && wire.length < c.all.length
        ? await checkpointRevert(c.path, c.all, input, l10n)
        : await fileRevert(wire, input.currentText, l10n);
    if ('why' in plan) {
      skipped.push({ path: c.path, why: plan.why });
      continue;
    }
    const realRoot = realRoots.find((r) => within(r, real)) ?? root;
    const runsLater = executesLater(root, file, l10n) ?? executesLater(realRoot, real, l10n);
    todo.push({
      path: c.path,
      before: plan.before,
      deletes: plan.before === null,
      ...(runsLater ? { runsLater } : {}),
      ...('merged' in plan && plan.merged ? { merged: true } : {}),
    });
  }
  return { todo, skipped };
}

/** One row of the confirmation per file (`rel`: how a path is shown), in the plan's order: what happens to it, or why not. */
export function confirmationRows(plan: RevertPlan, rel: (path: string) => string, l10n: L10n = english): ConfirmationRow[] {
  return [
    ...plan.todo.map((c): ConfirmationRow => {
      const what = c.deletes
        ? l10n.t('will be deleted (the step created it)')
        : c.merged
          ? l10n.t("will lose the step's change and keep what changed after it")
          : l10n.t('will get its text from before the step');
      const description = c.runsLater ? l10n.t('{0}; runs code later ({1}): asked separately', what, c.runsLater) : what;
      return { path: c.path, kind: c.deletes ? 'delete' : 'write', label: rel(c.path), description, text: `${rel(c.path)}: ${description}` };
    }),
    ...plan.skipped.map((s): ConfirmationRow => {
      const description = l10n.t('not reverted: {0}', s.why);
      return { path: s.path, kind: 'skipped', label: rel(s.path), description, text: `${rel(s.path)}: ${description}` };
    }),
  ];
}

export interface ConfirmationRow {
  readonly path: string;
  readonly kind: 'delete' | 'write' | 'skipped';
  readonly label: string;
  readonly description: string;
  /** The label and the description in one line. */
  readonly text: string;
}

/**
 * Whether a file's changes in a step can be undone: the client's own writes only (a diff the agent
 * announced for a call the client then wrote is part of that write), the file still as the step
 * left it. Returns the text to put back, or why not.
 */
async function fileRevert(
  all: readonly FileChange[],
  currentText: (path: string) => Promise<string | null>,
  l10n: L10n,
): Promise<{ before: string | null } | { why: string }> {
  const writes = all.filter((c) => c.written);
  const last = writes.at(-1);
  if (!last) return { why: l10n.t('the agent changed it itself (ACP Plans can undo only the writes it made for the agent)') };
  if (all.some((c) => !c.written && c.time > last.time && c.toolCallId !== last.toolCallId))
    return { why: l10n.t('the agent changed it itself after ACP Plans wrote it') };
  const before = writes[0]!.before;
  if (writes.some((c) => c.textDropped) || before === undefined || last.after === undefined)
    return { why: l10n.t('the file was too large for ACP Plans to keep its text') };
  const now = await currentText(last.path);
  if (now !== last.after) return { why: now === null ? deletedAfter(l10n) : changedAfter(l10n) };
  return { before };
}

const deletedAfter = (l10n: L10n): string => l10n.t('it was deleted after this step');
const changedAfter = (l10n: L10n): string => l10n.t('it changed after this step (a later step or an edit); review the change and undo it by hand');
const checkpointGone = (l10n: L10n): string =>
  l10n.t('its checkpoint is no longer stored (the oldest go first past acp.checkpoints.maxStorageMiB), or git is not available');

/**
 * A file's changes seen between checkpoints: the text from before the step's first interval, where
 * the file still holds what its last interval left; where it changed since, the step's change is
 * taken out of the text now by a 3-way merge, or, when the later changes overlap it, why not.
 */
async function checkpointRevert(
  file: string,
  all: readonly FileChange[],
  input: RevertInput,
  l10n: L10n,
): Promise<{ before: string | null; merged?: boolean } | { why: string }> {
  const spans = all.flatMap((c) => (c.checkpoint ? [c.checkpoint] : []));
  const first = spans[0]!;
  const last = spans.at(-1)!;
  if (spans.some((x) => x.binary)) return { why: l10n.t('it is a binary file (Restore Workspace to Before This Step puts binary files back)') };
  const read = input.checkpointText;
  const before = read ? await read(first.folder, first.from, file) : undefined;
  const after = read ? await read(last.folder, last.to, file) : undefined;
  if (before === undefined || after === undefined) return { why: checkpointGone(l10n) };
  const now = await input.currentText(file);
  if (now === after) return { before };
  if (now === before) return { why: l10n.t('it is already as it was before this step') };
  if (now === null) return { why: deletedAfter(l10n) };
  if (before === null || after === null || !input.merge) return { why: changedAfter(l10n) };
  const m = await input.merge(after, now, before);
  if (m.conflicts === 1) return { why: l10n.t('it changed after this step where the step changed it too (1 place); review the change and undo it by hand') };
  if (m.conflicts)
    return { why: l10n.t('it changed after this step where the step changed it too ({0} places); review the change and undo it by hand', m.conflicts) };
  return { before: m.text, merged: true };
}
