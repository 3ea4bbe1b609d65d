// The words of the team commands: every reason the worktrees and the Team service give (a code and
// its values, src/worktrees/reasons.ts) as a sentence saying what happened and what to do, the
// rules of a worktree's name, the conflict notice and what the service tells. One place, so a
// German window words all of them in German. No `vscode`: the views pass `vscode.l10n` (unit tests
// pass the German bundle).
import type { L10n } from '../../common/l10n';
import type { ApplyConflict, BranchNameRule, GitStep, RemoveLoss, TeamNews, WorktreeReason } from '../../app/team/teamPorts';

/** What failed, as a sentence: a reason worded; any other error's own message. */
export function problemText(err: unknown, l10n: L10n): string {
  const reason = (err as { reason?: WorktreeReason } | null | undefined)?.reason;
  if (reason && typeof reason.code === 'string') return reasonText(reason, l10n);
  return err instanceof Error ? err.message : String(err);
}

/** git's own line, or its exit code when it printed none. */
function gitSaid(l10n: L10n, gitLine: string, exitCode?: number): string {
  return gitLine || l10n.t('git exited with code {0}', exitCode ?? 1);
}

export function reasonText(r: WorktreeReason, l10n: L10n): string {
  switch (r.code) {
    case 'folder-missing':
      return l10n.t('{0} does not exist.', r.folder);
    case 'not-a-repository':
      return l10n.t('{0} is not in a git repository: worktrees need one. Run "git init" and commit, or open a repository.', r.folder);
    case 'no-commit':
      return l10n.t('The repository {0} has no commit yet: commit once, then create a worktree from it.', r.repo);
    case 'branch-exists':
      return l10n.t('A branch named {0} already exists: choose another name (nothing was changed).', r.branch);
    case 'folder-exists':
      return l10n.t('The folder {0} already exists: choose another name, or move that folder away.', r.folder);
    case 'bad-base':
      return l10n.t('The base {0} is not a commit or branch of {1}.', r.base, r.repo);
    case 'worktree-gone':
      return l10n.t('The worktree folder {0} is gone (deleted outside VS Code): its uncommitted work cannot be read.', r.folder);
    case 'dirty-main-tree':
      return l10n.t(
        'The main tree has uncommitted changes ({0}): commit or stash them first, then apply again. Nothing was changed.',
        `${r.files.slice(0, 5).join(', ')}${r.files.length > 5 ? ', …' : ''}`,
      );
    case 'apply-failed':
      return l10n.t('Applying {0} failed: {1}. Nothing was applied.', r.branch, gitSaid(l10n, r.gitLine, r.exitCode));
    case 'abort-failed':
      return r.mode === 'merge'
        ? l10n.t(
            'Aborting the merge failed: {0}. The conflicts are still in the main tree: resolve them, or run "git merge --abort" in {1}.',
            gitSaid(l10n, r.gitLine, r.exitCode),
            r.repo,
          )
        : l10n.t(
            'Undoing the squash failed: {0}. The conflicts are still in the main tree: resolve them, or run "git reset --merge" in {1}.',
            gitSaid(l10n, r.gitLine, r.exitCode),
            r.repo,
          );
    case 'git-failed':
      return gitFailed(r.what, r.target ?? '', gitSaid(l10n, r.gitLine, r.exitCode), l10n);
    case 'git-missing':
      return l10n.t('git was not found on the PATH; install git to use worktrees.');
    case 'git-cannot-start':
      return l10n.t('git could not be started ({0}).', r.detail);
    case 'git-timeout':
      return l10n.t('{0} took longer than {1} s and was stopped: try again.', r.command, r.seconds);
    case 'git-too-much-output':
      return l10n.t('{0} printed more than {1} MiB and was stopped.', r.command, r.mib);
    case 'git-helper-lost':
      return l10n.t('{0} could not finish: the helper process that runs git went away ({1}). Try again.', r.command, r.detail);
    default:
      return inputText(r, l10n);
  }
}

/** The reasons about what the team commands were given. */
type InputReason = Extract<
  WorktreeReason,
  {
    code:
      | 'bad-name'
      | 'bad-branch'
      | 'agent-count'
      | 'too-many-agents'
      | 'no-prompt'
      | 'not-a-worktree'
      | 'no-worktrees'
      | 'compare-needs-two'
      | 'compare-folder-gone';
  }
>;

function inputText(r: InputReason, l10n: L10n): string {
  switch (r.code) {
    case 'bad-name':
      return l10n.t('{0} (name: "{1}")', nameRuleText(r.rule, l10n), r.name);
    case 'bad-branch':
      return l10n.t('The branch name {0} is not valid for git: choose a simpler name.', r.branch);
    case 'agent-count':
      return l10n.t('Pick between 2 and 5 agents ({0} picked).', r.picked);
    case 'too-many-agents':
      return l10n.t(
        'At most {0} worktree sessions may run at once (acp.worktrees.maxParallel): {1} running, {2} asked. Wait for some to finish.',
        r.max,
        r.running,
        r.asked,
      );
    case 'no-prompt':
      return l10n.t('Give the agents a prompt.');
    case 'not-a-worktree':
      return l10n.t('{0} is not a worktree of an ACP session (or it was removed already).', r.path);
    case 'no-worktrees':
      return l10n.t('No session works in a worktree: start one with New Session in Worktree… or Run Prompt on Several Agents….');
    case 'compare-needs-two':
      return l10n.t('Compare Sessions needs two sessions in worktrees: start them with Run Prompt on Several Agents… or New Session in Worktree….');
    case 'compare-folder-gone':
      return l10n.t('The worktree {0} was deleted outside VS Code: its changes cannot be compared. Remove Worktree… forgets it.', r.path);
  }
}

function gitFailed(what: GitStep, target: string, said: string, l10n: L10n): string {
  switch (what) {
    case 'stage':
      return l10n.t('Staging the worktree changes failed: {0}.', said);
    case 'commit':
      return l10n.t('Committing the worktree changes failed: {0}.', said);
    case 'list-changes':
      return l10n.t('Listing the changes failed: {0}.', said);
    case 'list-branches':
      return l10n.t('Listing the branches failed: {0}.', said);
    case 'read-head':
      return l10n.t('Reading HEAD failed: {0}.', said);
    case 'add-worktree':
      return l10n.t('Creating the worktree {0} failed: {1}.', target, said);
    case 'list-worktrees':
      return l10n.t('Listing the worktrees failed: {0}.', said);
    case 'read-status':
      return l10n.t('Reading the status failed: {0}.', said);
    case 'compare-base':
      return l10n.t('Comparing with the base failed: {0}.', said);
    case 'list-new-files':
      return l10n.t('Listing new files failed: {0}.', said);
    case 'remove-worktree':
      return l10n.t('Removing the worktree {0} failed: {1}.', target, said);
    case 'prune':
      return l10n.t('Forgetting the deleted worktree failed: {0}.', said);
    case 'delete-branch':
      return l10n.t('Deleting the branch {0} failed: {1}.', target, said);
    case 'run':
      return l10n.t('git failed: {0}.', said);
  }
}

/** The rule of git's branch names a worktree's name breaks, as a sentence (the name box shows it as it is typed). */
export function nameRuleText(rule: BranchNameRule, l10n: L10n): string {
  switch (rule) {
    case 'empty':
      return l10n.t('Give the worktree a name.');
    case 'too-long':
      return l10n.t('The name is too long (at most 100 characters).');
    case 'bad-character':
      return l10n.t('The name may not contain spaces or any of ~ ^ : ? * [ \\.');
    case 'double-dot':
      return l10n.t('The name may not contain "..".');
    case 'at-brace':
      return l10n.t('The name may not contain "@{".');
    case 'slash':
      return l10n.t('The name may not start or end with "/" or contain "//".');
    case 'leading-dash':
      return l10n.t('The name may not start with "-".');
    case 'bad-ending':
      return l10n.t('The name may not end with "." or ".lock".');
    case 'dot-component':
      return l10n.t('No part of the name may start with ".".');
    case 'at-alone':
      return l10n.t('The name may not be "@".');
  }
}

/** The button that undoes a conflicted apply. */
export function abortLabel(l10n: L10n): string {
  return l10n.t('Abort Merge');
}

/** The notification of a conflicted apply: the files, where they are open, that nothing was lost, and Abort. */
export function conflictNotice(c: ApplyConflict, l10n: L10n): string {
  const { branch } = c.record;
  const finish = c.mode === 'merge' ? l10n.t('then commit the merge') : l10n.t('then commit (the squashed changes are staged)');
  const conflicts =
    c.files.length === 1
      ? l10n.t('{0} conflicts with the main tree in 1 file: {1}.', branch, c.files.join(', '))
      : l10n.t('{0} conflicts with the main tree in {1} files: {2}.', branch, c.files.length, c.files.join(', '));
  return [
    conflicts,
    l10n.t('Each is open in the merge editor: resolve it and press Complete Merge, {0}. Nothing was lost: {1} and its worktree are unchanged.', finish, branch),
    l10n.t('{0} puts the main tree back as it was.', abortLabel(l10n)),
  ].join(' ');
}

/**
 * The question before Remove Worktree, saying exactly what would be lost from the counts the
 * service gave: uncommitted files are lost with the folder; commits the main tree lacks stay on
 * the branch, lost only when the branch is deleted too.
 */
export function removeQuestion(branch: string, folder: string, loss: RemoveLoss, l10n: L10n): string {
  const files = loss.uncommitted.length;
  const commits = loss.unapplied;
  if (loss.folderGone) return l10n.t('The folder {0} was already deleted outside VS Code. Forget the worktree?', folder);
  if (files && commits)
    return l10n.t(
      '{0} has {1} uncommitted file(s) and {2} commit(s) not applied to the main tree. Removing the worktree loses the uncommitted files; the commits stay on the branch unless it is deleted too. Remove it?',
      branch,
      files,
      commits,
    );
  if (files) return l10n.t('{0} has {1} uncommitted file(s): removing the worktree loses them. Remove it?', branch, files);
  if (commits)
    return l10n.t(
      '{0} has nothing uncommitted and {1} commit(s) not applied to the main tree: they stay on the branch unless it is deleted too. Remove it?',
      branch,
      commits,
    );
  return l10n.t('Remove the worktree {0}?', folder);
}

/** What deleting the branch too loses, when the main tree lacks some of its commits. */
export function deleteBranchDetail(branch: string, loss: RemoveLoss, l10n: L10n): string {
  return loss.unapplied
    ? l10n.t('git branch -D {0}: its {1} commit(s) not applied to the main tree are lost', branch, loss.unapplied)
    : `git branch -D ${branch}`;
}

/** What the Team service tells, as a sentence. */
export function newsText(n: TeamNews, l10n: L10n): string {
  switch (n.kind) {
    case 'applied':
      return n.mode === 'merge'
        ? l10n.t('Merged {0} into the main tree: {1} file(s).', n.branch, n.files)
        : l10n.t('Squashed {0} into the main tree: {1} file(s).', n.branch, n.files);
    case 'nothing-to-apply':
      return l10n.t('{0} has no changes the main tree lacks: nothing to apply.', n.branch);
    case 'applying-without-folder':
      return l10n.t(
        'The worktree folder {0} was deleted outside VS Code: its uncommitted work is gone; what was committed on {1} can still be applied.',
        n.path,
        n.branch,
      );
    case 'aborted':
      return n.mode === 'merge'
        ? l10n.t('The merge of {0} was undone: the main tree is as it was before.', n.branch)
        : l10n.t('The squash of {0} was undone: the main tree is as it was before.', n.branch);
  }
}
