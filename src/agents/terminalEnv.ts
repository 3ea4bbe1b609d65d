// The environment variables an agent may set for a terminal command. The user approves a command
// by what it says (`git status`, `npm test`); a variable must not make that command run something
// else. These are refused, and the whole terminal/create with them (never silently dropped, so
// the agent is not surprised by a command that behaves differently):
//
// - loader injection: LD_* (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT…), DYLD_* (macOS), GCONV_PATH;
// - interpreter start-up code or module search paths: NODE_OPTIONS (--require), NODE_PATH,
//   PYTHONSTARTUP, PYTHONPATH, PYTHONHOME, PERL5OPT, PERL5LIB, PERLLIB, RUBYOPT, RUBYLIB,
//   JAVA_TOOL_OPTIONS, _JAVA_OPTIONS, JDK_JAVA_OPTIONS (-javaagent), OPENSSL_CONF (loads engines);
// - shell start-up: BASH_ENV, ENV, PROMPT_COMMAND, PS4 (expanded by `set -x`), SHELLOPTS,
//   BASHOPTS, IFS, ZDOTDIR, BASH_FUNC_* (exported functions replace commands);
// - where programs and their configuration are found: PATH (a script named `git` in the
//   workspace would run instead of git), HOME and XDG_CONFIG_HOME (a written ~/.gitconfig);
// - Git: GIT_SSH, GIT_SSH_COMMAND, GIT_EXEC_PATH, GIT_ASKPASS, GIT_PROXY_COMMAND,
//   GIT_EXTERNAL_DIFF, GIT_TEMPLATE_DIR, GIT_DIR, GIT_CONFIG*, GIT_CONFIG_PARAMETERS
//   (configuration from the environment: core.pager, core.fsmonitor, aliases);
// - npm configuration from the environment: NPM_CONFIG_* in any case (script-shell, node-options);
// - programs named by value: SSH_ASKPASS, SUDO_ASKPASS, LESSOPEN, LESSCLOSE, BROWSER.
// Pager and editor variables (PAGER, GIT_PAGER, MANPAGER, EDITOR, VISUAL, GIT_EDITOR,
// GIT_SEQUENCE_EDITOR) name a program too; agents set them to keep commands non-interactive, so
// they are accepted only with a harmless value: empty, `cat`, `true` or `:`.
// Names are compared in upper case (Windows ignores case). A name must be non-empty and contain
// no `=` or NUL; a value no NUL. At most MAX_ENV_VARS variables and MAX_ENV_BYTES in all.
// Anything else (CI=1, NODE_ENV, DATABASE_URL…) is passed, over the editor's own environment, and
// shown to the user with the command. (This deny-list is for terminal/create, where the user
// approves the command with its variables and values on screen; a terminal sign-in method's
// variables go through the stricter allow-list in src/app/signInEnv.ts instead.)

import { printable } from './pathPolicy';

export const MAX_ENV_VARS = 256;
export const MAX_ENV_BYTES = 64 * 1024;

const REFUSED = new Set([
  'GCONV_PATH',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'OPENSSL_CONF',
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  'PS4',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'ZDOTDIR',
  'PATH',
  'HOME',
  'XDG_CONFIG_HOME',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EXEC_PATH',
  'GIT_ASKPASS',
  'GIT_PROXY_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_TEMPLATE_DIR',
  'GIT_DIR',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'LESSOPEN',
  'LESSCLOSE',
  'BROWSER',
]);
const REFUSED_PREFIXES = ['LD_', 'DYLD_', 'BASH_FUNC_', 'GIT_CONFIG_', 'NPM_CONFIG_'];
const COMMAND_VALUED = new Set(['PAGER', 'GIT_PAGER', 'MANPAGER', 'EDITOR', 'VISUAL', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR']);
const HARMLESS_COMMANDS = new Set(['', 'cat', 'true', ':']);

export class EnvRefusedError extends Error {
  override readonly name = 'EnvRefusedError';
}

/** Why setting `name=value` for a command is refused, or undefined when it is allowed. */
export function envRefusal(name: string, value: string): string | undefined {
  if (name.length === 0) return 'an environment variable with an empty name';
  if (name.includes('=') || name.includes('\0')) return `the environment variable name "${shown(name)}" (it contains "=" or NUL)`;
  if (value.includes('\0')) return `the value of ${shown(name)} (it contains NUL)`;
  const upper = name.toUpperCase();
  if (REFUSED.has(upper) || REFUSED_PREFIXES.some((p) => upper.startsWith(p))) {
    return `the environment variable ${shown(name)} (it can make the command run other code than the one the user approved)`;
  }
  if (COMMAND_VALUED.has(upper) && !HARMLESS_COMMANDS.has(value.trim())) {
    return `${shown(name)}="${shown(value)}" (it names a program to run; only an empty value, "cat", "true" or ":" is accepted)`;
  }
  return undefined;
}

/**
 * The agent's variables as a record, or throws EnvRefusedError naming the first variable refused.
 * Later duplicates win, as they would in a shell.
 */
export function checkEnv(env: readonly { name: string; value: string }[] | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>; // `__proto__` is a name like any other
  if (!env) return out;
  if (env.length > MAX_ENV_VARS)
    throw new EnvRefusedError(`Refused to run the command: ${env.length} environment variables were given (at most ${MAX_ENV_VARS}).`);
  let bytes = 0;
  for (const { name, value } of env) {
    bytes += name.length + value.length + 2;
    if (bytes > MAX_ENV_BYTES)
      throw new EnvRefusedError(`Refused to run the command: the environment variables given are larger than ${MAX_ENV_BYTES / 1024} KiB.`);
    const why = envRefusal(name, value);
    if (why) throw new EnvRefusedError(`Refused to run the command: ${why}. Run it without that variable.`);
    out[name] = value;
  }
  return out;
}

function shown(s: string): string {
  return printable(s.length > 80 ? `${s.slice(0, 80)}…` : s);
}
