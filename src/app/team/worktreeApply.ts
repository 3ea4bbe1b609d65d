// Apply Worktree Changes and Remove Worktree, decided here and asked through the UI port.
//   Apply: a main tree with uncommitted changes is refused first ('dirty-main-tree', its files:
//   nothing changed); the worktree's changes are committed on its branch (so nothing of it can be
//   lost; a folder deleted outside VS Code is said, its committed work still applied); nothing the
//   main tree lacks is said and ends it; then merge or squash (the argument, or asked), a
//   confirmation listing every file, and git. Conflicts are shown with their files and the offer
//   to abort: nothing is reset unless asked, and Abort puts the main tree back as it was.
//   Remove: what would be lost (uncommitted files, commits the main tree lacks) is asked about
//   first; the worktree's live sessions are closed, the worktree removed (pruned when its folder is
//   gone), its branch deleted on request, the records forgotten.
import { existsSync } from 'node:fs';
import { abortApply, applyBranch, assertClean, commitWorktree, filesToApply, removeWorktree, type ApplyMode } from '../../worktrees/apply';
import { WorktreeError } from '../../worktrees/git';
import { reasonOf } from '../../worktrees/reasons';
import { uncommittedFiles, unappliedCommits } from '../../worktrees/repo';
import type { ApplyConflict, RemoveLoss, TeamUi } from './teamPorts';
import type { TeamDeps } from './team';
import type { WorktreeRecord } from './worktreeSessions';

/** The worktree (its folder; absent: asked) and, for an apply, how (absent: asked). */
export interface WorktreeTarget {
  readonly path?: string;
  readonly mode?: ApplyMode;
}

export type ApplyOutcome = 'applied' | 'conflict' | 'nothing';
export type RemoveOutcome = 'removed' | 'removed-branch';

export class WorktreeApply {
  constructor(
    private readonly deps: Pick<TeamDeps, 'sessions' | 'closeSession' | 'isLive'>,
    private readonly ui: TeamUi,
  ) {}

  async apply(target?: WorktreeTarget): Promise<ApplyOutcome | undefined> {
    const r = await this.worktree(target?.path, 'apply');
    if (!r) return undefined;
    await assertClean(r.repo);
    if (existsSync(r.path)) await commitWorktree(r.path, `Work of the ACP session ${r.sessionId} (${r.branch})`);
    else this.ui.tell({ kind: 'applying-without-folder', path: r.path, branch: r.branch });
    const files = await filesToApply(r.repo, r.branch);
    if (!files.length) {
      this.ui.tell({ kind: 'nothing-to-apply', branch: r.branch });
      return 'nothing';
    }
    const mode = target?.mode ?? (await this.ui.pickMode(r));
    if (!mode || !(await this.ui.confirmApply(r, mode, files))) return undefined;
    const result = await applyBranch(r.repo, r.branch, mode, `Apply ${r.branch} (ACP session ${r.sessionId})`);
    await this.deps.sessions.refresh(r.path);
    if (result.kind === 'applied') {
      this.ui.tell({ kind: 'applied', mode, branch: r.branch, files: files.length });
      return 'applied';
    }
    const conflict: ApplyConflict = { record: r, mode, files: result.files };
    const shown = await this.ui.showConflicts(conflict);
    void shown.abort.then((yes) => (yes ? this.abort(conflict) : false));
    return 'conflict';
  }

  /** Puts the main tree back as it was (the conflicts' editors closed first); a failure is told with what to do. */
  async abort(c: ApplyConflict): Promise<boolean> {
    try {
      await this.ui.closeConflicts(c);
      await abortApply(c.record.repo, c.mode);
    } catch (e) {
      const known = reasonOf(e);
      const gitLine = e instanceof Error ? e.message : String(e);
      this.ui.problem(known?.code === 'abort-failed' ? known : { code: 'abort-failed', mode: c.mode, repo: c.record.repo, gitLine });
      return false;
    }
    this.ui.tell({ kind: 'aborted', mode: c.mode, branch: c.record.branch });
    return true;
  }

  async remove(target?: WorktreeTarget): Promise<RemoveOutcome | undefined> {
    const r = await this.worktree(target?.path, 'remove');
    if (!r) return undefined;
    const choice = await this.ui.confirmRemove(r, await this.wouldLose(r));
    if (!choice) return undefined;
    for (const s of this.deps.sessions.byPath(r.path)) if (this.deps.isLive(s)) await this.deps.closeSession(s).catch(() => undefined);
    await removeWorktree(r.repo, r.path, r.branch, choice === 'delete-branch');
    await this.deps.sessions.forget(r.path);
    return choice === 'delete-branch' ? 'removed-branch' : 'removed';
  }

  /** What removing the worktree would lose: its uncommitted files, and the commits the main tree lacks. */
  private async wouldLose(r: WorktreeRecord): Promise<RemoveLoss> {
    const folderGone = !existsSync(r.path);
    return { folderGone, uncommitted: folderGone ? [] : await uncommittedFiles(r.path), unapplied: await unappliedCommits(r.repo, r.branch) };
  }

  /** The worktree at `folder`, or the one picked. */
  private async worktree(folder: string | undefined, purpose: 'apply' | 'remove'): Promise<WorktreeRecord | undefined> {
    const list = this.deps.sessions.worktrees();
    if (folder) {
      const r = list.find((x) => x.path === folder);
      if (!r) throw new WorktreeError(`${folder} is not a worktree of an ACP session (or it was removed already).`, { code: 'not-a-worktree', path: folder });
      return r;
    }
    if (!list.length)
      throw new WorktreeError('No session works in a worktree: start one with New Session in Worktree… or Run Prompt on Several Agents….', {
        code: 'no-worktrees',
      });
    return this.ui.pickWorktree(list, purpose);
  }
}
