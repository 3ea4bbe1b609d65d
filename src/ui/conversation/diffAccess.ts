// Whether "Open Diff" may read the file a tool call names (to rebuild a patch against it, or to
// show it). The path comes from the agent: it may climb out with `..`, lead out through a
// symbolic link, or name a device (`/dev/zero`), a FIFO (reading blocks the host's file I/O) or
// `/proc/self/environ`. No `vscode` here, so the decision is unit-tested on real files.
//   - only regular files, at most `maxBytes` (read with a bounded read, so a file that grows or a
//     `/proc` file that reports size 0 cannot make it read more);
//   - inside a workspace folder both as written and after following links: read;
//   - outside: the caller asks first, naming the path (`ask`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { within } from '../../common/paths';

/** Largest file read for a diff (the same cap as the agent's own reads). */
export const MAX_DIFF_READ_BYTES = 16 * 1024 * 1024;

/** `path`: as named (made absolute); `real`: where it leads, links followed (what is read). */
export type DiffReadDecision =
  { kind: 'read'; path: string; real: string } | { kind: 'ask'; path: string; real: string; why: string } | { kind: 'refuse'; path: string; why: string };

/** What to do about reading `p` (absolute, or relative to the first of `roots`, the workspace folders' paths). */
export async function decideDiffRead(p: string, roots: readonly string[], maxBytes = MAX_DIFF_READ_BYTES): Promise<DiffReadDecision> {
  const base = roots[0];
  if (!path.isAbsolute(p) && base === undefined) return { kind: 'refuse', path: p, why: 'the path is relative and no workspace folder is open' };
  const lexical = path.resolve(base ?? '/', p);
  let real: string;
  let st: fs.Stats;
  try {
    real = await fs.promises.realpath(lexical);
    st = await fs.promises.stat(real);
  } catch {
    return { kind: 'refuse', path: lexical, why: 'the file does not exist' };
  }
  const shown = real === lexical ? lexical : `${lexical} (→ ${real})`;
  if (!st.isFile()) return { kind: 'refuse', path: shown, why: 'it is not a regular file (a device, a pipe or a folder)' };
  if (st.size > maxBytes) return { kind: 'refuse', path: shown, why: `it is larger than ${formatBytes(maxBytes)}` };
  const realRoots = await Promise.all(roots.map((r) => fs.promises.realpath(r).catch(() => path.resolve(r))));
  if (!roots.some((r) => within(path.resolve(r), lexical))) return { kind: 'ask', path: lexical, real, why: 'it is outside the workspace folders' };
  if (!realRoots.some((r) => within(r, real)))
    return { kind: 'ask', path: lexical, real, why: `a symbolic link leads it outside the workspace folders, to ${real}` };
  return { kind: 'read', path: lexical, real };
}

/**
 * Reads a file the decision allowed: opened without blocking, checked again to be a regular
 * file, and read up to `maxBytes` (more is an error, never a longer read).
 */
export async function readCapped(file: string, maxBytes = MAX_DIFF_READ_BYTES): Promise<string> {
  const handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new Error(`${file} is not a regular file.`);
    const buf = Buffer.alloc(Math.min(maxBytes, Math.max(st.size, 64 * 1024)) + 1);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw new Error(`${file} is larger than ${formatBytes(maxBytes)}.`);
      chunks.push(Buffer.from(buf.subarray(0, bytesRead)));
    }
    return new TextDecoder().decode(Buffer.concat(chunks, total));
  } finally {
    await handle.close();
  }
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MiB` : `${n} bytes`;
}
