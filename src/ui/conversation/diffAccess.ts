// Whether "Open Diff" may read the file a tool call names (to rebuild a patch against it, or to
// show it). The path comes from the agent: it may climb out with `..`, lead out through a
// symbolic link, or name a device (`/dev/zero`), a FIFO (reading blocks the host's file I/O) or
// `/proc/self/environ`. No `vscode` here, so the decision is unit-tested on real files.
//   - only regular files, at most `maxBytes` (read with a bounded read, so a file that grows or a
//     `/proc` file that reports size 0 cannot make it read more);
//   - inside a workspace folder both as written and after following links: read;
//   - outside: the caller asks first, naming the path (`ask`).
// `why` (and readCapped's errors) are in `l10n`'s words: the caller shows them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { english, type L10n } from '../../common/l10n';
import { within } from '../../common/paths';

/** Largest file read for a diff (the same cap as the agent's own reads). */
export const MAX_DIFF_READ_BYTES = 16 * 1024 * 1024;

/** `path`: as named (made absolute); `real`: where it leads, links followed (what is read); `missing`: the file does not exist. */
export type DiffReadDecision =
  | { kind: 'read'; path: string; real: string }
  | { kind: 'ask'; path: string; real: string; why: string }
  | { kind: 'refuse'; path: string; why: string; missing: boolean };

/** What to do about reading `p` (absolute, or relative to the first of `roots`, the workspace folders' paths). */
export async function decideDiffRead(p: string, roots: readonly string[], maxBytes = MAX_DIFF_READ_BYTES, l10n: L10n = english): Promise<DiffReadDecision> {
  const base = roots[0];
  const refuse = (shown: string, why: string, missing = false): DiffReadDecision => ({ kind: 'refuse', path: shown, why, missing });
  if (!path.isAbsolute(p) && base === undefined) return refuse(p, l10n.t('the path is relative and no workspace folder is open'));
  const lexical = path.resolve(base ?? '/', p);
  let real: string;
  let st: fs.Stats;
  try {
    real = await fs.promises.realpath(lexical);
    st = await fs.promises.stat(real);
  } catch {
    return refuse(lexical, l10n.t('the file does not exist'), true);
  }
  const shown = real === lexical ? lexical : `${lexical} (→ ${real})`;
  if (!st.isFile()) return refuse(shown, l10n.t('it is not a regular file (a device, a pipe or a folder)'));
  if (st.size > maxBytes) return refuse(shown, l10n.t('it is larger than {0}', formatBytes(maxBytes, l10n)));
  const realRoots = await Promise.all(roots.map((r) => fs.promises.realpath(r).catch(() => path.resolve(r))));
  if (!roots.some((r) => within(path.resolve(r), lexical))) return { kind: 'ask', path: lexical, real, why: l10n.t('it is outside the workspace folders') };
  if (!realRoots.some((r) => within(r, real)))
    return { kind: 'ask', path: lexical, real, why: l10n.t('a symbolic link leads it outside the workspace folders, to {0}', real) };
  return { kind: 'read', path: lexical, real };
}

/**
 * Reads a file the decision allowed: opened without blocking, checked again to be a regular
 * file, and read up to `maxBytes` (more is an error, never a longer read).
 */
export async function readCapped(file: string, maxBytes = MAX_DIFF_READ_BYTES, l10n: L10n = english): Promise<string> {
  const handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new Error(l10n.t('{0} is not a regular file.', file));
    const buf = Buffer.alloc(Math.min(maxBytes, Math.max(st.size, 64 * 1024)) + 1);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw new Error(l10n.t('{0} is larger than {1}.', file, formatBytes(maxBytes, l10n)));
      chunks.push(Buffer.from(buf.subarray(0, bytesRead)));
    }
    return new TextDecoder().decode(Buffer.concat(chunks, total));
  } finally {
    await handle.close();
  }
}

function formatBytes(n: number, l10n: L10n): string {
  return n % (1024 * 1024) === 0 ? l10n.t('{0} MiB', n / 1024 / 1024) : l10n.t('{0} bytes', n);
}
