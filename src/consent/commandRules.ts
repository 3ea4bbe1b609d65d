// Rules for shell commands (a permission request whose subject is `{type: "command"}`).
//
// Contract:
// - `commandOffer(command, cwd)` lists the rules the user may pick when allowing a command always:
//   * NARROW, for every simple command: exactly these words (compared after shell quoting) in
//     exactly this folder. That includes wrappers, shells, interpreters and `VAR=value` prefixes:
//     the exact line is what the user saw, so it is all the rule covers.
//   * WIDER, only for the read-only table (`readOnlyCommands.ts`): `git status`, `git diff`,
//     `git log`, `git show`, `git branch` with only their listed options. The first word must be
//     a program of that table, literally: so never for a line that starts with an assignment, a
//     wrapper (`env`, `nice`, `timeout`, `xargs`…), a shell (`bash -c`…), an interpreter
//     (`python -c`, `node -e`…) or a package runner (`npx`, `uvx`…); the unit tests check a list
//     of them against the table.
//   * NOTHING for lines that are not one simple command (see `shellWords.ts`: chains, pipes,
//     substitutions, redirections, file patterns) and for lines that name a privilege command
//     (`sudo`, `doas`, `su`, `pkexec`, …) anywhere, even inside a quoted script: root is asked for
//     every time. The offer then carries the reason, for the user.
// - `commandScopeMatches` re-checks all of this on every later request (a rule edited in storage
//   cannot cover a compound or privileged line).
// - Pure, linear in the length of the line.
import { quoteWords, REFUSAL_TEXT, shellWords } from './shellWords';
import { describeOptions, readOnlyArgsAllowed, readOnlySpec } from './readOnlyCommands';
import type { RuleCandidate, RuleScope } from './ruleTypes';

type CommandScope = Extract<RuleScope, { type: 'commandExact' | 'commandReadOnly' }>;
export type DisplayPath = (absolutePath: string) => string;
export interface RuleOffer {
  candidates: RuleCandidate[];
  /** Why no rule is offered (only when `candidates` is empty). */ reason?: string;
}

/** Programs that change user: no rule at all. */
export const PRIVILEGE = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0', 'runuser', 'gosu', 'su-exec', 'setpriv', 'chroot']);

/** Shell words that start a compound command when they come first. */
const RESERVED = new Set([
  '!',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'while',
  'until',
  'for',
  'in',
  'select',
  'function',
  'coproc',
  '[[',
  ']]',
]);

/** `NAME=value` as a shell reads it at the start of a command. */
export function isAssignment(w: string): boolean {
  const eq = w.indexOf('=');
  if (eq <= 0) return false;
  for (let i = 0; i < eq; i++) {
    const c = w.charCodeAt(i);
    const ok = c === 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (i > 0 && c >= 48 && c <= 57);
    if (!ok) return false;
  }
  return true;
}

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** A privilege program named anywhere: as a word, a path, or inside a quoted script. */
export function namesPrivilege(words: readonly string[]): boolean {
  for (const w of words) {
    let piece = '';
    for (let i = 0; i <= w.length; i++) {
      const c = i < w.length ? w[i]! : ' ';
      if (/[A-Za-z0-9_.+/-]/.test(c)) {
        piece += c;
        continue;
      }
      if (piece && PRIVILEGE.has(basename(piece))) return true;
      piece = '';
    }
  }
  return false;
}

/** Why a simple command's words get no rule at all, or undefined. */
function refusal(words: readonly string[]): string | undefined {
  if (namesPrivilege(words)) return 'it runs a command as another user (sudo, doas, su, pkexec…): that is asked for every time';
  const program = words.find((w) => !isAssignment(w));
  if (program === undefined) return 'it only sets variables';
  if (RESERVED.has(program)) return REFUSAL_TEXT.compound;
  return undefined;
}

/** The wider scope a command may have, or undefined: only `program subcommand …` from the read-only table. */
function widerScope(words: readonly string[], cwd: string): CommandScope | undefined {
  const [program, subcommand] = words;
  if (program === undefined || subcommand === undefined) return undefined;
  const spec = readOnlySpec(program, subcommand);
  if (!spec || !readOnlyArgsAllowed(spec, words.slice(2))) return undefined;
  return { type: 'commandReadOnly', program, subcommand, cwd };
}

export function commandOffer(command: string, cwd: string, displayPath: DisplayPath = (p) => p): RuleOffer {
  const parsed = shellWords(command.trim());
  if (!parsed.ok) return { candidates: [], reason: `No rule: ${REFUSAL_TEXT[parsed.reason]}.` };
  const why = refusal(parsed.words);
  if (why) return { candidates: [], reason: `No rule: ${why}.` };
  const narrow: CommandScope = { type: 'commandExact', words: parsed.words, cwd };
  const candidates: RuleCandidate[] = [{ breadth: 'narrow', scope: narrow, description: describeCommandScope(narrow, displayPath) }];
  const wider = widerScope(parsed.words, cwd);
  if (wider) candidates.push({ breadth: 'wider', scope: wider, description: describeCommandScope(wider, displayPath) });
  return { candidates };
}

export function commandScopeMatches(scope: CommandScope, command: string, cwd: string): boolean {
  if (scope.cwd !== null && scope.cwd !== cwd) return false;
  const parsed = shellWords(command.trim());
  if (!parsed.ok || refusal(parsed.words)) return false;
  const words = parsed.words;
  if (scope.type === 'commandExact') {
    return Array.isArray(scope.words) && words.length === scope.words.length && words.every((w, i) => w === scope.words[i]);
  }
  const wider = widerScope(words, cwd);
  return wider !== undefined && wider.type === 'commandReadOnly' && wider.program === scope.program && wider.subcommand === scope.subcommand;
}

export function describeCommandScope(scope: CommandScope, displayPath: DisplayPath = (p) => p): string {
  const where = scope.cwd === null ? 'in any folder' : `in ${displayPath(scope.cwd)}`;
  if (scope.type === 'commandExact') {
    return `Runs exactly \`${quoteWords(scope.words)}\` ${where} — any other argument, word or folder asks again.`;
  }
  const spec = readOnlySpec(scope.program, scope.subcommand);
  const opts = spec ? describeOptions(spec) : '(none: this command is no longer in the read-only list)';
  const positionals = spec?.positionals ? ', revisions and relative paths (no absolute path, no ..)' : '';
  return `Runs \`${scope.program} ${scope.subcommand}\` ${where} with only these options${positionals}: ${opts}.`;
}
