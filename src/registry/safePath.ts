// Names inside an archive (and an entry's `cmd`) are untrusted: each must stay inside the folder it
// is extracted to. Lexical checks here; the extractor also never writes through a symlink (links are
// created last, and only when they point inside). No `vscode`.
import * as path from 'path';
import { english, type L10n } from '../common/l10n';

export class UnsafeEntryError extends Error {}

/** What a checked name is: an archive entry, a registry entry's version or its `cmd`. */
export type SafeNameKind = 'entry' | 'version' | 'cmd';

type Problem = 'long' | 'nul' | 'backslash' | 'absolute' | 'up';

/**
 * The entry's path relative to the target folder, in `/` form without `./` segments, or '' for
 * the folder itself. Throws UnsafeEntryError for absolute paths, drive letters, `..`, backslashes
 * and NUL, in the user's words (`l10n`; one whole sentence per kind of name).
 */
export function safeRelative(name: string, kind: SafeNameKind = 'entry', l10n: L10n = english): string {
  const fail = (problem: Problem): never => {
    throw new UnsafeEntryError(refusal(kind, problem, printable(name), l10n));
  };
  if (name.length > 4096) fail('long');
  if (name.includes('\0')) fail('nul');
  if (name.includes('\\')) fail('backslash');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) fail('absolute');
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) fail('up');
  return parts.join('/');
}

function refusal(kind: SafeNameKind, problem: Problem, name: string, l10n: L10n): string {
  switch (kind) {
    case 'entry':
      return entryRefusal(problem, name, l10n);
    case 'version':
      return versionRefusal(problem, name, l10n);
    case 'cmd':
      return cmdRefusal(problem, name, l10n);
  }
}

function entryRefusal(problem: Problem, name: string, l10n: L10n): string {
  switch (problem) {
    case 'long':
      return l10n.t('The archive entry name is longer than 4096 characters.');
    case 'nul':
      return l10n.t('The archive entry "{0}" has a NUL character in its name.', name);
    case 'backslash':
      return l10n.t('The archive entry "{0}" has a backslash in its name; it is refused (it could point outside the install folder on Windows).', name);
    case 'absolute':
      return l10n.t('The archive entry "{0}" is an absolute path; it is refused.', name);
    case 'up':
      return l10n.t('The archive entry "{0}" goes up with "..": it would land outside the install folder, so it is refused.', name);
  }
}

function versionRefusal(problem: Problem, name: string, l10n: L10n): string {
  switch (problem) {
    case 'long':
      return l10n.t('The version name is longer than 4096 characters.');
    case 'nul':
      return l10n.t('The version "{0}" has a NUL character in its name.', name);
    case 'backslash':
      return l10n.t('The version "{0}" has a backslash in its name; it is refused (it could point outside the install folder on Windows).', name);
    case 'absolute':
      return l10n.t('The version "{0}" is an absolute path; it is refused.', name);
    case 'up':
      return l10n.t('The version "{0}" goes up with "..": it would land outside the install folder, so it is refused.', name);
  }
}

function cmdRefusal(problem: Problem, name: string, l10n: L10n): string {
  switch (problem) {
    case 'long':
      return l10n.t('The entry\'s "cmd" name is longer than 4096 characters.');
    case 'nul':
      return l10n.t('The entry\'s "cmd" "{0}" has a NUL character in its name.', name);
    case 'backslash':
      return l10n.t('The entry\'s "cmd" "{0}" has a backslash in its name; it is refused (it could point outside the install folder on Windows).', name);
    case 'absolute':
      return l10n.t('The entry\'s "cmd" "{0}" is an absolute path; it is refused.', name);
    case 'up':
      return l10n.t('The entry\'s "cmd" "{0}" goes up with "..": it would land outside the install folder, so it is refused.', name);
  }
}

/** `rel` (from safeRelative) under `root`, checked once more after path resolution. */
export function inside(root: string, rel: string, l10n: L10n = english): string {
  const full = path.resolve(root, rel);
  if (!isWithin(root, full)) throw new UnsafeEntryError(l10n.t('"{0}" resolves outside the install folder.', printable(rel)));
  return full;
}

/** Whether `p` is `root` or below it (both absolute). */
export function isWithin(root: string, p: string): boolean {
  const r = path.relative(root, p);
  return r === '' || (r !== '..' && !r.startsWith('..' + path.sep) && !path.isAbsolute(r));
}

/** Whether a symlink at `rel` whose target is `target` points inside the root (lexically). */
export function linkStaysInside(rel: string, target: string): boolean {
  if (target.includes('\0') || target.includes('\\') || target.startsWith('/') || /^[A-Za-z]:/.test(target)) return false;
  const stack = rel
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (stack.length === 0) return false;
      stack.pop();
    } else stack.push(seg);
  }
  return true;
}

/** A name for messages: control characters replaced, length bounded. */
export function printable(s: string): string {
  let out = '';
  for (const ch of s.slice(0, 200)) out += ch < ' ' || ch === '\u007f' ? '?' : ch;
  return s.length > 200 ? out + '…' : out;
}
