// Where an agent may read, write and run commands: inside its roots (the workspace folders for
// files, the session's folders for terminal cwd), checked component by component on the real
// disk. Plain Node (no vscode), so it is tested against real temporary folders and symlinks.
//
// The rules, for a path an agent sends:
// - it must be absolute, at most MAX_PATH_CHARS long, without NUL; `.` and `..` are resolved
//   lexically first and the result is what is checked and what is used for the I/O;
// - it must lie inside a root as written (a root counts both as given and as its real path);
// - walking from that root, every existing component is lstat'ed: a directory goes on, a symbolic
//   link must resolve (realpath) to a place inside a root, a link that points nowhere (dangling)
//   or loops is refused, a file in the middle of the path is refused;
// - reads need an existing regular file; writes need an existing regular file with one link
//   (another hard link may be a file outside the workspace) or a missing one, whose missing parent
//   folders are then created inside the real folder reached (never through a link).
// What this does not cover: a process racing the check (swapping a folder for a link between the
// check and the write): an agent able to do that already writes the disk itself.

import * as fs from 'fs';
import * as path from 'path';
import { within } from '../common/paths';

export class AccessDeniedError extends Error {
  override readonly name = 'AccessDeniedError';
}

/** Longest path accepted from an agent (characters). */
export const MAX_PATH_CHARS = 4096;

export type AccessMode = 'read' | 'write';

export interface ResolvedPath {
  /** The path as the agent sent it, `.`/`..` resolved. */
  readonly lexical: string;
  /** Where the I/O goes: every existing component resolved through its links. */
  readonly real: string;
  /** The real root that contains `real`. */
  readonly root: string;
  /** Whether the final component exists (for writes: false means the file will be created). */
  readonly exists: boolean;
}

/** The real paths of the roots that exist (a root that is gone is left out). */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
  return [...new Set((await rootPairs(roots)).map((p) => p.real))];
}

function checkShape(p: string, verb: string): string {
  if (typeof p !== 'string' || p.length === 0) throw new AccessDeniedError(`Refused to ${verb}: no path was given.`);
  if (p.length > MAX_PATH_CHARS) throw new AccessDeniedError(`Refused to ${verb} a path of ${p.length} characters (at most ${MAX_PATH_CHARS}).`);
  if (p.includes('\0')) throw new AccessDeniedError(`Refused to ${verb} "${printable(p)}": the path contains a NUL character.`);
  if (!path.isAbsolute(p)) throw new AccessDeniedError(`Refused to ${verb} "${printable(p)}": the path must be absolute.`);
  return path.resolve(p);
}

/**
 * Checks `p` against `roots` for reading or writing and returns where the I/O must go.
 * Throws AccessDeniedError (a sentence for the agent and the log) when it is not allowed.
 */
export async function resolveInRoots(roots: readonly string[], p: string, mode: AccessMode): Promise<ResolvedPath> {
  const verb = mode === 'read' ? 'read' : 'write';
  const lexical = checkShape(p, verb);
  const pairs = await rootPairs(roots);
  const reals = [...new Set(pairs.map((q) => q.real))];
  const start = findRoot(pairs, lexical);
  if (!start) throw new AccessDeniedError(`Refused to ${verb} "${printable(lexical)}": it is outside the workspace folders.`);
  const parts = path
    .relative(start.given, lexical)
    .split(path.sep)
    .filter((c) => c !== '');
  let cur = start.real;
  for (let i = 0; i < parts.length; i++) {
    const last = i === parts.length - 1;
    const next = path.join(cur, parts[i]!);
    let st: fs.Stats;
    try {
      st = await fs.promises.lstat(next);
    } catch (err) {
      if (code(err) !== 'ENOENT') throw new AccessDeniedError(`Refused to ${verb} "${printable(lexical)}": ${errorText(err)}.`);
      if (mode === 'read') throw new AccessDeniedError(`Could not read "${printable(lexical)}": it does not exist.`);
      return { lexical, real: path.join(next, ...parts.slice(i + 1)), root: rootOf(reals, cur), exists: false };
    }
    if (st.isSymbolicLink()) {
      cur = await followLink(next, reals, lexical, verb);
      st = await fs.promises.stat(cur);
    } else cur = next;
    if (!last && !st.isDirectory()) throw new AccessDeniedError(`Refused to ${verb} "${printable(lexical)}": "${parts[i]}" is not a folder.`);
    if (last) checkFinal(st, lexical, mode);
  }
  if (parts.length === 0) throw new AccessDeniedError(`Refused to ${verb} "${printable(lexical)}": it is a folder, not a file.`);
  return { lexical, real: cur, root: rootOf(reals, cur), exists: true };
}

/**
 * The real path of a folder inside `roots` (a terminal's working directory); `dir` undefined means
 * the first root. Throws AccessDeniedError when it is outside, missing or not a folder.
 */
export async function resolveFolderInRoots(roots: readonly string[], dir: string | undefined): Promise<string> {
  const reals = await realRoots(roots);
  if (reals.length === 0) throw new AccessDeniedError('Refused to run a command: the session has no folder to run it in (its folder is gone).');
  if (dir === undefined) return reals[0]!;
  const lexical = checkShape(dir, 'run a command in');
  let real: string;
  try {
    real = await fs.promises.realpath(lexical);
  } catch (err) {
    throw new AccessDeniedError(
      `Refused to run a command in "${printable(lexical)}": ${code(err) === 'ENOENT' ? 'the folder does not exist' : errorText(err)}.`,
    );
  }
  if (!reals.some((r) => within(r, real))) {
    throw new AccessDeniedError(
      `Refused to run a command in "${printable(lexical)}": it is outside the session's folders (${reals.map(printable).join(', ')}).`,
    );
  }
  const st = await fs.promises.stat(real);
  if (!st.isDirectory()) throw new AccessDeniedError(`Refused to run a command in "${printable(lexical)}": it is not a folder.`);
  return real;
}

interface RootPair {
  given: string;
  real: string;
}

/** Each root as given and as its real path (a root that is gone is left out). */
async function rootPairs(roots: readonly string[]): Promise<RootPair[]> {
  const out: RootPair[] = [];
  for (const g of roots) {
    if (!path.isAbsolute(g)) continue;
    try {
      const real = await fs.promises.realpath(g);
      out.push({ given: path.resolve(g), real }, { given: real, real });
    } catch {
      /* gone */
    }
  }
  return out;
}

/** The root the path lies in as written; the deepest first, so a nested root walks from itself. */
function findRoot(pairs: readonly RootPair[], lexical: string): RootPair | undefined {
  return pairs.filter((c) => within(c.given, lexical)).sort((a, b) => b.given.length - a.given.length)[0];
}

async function followLink(link: string, reals: readonly string[], lexical: string, verb: string): Promise<string> {
  let target: string;
  try {
    target = await fs.promises.realpath(link);
  } catch (err) {
    const why = code(err) === 'ELOOP' ? 'loops' : 'points to nothing (a dangling link)';
    throw new AccessDeniedError(`Refused to ${verb} "${printable(lexical)}": the symbolic link "${printable(link)}" ${why}.`);
  }
  if (!reals.some((r) => within(r, target))) {
    throw new AccessDeniedError(`Refused to ${verb} "${printable(lexical)}": the symbolic link "${printable(link)}" leads outside the workspace folders.`);
  }
  return target;
}

function checkFinal(st: fs.Stats, lexical: string, mode: AccessMode): void {
  const verb = mode === 'read' ? 'read' : 'write';
  if (st.isDirectory()) throw new AccessDeniedError(`Refused to ${verb} "${printable(lexical)}": it is a folder, not a file.`);
  if (!st.isFile()) throw new AccessDeniedError(`Refused to ${verb} "${printable(lexical)}": it is not a regular file (a device, pipe or socket).`);
  if (mode === 'write' && st.nlink > 1) {
    throw new AccessDeniedError(
      `Refused to write "${printable(lexical)}": the file has ${st.nlink} hard links, so it may also be a file outside the workspace. Edit it yourself if you mean to.`,
    );
  }
}

function rootOf(reals: readonly string[], p: string): string {
  return reals.filter((r) => within(r, p)).sort((a, b) => b.length - a.length)[0] ?? reals[0] ?? p;
}

function code(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A path as shown in a message: control characters escaped, at most 300 characters. */
export function printable(p: string): string {
  const shown = p.length > 300 ? `${p.slice(0, 150)}…${p.slice(-150)}` : p;
  let out = '';
  for (const ch of shown) {
    const c = ch.codePointAt(0)!;
    out += c < 0x20 || c === 0x7f ? `\\x${c.toString(16).padStart(2, '0')}` : ch;
  }
  return out;
}
