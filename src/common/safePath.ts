// Whether a file inside the workspace folders may be written (or deleted) by Revert, Restore and
// Undo Restore: the one check of links on the way, free of `vscode`. Resolving the whole path at
// once (realpath, falling back to the path itself when it fails) lets a dangling link pass as its
// own in-workspace path, and a write through it creates the file it points to, outside. So the
// path is walked from its workspace folder, each component looked at with lstat: a folder goes on,
// a link must lead (realpath) to a place inside a workspace folder, and a link that leads nowhere
// (dangling, or a loop) or outside is refused with the reason, as data (src/ui/checkpointWords.ts
// words it). The first missing component ends the walk: the rest is created inside what was reached.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { within } from './paths';

/** Why a path may not be written. */
export type PathRefusal =
  /** Outside every workspace folder as written. */
  | { readonly code: 'outside'; readonly data: { readonly path: string } }
  /** A symbolic link on the way leads outside the workspace folders. */
  | { readonly code: 'link-outside'; readonly data: { readonly link: string; readonly target: string } }
  /** A symbolic link on the way leads nowhere (its target does not exist, or links loop). */
  | { readonly code: 'link-nowhere'; readonly data: { readonly link: string } }
  /** A component before the last is a file (or a link to one), not a folder. */
  | { readonly code: 'not-a-folder'; readonly data: { readonly path: string } };

export type WritePath = { readonly ok: true; readonly real: string } | { readonly ok: false; readonly refusal: PathRefusal };

/**
 * Checks `file` (absolute) against `roots` (the workspace folders) for a write: `real` is where the
 * write goes (every existing component resolved), or the refusal.
 */
export async function checkWritePath(roots: readonly string[], file: string): Promise<WritePath> {
  const lexical = path.resolve(file);
  const pairs = await rootPairs(roots);
  const start = pairs.filter((p) => within(p.given, lexical)).sort((a, b) => b.given.length - a.given.length)[0];
  if (!start) return refuse({ code: 'outside', data: { path: lexical } });
  const reals = pairs.map((p) => p.real);
  const parts = path
    .relative(start.given, lexical)
    .split(path.sep)
    .filter((c) => c !== '');
  let cur = start.real;
  for (let i = 0; i < parts.length; i++) {
    const next = path.join(cur, parts[i]!);
    let st = await lstatOrUndefined(next);
    if (!st) return { ok: true, real: path.join(next, ...parts.slice(i + 1)) };
    if (st.isSymbolicLink()) {
      const target = await fs.promises.realpath(next).catch(() => undefined);
      if (target === undefined) return refuse({ code: 'link-nowhere', data: { link: next } });
      if (!reals.some((r) => within(r, target))) return refuse({ code: 'link-outside', data: { link: next, target } });
      cur = target;
      st = await fs.promises.stat(cur);
    } else cur = next;
    if (i < parts.length - 1 && !st.isDirectory()) return refuse({ code: 'not-a-folder', data: { path: next } });
  }
  return { ok: true, real: cur };
}

/** The English sentence of a refusal (logs, and the words where no view words it; people read src/ui/checkpointWords.ts). */
export function pathRefusalMessage(r: PathRefusal): string {
  switch (r.code) {
    case 'outside':
      return 'it is outside the workspace folders';
    case 'link-outside':
      return `the symbolic link ${r.data.link} leads outside the workspace folders (to ${r.data.target}); nothing is written through it`;
    case 'link-nowhere':
      return `the symbolic link ${r.data.link} leads nowhere (its target does not exist); nothing is written through it`;
    case 'not-a-folder':
      return `${r.data.path} is a file, not a folder`;
  }
  return r satisfies never;
}

function refuse(refusal: PathRefusal): WritePath {
  return { ok: false, refusal };
}

/** Each root as given and as its real path; a root that is gone counts as given only. */
async function rootPairs(roots: readonly string[]): Promise<{ given: string; real: string }[]> {
  const out: { given: string; real: string }[] = [];
  for (const r of roots) {
    const given = path.resolve(r);
    const real = await fs.promises.realpath(given).catch(() => given);
    out.push({ given, real });
    if (real !== given) out.push({ given: real, real });
  }
  return out;
}

async function lstatOrUndefined(p: string): Promise<fs.Stats | undefined> {
  try {
    return await fs.promises.lstat(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw err;
  }
}
