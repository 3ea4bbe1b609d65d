// What the Team service asks and tells the person at the screen (the UI port), and the types the
// views need from the layers below, re-exported here so that views reach the team through src/app
// only. The vscode side is src/ui/team/teamView.ts (quick picks, the confirmation listing the
// files, the merge editor, messages); unit tests answer it from a script.
import type { StepIn } from '../../worktrees/planCompare';
import type { ApplyMode, WorktreeReason } from '../../worktrees/reasons';
import type { WorktreeRecord } from './worktreeSessions';

export type { WorktreeState } from '../../worktrees/repo';
export type { ApplyMode, BranchNameRule, GitStep, WorktreeReason, WorktreeReasonCode } from '../../worktrees/reasons';
export type { StepIn };

/** An apply that stopped on conflicts: the files with git's markers, in the main tree. */
export interface ApplyConflict {
  readonly record: WorktreeRecord;
  readonly mode: ApplyMode;
  readonly files: readonly string[];
}

/** What removing a worktree would lose, said before it is removed. */
export interface RemoveLoss {
  /** The folder was deleted outside VS Code: only the record is left to forget. */
  readonly folderGone: boolean;
  /** Files changed and not committed in the worktree (lost on removal). */
  readonly uncommitted: readonly string[];
  /** Commits on the worktree's branch that the main tree lacks (kept unless the branch is deleted). */
  readonly unapplied: number;
}

/** A worktree session offered in a pick, with the name it is shown by. */
export interface SessionChoice {
  readonly record: WorktreeRecord;
  readonly label: string;
  /** A short name for titles: the agent's name and the worktree's own part of the branch. */
  readonly name: string;
}

/** What two sessions did: their plans side by side (text), and the files each changed against its base. */
export interface Comparison {
  readonly a: SessionChoice;
  readonly b: SessionChoice;
  readonly text: string;
  readonly changes: readonly { readonly record: WorktreeRecord; readonly files: readonly { status: string; path: string }[] }[];
}

/** What happened, told when it happened. */
export type TeamNews =
  | { readonly kind: 'applied'; readonly mode: ApplyMode; readonly branch: string; readonly files: number }
  | { readonly kind: 'nothing-to-apply'; readonly branch: string }
  | { readonly kind: 'applying-without-folder'; readonly path: string; readonly branch: string }
  | { readonly kind: 'aborted'; readonly mode: ApplyMode; readonly branch: string };

export interface TeamUi {
  /** One of the worktrees, for Apply or Remove; undefined: cancelled. */
  pickWorktree(list: readonly WorktreeRecord[], purpose: 'apply' | 'remove'): Promise<WorktreeRecord | undefined>;
  /** Merge or squash; undefined: cancelled. */
  pickMode(r: WorktreeRecord): Promise<ApplyMode | undefined>;
  /** The confirmation listing every file the apply changes; true: go ahead. */
  confirmApply(r: WorktreeRecord, mode: ApplyMode, files: readonly string[]): Promise<boolean>;
  /**
   * Shows the conflicts (each file in the merge editor) and offers to abort; resolves once they are
   * shown, with the person's answer still to come (`abort`: true when they ask to abort).
   */
  showConflicts(c: ApplyConflict): Promise<{ readonly abort: Promise<boolean> }>;
  /** Closes what shows the conflicts before the main tree is put back (an editor saved later would write over it). */
  closeConflicts(c: ApplyConflict): Promise<void>;
  /** The confirmation of a removal, saying what would be lost; undefined: cancelled. */
  confirmRemove(r: WorktreeRecord, loss: RemoveLoss): Promise<'keep-branch' | 'delete-branch' | undefined>;
  /** One of the worktree sessions to compare; undefined: cancelled. */
  pickSession(list: readonly SessionChoice[], purpose: 'first' | 'second'): Promise<SessionChoice | undefined>;
  /** Shows a comparison (the plans' text and the changes against each base). */
  showComparison(c: Comparison): Promise<void>;
  tell(news: TeamNews): void;
  /** A failure after the command returned (an abort that failed). */
  problem(reason: WorktreeReason): void;
}
