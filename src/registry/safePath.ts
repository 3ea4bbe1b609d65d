// Names inside an archive (and an entry's `cmd`) are untrusted: each must stay inside the folder it
// is extracted to. Lexical checks here; the extractor also never writes through a symlink (links are
// created last, and only when they point inside). No `vscode`.
import * as path from 'path';

export class UnsafeEntryError extends Error {}

/**
 * The entry's path relative to the target folder, in `/` form without `./` segments, or '' for
 * the folder itself. Throws UnsafeEntryError for absolute paths, drive letters, `..`, backslashes
 * and NUL.
 */
export function safeRelative(name: string, what = 'archive entry'): string {
  if (name.length > 4096) throw new UnsafeEntryError(`The ${what} name is longer than 4096 characters.`);
  if (name.includes('\0')) throw new UnsafeEntryError(`The ${what} "${printable(name)}" has a NUL character in its name.`);
  if (name.includes('\\'))
    throw new UnsafeEntryError(
      `The ${what} "${printable(name)}" has a backslash in its name; it is refused (it could point outside the install folder on Windows).`,
    );
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw new UnsafeEntryError(`The ${what} "${printable(name)}" is an absolute path; it is refused.`);
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..'))
    throw new UnsafeEntryError(`The ${what} "${printable(name)}" goes up with "..": it would land outside the install folder, so it is refused.`);
  return parts.join('/');
}

/** `rel` (from safeRelative) under `root`, checked once more after path resolution. */
export function inside(root: string, rel: string): string {
  const full = path.resolve(root, rel);
  if (!isWithin(root, full)) throw new UnsafeEntryError(`"${printable(rel)}" resolves outside the install folder.`);
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
