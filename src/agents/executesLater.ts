// Files that run code later without the user running a command: git hooks and configuration,
// editor tasks and settings, CI pipelines, shell and tool start-up files. An agent's write to one
// of them needs the user's consent (fs/write_text_file asks first); everything else is a normal
// edit. Plain Node (no vscode).
//
// The line drawn: a file is listed when something runs it, or runs what it names, on an event the
// user does not see as "running the project" (a commit, opening the folder, a push, entering the
// folder in a shell) or when it changes how every later command runs (git, npm, yarn settings).
// Files that only run when the user runs a command are not listed: package.json scripts, Makefile,
// build scripts, test files, tool configs such as eslint.config.js. Running that command already
// needs the user's approval (terminal/create), and an agent that may edit source code can put the
// same code in any file that command runs; asking for each of them would teach people to click
// "Allow" without reading.
//
// Matching is by path components relative to the root and ignores case on every system, so
// `.GIT/hooks` on a case-insensitive disk is caught (on a case-sensitive disk it costs at most one
// question). Trailing dots and spaces, and a `:stream` suffix, are removed from each component
// first (Windows ignores or interprets them). Both the path as written and its real path are
// checked by the caller: a link named `.git/hooks` into `tools/hooks` counts, as does the reverse.

import * as path from 'path';
import { english, type L10n } from '../common/l10n';

interface Rule {
  /** Why, in `l10n`'s words. */
  readonly reason: (l10n: L10n) => string;
  readonly match: (parts: readonly string[]) => boolean;
}

const hasPart =
  (...names: string[]) =>
  (parts: readonly string[]) =>
    parts.some((p) => names.includes(p));
const isName =
  (...names: string[]) =>
  (parts: readonly string[]) =>
    names.includes(parts[parts.length - 1] ?? '');
const hasPair =
  (a: string, ...bs: string[]) =>
  (parts: readonly string[]) =>
    parts.some((p, i) => p === a && bs.includes(parts[i + 1] ?? ''));
const endsWith = (suffix: string) => (parts: readonly string[]) => (parts[parts.length - 1] ?? '').endsWith(suffix);

/** In order; the first rule that matches gives the reason shown to the user. */
const RULES: readonly Rule[] = [
  {
    reason: (l10n) => l10n.t('Git runs hooks and commands named in its configuration from this folder (on commit, checkout, fetch, diff)'),
    match: hasPart('.git'),
  },
  { reason: (l10n) => l10n.t('it is a Git hook (run on commit or push)'), match: hasPart('.husky', '.githooks') },
  {
    reason: (l10n) => l10n.t('it configures hooks that run on every commit'),
    match: isName('.pre-commit-config.yaml', 'lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.lefthook.yaml'),
  },
  { reason: (l10n) => l10n.t('VS Code runs tasks, launch configurations and the tools named in its settings'), match: hasPart('.vscode') },
  { reason: (l10n) => l10n.t('it is a VS Code workspace file (settings, tasks and launch configurations)'), match: endsWith('.code-workspace') },
  {
    reason: (l10n) => l10n.t('Dev Containers run its commands when the folder is opened'),
    match: (p) => hasPart('.devcontainer')(p) || isName('.devcontainer.json')(p),
  },
  {
    reason: (l10n) => l10n.t("CI runs it with the repository's secrets"),
    match: (p) =>
      hasPair('.github', 'workflows', 'actions')(p) ||
      hasPart('.circleci', '.buildkite', '.woodpecker')(p) ||
      isName('.gitlab-ci.yml', '.travis.yml', 'azure-pipelines.yml', 'bitbucket-pipelines.yml', '.drone.yml', '.woodpecker.yml', 'jenkinsfile')(p),
  },
  { reason: (l10n) => l10n.t('direnv or mise runs it when a shell enters the folder'), match: isName('.envrc', '.mise.toml', 'mise.toml') },
  {
    reason: (l10n) => l10n.t('it changes what package-manager commands run (scripts shell, node options, yarn binary)'),
    match: isName('.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', '.pnpmfile.js'),
  },
  { reason: (l10n) => l10n.t('installed tools run from here (editor extensions and commands pick them up)'), match: hasPart('node_modules', '.venv') },
  {
    reason: (l10n) => l10n.t('it is a shell or Git start-up file, run by every new shell or Git command'),
    match: isName('.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.gitconfig'),
  },
  {
    reason: (l10n) => l10n.t('it controls logins and programs started with the session'),
    match: (p) => hasPart('.ssh')(p) || hasPair('.config', 'autostart', 'systemd', 'git')(p),
  },
];

/** One path component as the disk may see it: lower case, without trailing dots/spaces or `:stream`. */
export function normalizeComponent(c: string): string {
  let s = c.normalize('NFC').toLowerCase();
  const colon = s.indexOf(':');
  if (colon > 0) s = s.slice(0, colon);
  let end = s.length;
  while (end > 0 && (s[end - 1] === '.' || s[end - 1] === ' ')) end--;
  // A component made only of dots is `.` or `..`, which the caller resolved already.
  return end === 0 ? s : s.slice(0, end);
}

/**
 * Why writing `target` (inside `root`) runs code later (in `l10n`'s words), or undefined for a normal edit. Both paths
 * absolute; `target` outside `root` gives undefined (the containment check refuses it anyway).
 */
export function executesLater(root: string, target: string, l10n: L10n = english): string | undefined {
  const rel = path.relative(root, target);
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  const parts = rel
    .split(/[\\/]/)
    .filter((c) => c !== '')
    .map(normalizeComponent);
  return RULES.find((r) => r.match(parts))?.reason(l10n);
}
