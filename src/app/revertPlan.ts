// What Revert Changes of This Step may do, decided before anything is shown or written: for each
// file the step changed, the text to put back (null: the step created it, so it is deleted) or why
// not. Free of `vscode`: src/ui/workActions.ts reads the files' current texts, asks the user and
// writes.
import type { FileChange } from '../state/attribution/workStore';

/** One file to put back as it was before the step. */
export interface RevertItem {
  readonly path: string;
  readonly before: string | null;
}

export interface RevertPlan {
  readonly todo: RevertItem[];
  readonly skipped: { path: string; why: string }[];
}

export interface RevertInput {
  readonly agentId: string;
  readonly sessionId: string;
  /** The step's changes, per file (WorkStore.stepChanges). */
  readonly changes: readonly { readonly path: string; readonly all: readonly FileChange[] }[];
  /** The file's text now (an editor's unsaved text first), null when it does not exist. */
  currentText(path: string): Promise<string | null>;
}

/** What reverting the step's changes would do, file by file. */
export async function planRevert(input: RevertInput): Promise<RevertPlan> {
  const todo: RevertItem[] = [];
  const skipped: { path: string; why: string }[] = [];
  for (const c of input.changes) {
    const plan = await fileRevert(c.all, input.currentText);
    if ('why' in plan) skipped.push({ path: c.path, why: plan.why });
    else todo.push({ path: c.path, before: plan.before });
  }
  return { todo, skipped };
}

/**
 * Whether a file's changes in a step can be undone: the client's own writes only (a diff the agent
 * announced for a call the client then wrote is part of that write), the file still as the step
 * left it. Returns the text to put back, or why not.
 */
async function fileRevert(
  all: readonly FileChange[],
  currentText: (path: string) => Promise<string | null>,
): Promise<{ before: string | null } | { why: string }> {
  const writes = all.filter((c) => c.written);
  const last = writes.at(-1);
  if (!last) return { why: 'the agent changed it itself (ACP Plans can undo only the writes it made for the agent)' };
  if (all.some((c) => !c.written && c.time > last.time && c.toolCallId !== last.toolCallId))
    return { why: 'the agent changed it itself after ACP Plans wrote it' };
  const before = writes[0]!.before;
  if (writes.some((c) => c.textDropped) || before === undefined || last.after === undefined)
    return { why: 'the file was too large for ACP Plans to keep its text' };
  const now = await currentText(last.path);
  if (now !== last.after)
    return {
      why: now === null ? 'it was deleted after this step' : 'it changed after this step (a later step or an edit); review the change and undo it by hand',
    };
  return { before };
}
