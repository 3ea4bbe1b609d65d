// The read-only command table: the only commands for which a WIDER rule than the exact command
// line is ever offered ("`git status` with any of these options").
//
// Contract:
// - An entry lists every option it accepts, by its full spelling (git accepts abbreviations such as
//   `--out` for `--output`: an abbreviation is simply not in the list, so it is not covered).
// - Options that write files or run other programs are never listed: `--output`, `--ext-diff`,
//   `--textconv`, `--no-index`, `-O<file>`, `--exec`, `-c`, and every branch-changing option.
// - Valued options are accepted only in the attached form (`--format=…`, `-n5`): a separate value
//   word is read as a positional argument, which is harmless wherever positionals are allowed.
// - Positional arguments (revisions, paths) are relative: never absolute, never with a `..`
//   component, never starting with `~` — `git diff /a /b` outside the repository would read any file.
// - Adding an entry is a reviewed change with a test; the table is deliberately small.

export interface ReadOnlySpec {
  /** Options accepted exactly as written. */
  options: ReadonlySet<string>;
  /** Option prefixes accepted with an attached value, e.g. `--format=`. */
  valued: readonly string[];
  /** Short options accepted with attached digits only, e.g. `-n` for `-n5`. */
  digits: readonly string[];
  /** `-5` (a count) is accepted. */
  count: boolean;
  /** Revisions and relative paths are accepted (and `--` before paths). */
  positionals: boolean;
}

const set = (s: string): ReadonlySet<string> => new Set(s.split(' '));

const DIFF =
  '--stat --numstat --shortstat --name-only --name-status --summary -p --patch --no-patch -s --color --no-color ' +
  '--word-diff -w --ignore-all-space -M --no-ext-diff --no-textconv --check --quiet';
const DIFF_VALUED = ['--unified=', '--stat=', '--diff-filter=', '--color='];
const LOG_VALUED = [...DIFF_VALUED, '--max-count=', '--since=', '--until=', '--author=', '--grep=', '--format=', '--pretty=', '--date='];
const LOG = `${DIFF} --oneline --graph --decorate --all -n --reverse --first-parent --no-merges --abbrev-commit --follow`;

export const READ_ONLY_COMMANDS: Readonly<Record<string, Readonly<Record<string, ReadOnlySpec>>>> = {
  git: {
    status: {
      options: set('-s --short -b --branch --porcelain --long -v -uno -uall --ignored -z'),
      valued: ['--porcelain=', '--untracked-files='],
      digits: [],
      count: false,
      positionals: true,
    },
    diff: { options: set(`${DIFF} --cached --staged`), valued: DIFF_VALUED, digits: ['-U'], count: false, positionals: true },
    log: { options: set(LOG), valued: LOG_VALUED, digits: ['-n', '-U'], count: true, positionals: true },
    show: { options: set(`${DIFF} --oneline --abbrev-commit`), valued: LOG_VALUED, digits: ['-U'], count: false, positionals: true },
    branch: {
      options: set('--list -a --all -r -v -vv --show-current --no-color --merged --no-merged'),
      valued: ['--format=', '--sort='],
      digits: [],
      count: false,
      positionals: false,
    },
  },
};

export function readOnlySpec(program: string, subcommand: string): ReadOnlySpec | undefined {
  const bySub = Object.hasOwn(READ_ONLY_COMMANDS, program) ? READ_ONLY_COMMANDS[program] : undefined;
  return bySub && Object.hasOwn(bySub, subcommand) ? bySub[subcommand] : undefined;
}

const isDigits = (s: string): boolean => {
  if (s.length === 0 || s.length > 9) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
};

/** A revision or a path inside the folder: not absolute, no `..` component, no leading `~`. */
export function isRelativeArgument(w: string): boolean {
  if (w === '' || w.startsWith('/') || w.startsWith('~')) return false;
  return !w.split('/').includes('..');
}

function optionAllowed(spec: ReadOnlySpec, w: string): boolean {
  if (spec.options.has(w)) return true;
  if (spec.valued.some((p) => w.length > p.length && w.startsWith(p))) return true;
  if (spec.digits.some((p) => w.startsWith(p) && isDigits(w.slice(p.length)))) return true;
  return spec.count && isDigits(w.slice(1));
}

/** Whether `args` (the words after `program subcommand`) stay within the spec. */
export function readOnlyArgsAllowed(spec: ReadOnlySpec, args: readonly string[]): boolean {
  let paths = false;
  for (const w of args) {
    if (paths) {
      if (!isRelativeArgument(w)) return false;
      continue;
    }
    if (w === '--') {
      if (!spec.positionals) return false;
      paths = true;
      continue;
    }
    if (w.startsWith('-')) {
      if (!optionAllowed(spec, w)) return false;
      continue;
    }
    if (!spec.positionals || !isRelativeArgument(w)) return false;
  }
  return true;
}

/** The options of a spec in one line, as the rule's description lists them. */
export function describeOptions(spec: ReadOnlySpec): string {
  return [...spec.options, ...spec.valued.map((v) => `${v}…`), ...spec.digits.map((d) => `${d}N`), ...(spec.count ? ['-N'] : [])].join(' ');
}
