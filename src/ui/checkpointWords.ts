// The words of a checkpoint failure: the layers below hand up a reason (a code and its data,
// src/checkpoints/errors.ts, through src/app/checkpoints); this says it in the window's language
// (`vscode.l10n` from the view that shows it; free of `vscode` itself so a unit test can read it in
// German). One sentence per code; a new code fails to compile here until it has its words.
import type { CheckpointReason } from '../app/checkpoints/reasons';
import type { L10n } from '../common/l10n';
import type { PathRefusal } from '../common/safePath';

export function checkpointWords(r: CheckpointReason, l10n: L10n): string {
  switch (r.code) {
    case 'git-missing':
      return l10n.t(
        'Checkpoints are off: git was not found ({0}: {1}). Install git, or put it on the PATH, to have the workspace checkpointed.',
        r.data.git,
        r.data.errno,
      );
    case 'git-cannot-start':
      return l10n.t('Checkpoints: git could not be started ({0}): {1}', r.data.git, r.data.detail);
    case 'git-failed':
      return gitFailed(r.data, l10n);
    case 'git-timeout':
      return l10n.t('Checkpoints: {0} took longer than {1} s and was stopped.', r.data.command, r.data.seconds);
    case 'git-output-over':
      return l10n.t('Checkpoints: {0} printed more than {1} bytes and was stopped.', r.data.command, r.data.maxBytes);
    case 'git-helper-lost':
      return l10n.t('Checkpoints: {0} did not finish: the process that starts git for ACP Plans ended. The next checkpoint starts it again.', r.data.command);
    case 'closed':
      return l10n.t('Checkpoints were closed.');
    case 'store-overlaps':
      return l10n.t('Checkpoints are off for {0}: their store {1} overlaps the folder; checkpoints need a store outside it.', r.data.workTree, r.data.gitDir);
    case 'too-many-files':
      return l10n.t(
        '{0} is not checkpointed: it holds more than {1} files that .gitignore does not exclude. Ignore generated folders (node_modules, build output) in .gitignore.',
        r.data.folder,
        r.data.maxFiles,
      );
    case 'beyond-link':
      return l10n.t(
        'Checkpoints skip {0} files in {1}: the folder {2} is a symbolic link now, and checkpoints keep the link itself, never what it leads to.',
        r.data.files,
        r.data.folder,
        r.data.link,
      );
    case 'not-an-id':
      return l10n.t('"{0}" is not a checkpoint id.', r.data.id);
    case 'not-stored':
      return l10n.t("The checkpoint {0} is no longer stored (pruned, or its session's history was deleted).", r.data.id);
    case 'outside-folder':
      return l10n.t('"{0}" is not a path inside the workspace folder.', r.data.path);
    case 'not-a-tree-id':
      return l10n.t('Checkpoints: "{0}" is not a SHA-1 tree id.', r.data.id);
    case 'write-failed':
      return r.data.what === 'commit'
        ? l10n.t("The checkpoint's commit could not be written: {0}", r.data.detail)
        : l10n.t("The checkpoint's ref could not be written: {0}", r.data.detail);
    case 'merge-failed':
      return l10n.t('The three-way merge failed: {0}', r.data.detail);
    case 'unexpected':
      return l10n.t('Checkpoints failed: {0}', r.data.detail);
  }
  return r satisfies never;
}

/** Why Revert, Restore or Undo Restore does not write a file (src/common/safePath.ts): the links on its way. */
export function pathRefusalWords(r: PathRefusal, l10n: L10n): string {
  switch (r.code) {
    case 'outside':
      return l10n.t('it is outside the workspace folders');
    case 'link-outside':
      return l10n.t('the symbolic link {0} leads outside the workspace folders (to {1}); nothing is written through it', r.data.link, r.data.target);
    case 'link-nowhere':
      return l10n.t('the symbolic link {0} leads nowhere (its target does not exist); nothing is written through it', r.data.link);
    case 'not-a-folder':
      return l10n.t('{0} is a file, not a folder', r.data.path);
  }
  return r satisfies never;
}

function gitFailed(d: Extract<CheckpointReason, { code: 'git-failed' }>['data'], l10n: L10n): string {
  if (d.exitCode === null) return l10n.t('Checkpoints: {0} was ended by the signal {1}.', d.command, d.signal ?? '?');
  return d.stderr
    ? l10n.t('Checkpoints: {0} exited with code {1}: {2}', d.command, d.exitCode, d.stderr)
    : l10n.t('Checkpoints: {0} exited with code {1}.', d.command, d.exitCode);
}
