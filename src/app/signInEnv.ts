// What a terminal sign-in method (an agent's `terminal` auth method) may add to the agent's
// configured command: an ALLOW-list of variables, checked arguments, and how both are shown to the
// user before anything runs. Plain logic, no `vscode`.
//
// Why an allow-list: the method comes from the agent, and the terminal runs the agent's own
// command with it. A deny-list of "dangerous" names is never complete (PYTHONUSERBASE,
// DOTNET_STARTUP_HOOKS, JAVA_* or a tool's next start-up hook all run other code), while what a
// sign-in legitimately passes is a short list of shapes: a credential, where to sign in, and which
// account, project or region to sign in to. Anything else is refused with the variable's name.
//
// Accepted names: upper case ASCII letters, digits and `_`, starting with a letter, at most 64
// characters, and either exactly NO_BROWSER or a non-empty prefix followed by one of:
// - secrets, always masked on screen: _API_KEY, _TOKEN;
// - where to sign in, shown in full: _URL (so _BASE_URL), _ENDPOINT;
// - which account/place, shown unless the value looks like a secret: _REGION, _LOCATION, _PROFILE,
//   _PROJECT, _PROJECT_ID, _ORG, _ORGANIZATION, _ACCOUNT, _TENANT, _TENANT_ID, _CLIENT_ID.
// Even then refused: names of tools that read their own configuration (and so code or packages)
// from the environment, whatever the suffix — prefixes LD_ DYLD_ NODE_ NPM_ YARN_ PNPM_ BUN_ DENO_
// PYTHON PIP_ UV_ CONDA_ POETRY_ PIPENV_ CARGO_ RUSTUP_ GEM_ BUNDLE_ RUBY JAVA_ JDK_ MAVEN_
// GRADLE_ DOTNET_ NUGET_ COMPOSER_ PERL GIT_ SSH_ GPG_ HOMEBREW_ PUPPETEER_ PLAYWRIGHT_ ELECTRON_
// CYPRESS_ — and URL/endpoint names that mention DOWNLOAD, MIRROR, INDEX, REGISTRY, CDN, DIST,
// BINARY, UPDATE, INSTALL, PACKAGE or REPO (where a tool fetches programs from).
// BROWSER itself is refused: its value names a program to run.
// Values: no control, bidi or zero-width character (what is shown is what runs); a secret at most
// 4,096 printable ASCII characters without spaces; a URL at most 2,048 characters, http: or https:,
// with no user name, password, query or fragment; an account/place value at most 256 characters
// of letters, digits, space and `. _ @ : / + -`; NO_BROWSER empty, 0, 1, true, false, yes or no.
// At most MAX_SIGN_IN_VARS variables. Extra arguments: at most MAX_SIGN_IN_ARGS, 4,096 characters
// each, no control, bidi or zero-width character.
// The confirmation (signInConfirmation) lists the whole command line, each extra argument and each
// variable by name; secret values, and any word or value that looks like a token, read (hidden).
import { isRefusedChar } from '../consent/shellWords';
import type { SignInConfirmation } from './agentPorts';
import { english, type L10n } from '../common/l10n';

export const MAX_SIGN_IN_VARS = 32;
export const MAX_SIGN_IN_ARGS = 64;

type Kind = 'secret' | 'url' | 'id' | 'flag';

const SUFFIXES: readonly (readonly [string, Kind])[] = [
  ['_API_KEY', 'secret'],
  ['_TOKEN', 'secret'],
  ['_URL', 'url'],
  ['_ENDPOINT', 'url'],
  ['_REGION', 'id'],
  ['_LOCATION', 'id'],
  ['_PROFILE', 'id'],
  ['_PROJECT', 'id'],
  ['_PROJECT_ID', 'id'],
  ['_ORG', 'id'],
  ['_ORGANIZATION', 'id'],
  ['_ACCOUNT', 'id'],
  ['_TENANT', 'id'],
  ['_TENANT_ID', 'id'],
  ['_CLIENT_ID', 'id'],
];
const EXACT: ReadonlyMap<string, Kind> = new Map([['NO_BROWSER', 'flag']]);
const TOOL_PREFIXES = [
  'LD_', 'DYLD_', 'NODE_', 'NPM_', 'YARN_', 'PNPM_', 'BUN_', 'DENO_', 'PYTHON', 'PIP_', 'UV_', 'CONDA_', 'POETRY_',
  'PIPENV_', 'CARGO_', 'RUSTUP_', 'GEM_', 'BUNDLE_', 'RUBY', 'JAVA_', 'JDK_', 'MAVEN_', 'GRADLE_', 'DOTNET_',
  'NUGET_', 'COMPOSER_', 'PERL', 'GIT_', 'SSH_', 'GPG_', 'HOMEBREW_', 'PUPPETEER_', 'PLAYWRIGHT_', 'ELECTRON_', 'CYPRESS_',
]; // prettier-ignore
const FETCHES_PROGRAMS = /(^|_)(DOWNLOAD|MIRROR|INDEX|REGISTRY|CDN|DIST|BINARY|UPDATE|INSTALL|PACKAGE|REPO)(_|$)/;
const NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
const SECRET_VALUE = /^[\x21-\x7e]{0,4096}$/;
const ID_VALUE = /^[A-Za-z0-9 ._@:/+-]{0,256}$/;
const FLAG_VALUE = /^(|0|1|true|false|yes|no)$/i;
/** Tokens as issuers print them, or a long unbroken run of letters and digits: never shown. */
const LOOKS_SECRET = /(^|[^A-Za-z0-9])(sk-|sk_|pk_|ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|xox[abpsr]-|eyJ|AKIA|ASIA|AIza)|[A-Za-z0-9]{32,}/;

export const HIDDEN = '(hidden)';

export class SignInEnvRefusedError extends Error {
  override readonly name = 'SignInEnvRefusedError';
}

/** One accepted variable: its value, and how the confirmation shows it (never a secret). */
export interface SignInVar {
  readonly name: string;
  readonly value: string;
  readonly shown: string;
}

/**
 * The method's variables, each checked against the allow-list, or throws SignInEnvRefusedError
 * naming the first one refused (its value is never in the message). Later duplicates win.
 */
export function checkSignInEnv(env: readonly { name: string; value: string }[] | undefined, l10n: L10n = english): SignInVar[] {
  if (!env || env.length === 0) return [];
  if (env.length > MAX_SIGN_IN_VARS) throw new SignInEnvRefusedError(l10n.t('It sets {0} variables (at most {1}).', env.length, MAX_SIGN_IN_VARS));
  const out = new Map<string, SignInVar>();
  for (const { name, value } of env) {
    const why = refusal(String(name), String(value), l10n);
    if (why) throw new SignInEnvRefusedError(why);
    out.delete(name);
    out.set(name, { name, value, shown: shownValue(classify(name, l10n) as Kind, value, l10n) });
  }
  return [...out.values()];
}

/** The method's extra arguments, or throws naming what is wrong (the argument itself only if it is not secret-looking). */
export function checkSignInArgs(args: readonly string[] | undefined, l10n: L10n = english): string[] {
  if (!args) return [];
  if (args.length > MAX_SIGN_IN_ARGS) throw new SignInEnvRefusedError(l10n.t('It adds {0} arguments (at most {1}).', args.length, MAX_SIGN_IN_ARGS));
  for (const a of args) {
    if (typeof a !== 'string' || a.length > 4096) throw new SignInEnvRefusedError(l10n.t('One of its arguments is not text of at most 4,096 characters.'));
    if ([...a].some((ch) => ch === '\t' || isRefusedChar(ch.codePointAt(0)!)))
      throw new SignInEnvRefusedError(l10n.t('Its argument {0} holds control or invisible characters.', shownWord(a)));
  }
  return [...args];
}

export function signInConfirmation(
  p: {
    agentName: string;
    methodName: string;
    command: string;
    configuredArgs: readonly string[];
    extraArgs: readonly string[];
    vars: readonly SignInVar[];
    cwd: string | undefined;
  },
  l10n: L10n = english,
): SignInConfirmation {
  const none = l10n.t('none');
  const line = [p.command, ...p.configuredArgs, ...p.extraArgs].map(shownWord).join(' ');
  const args = p.extraArgs.length ? p.extraArgs.map((a) => `  ${shownWord(a)}`).join('\n') : `  ${none}`;
  const vars = p.vars.length ? p.vars.map((v) => `  ${v.name} = ${v.shown}`).join('\n') : `  ${none}`;
  const sections = [
    { label: l10n.t("Command line (the agent's configured command, then the arguments the agent added)"), lines: [line] },
    { label: l10n.t('Arguments added by the agent'), lines: args.split('\n') },
    { label: l10n.t('Variables set by the agent (secrets hidden)'), lines: vars.split('\n') },
  ];
  const folder = { label: l10n.t('Folder'), lines: [p.cwd ?? none] };
  return {
    message: l10n.t('Run {0}\'s sign-in "{1}" in a terminal?', p.agentName, p.methodName),
    detail: [...sections.map((s) => `${s.label}:\n${s.lines.join('\n')}`), l10n.t('Folder: {0}', p.cwd ?? none)].join('\n\n'),
    commandLine: line,
    sections: [...sections, folder],
  };
}

/** The variables as an environment record. */
export function envRecord(vars: readonly SignInVar[]): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const v of vars) out[v.name] = v.value;
  return out;
}

/** A word of a command line as shown: masked when it looks like a secret, invisible characters escaped. */
export function shownWord(w: string): string {
  if (LOOKS_SECRET.test(w)) return HIDDEN;
  let out = '';
  for (const ch of JSON.stringify(w.length > 200 ? `${w.slice(0, 200)}…` : w)) {
    const c = ch.codePointAt(0)!;
    out += isRefusedChar(c) ? `\\u{${c.toString(16)}}` : ch;
  }
  return out;
}

/** The variable's kind, or why its name is refused. */
function classify(name: string, l10n: L10n): Kind | { refused: string } {
  const who = NAME.test(name) ? name : shownWord(name);
  const exact = EXACT.get(name);
  if (exact) return exact;
  const hit = NAME.test(name) ? SUFFIXES.filter(([s]) => name.length > s.length && name.endsWith(s)).sort((a, b) => b[0].length - a[0].length)[0] : undefined;
  if (!hit) {
    return {
      refused: l10n.t(
        'It sets the variable {0}, which is not one a sign-in needs (accepted: upper-case names ending in {1}, and NO_BROWSER).',
        who,
        SUFFIXES.map(([s]) => s).join(', '),
      ),
    };
  }
  const tool = TOOL_PREFIXES.find((p) => name.startsWith(p));
  if (tool) return { refused: l10n.t('It sets the variable {0}, which configures a tool ({1}…) rather than a sign-in.', name, tool) };
  if (hit[1] === 'url' && FETCHES_PROGRAMS.test(name.slice(0, -hit[0].length))) {
    return { refused: l10n.t('It sets the variable {0}, an address programs or packages may be fetched from.', name) };
  }
  return hit[1];
}

function refusal(name: string, value: string, l10n: L10n): string | undefined {
  const kind = classify(name, l10n);
  if (typeof kind !== 'string') return kind.refused;
  if ([...value].some((ch) => isRefusedChar(ch.codePointAt(0)!))) return l10n.t('The value of {0} holds control or invisible characters.', name);
  switch (kind) {
    case 'secret':
      return SECRET_VALUE.test(value)
        ? undefined
        : l10n.t('The value of {0} is not a credential (printable ASCII without spaces, at most 4,096 characters).', name);
    case 'url':
      return urlRefusal(name, value, l10n);
    case 'id':
      return ID_VALUE.test(value)
        ? undefined
        : l10n.t('The value of {0} is not a name (letters, digits, space and . _ @ : / + -, at most 256 characters).', name);
    case 'flag':
      return FLAG_VALUE.test(value) ? undefined : l10n.t('{0} may only be empty, 0, 1, true, false, yes or no.', name);
  }
}

function urlRefusal(name: string, value: string, l10n: L10n): string | undefined {
  const bad = l10n.t('The value of {0} is not a plain http: or https: address (no user name, password, query or fragment, at most 2,048 characters).', name);
  if (value === '') return undefined;
  if (value.length > 2048 || /\s/.test(value)) return bad;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return bad;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return bad;
  if (u.username || u.password || value.includes('@') || value.includes('?') || value.includes('#')) return bad;
  return undefined;
}

function shownValue(kind: Kind, value: string, l10n: L10n): string {
  if (kind === 'secret') return HIDDEN;
  if (value === '') return l10n.t('(empty)');
  return LOOKS_SECRET.test(value) ? HIDDEN : JSON.stringify(value);
}
