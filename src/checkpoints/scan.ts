// Which of the paths git named as changed or new go into a checkpoint: each is looked at with
// lstat (asynchronously, a few at a time), and files over the size caps, binaries over theirs,
// nested repositories, anything that is neither a file nor a link, and what lies beyond a folder
// that is a link stay out, each with a reason (the rest of the checkpoint is taken all the same).
// Paths stay the bytes git printed (a name need not be UTF-8); they become text only to be shown.
import { promises as fsp, type Stats } from 'node:fs';
import * as path from 'node:path';

/** How many bytes are looked at for a NUL to call a file binary (as git does). */
export const BINARY_SNIFF_BYTES = 8000;
/** At most this many skipped files are listed by name in a checkpoint. */
export const MAX_SKIPPED_LISTED = 1000;
const PARALLEL = 32;

export interface ScanLimits {
  readonly maxFileBytes: number;
  readonly maxBinaryBytes: number;
}

export interface Skipped {
  readonly path: string;
  readonly why: string;
  /** Left out because it lies beyond this folder (relative to the work tree), which is a symbolic link. */
  readonly link?: string;
}

export interface Scan {
  /** Paths for `update-index --add --remove`: changed, new, or gone (git removes a missing one). */
  readonly update: Buffer[];
  /** Paths that must leave the checkpoint although they exist (grew over a cap, became a folder, a pipe…). */
  readonly forceRemove: Buffer[];
  readonly skipped: Skipped[];
  readonly skippedTotal: number;
}

/** A size for a person: "3.1 MiB", "300 KiB". */
export function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
  return `${Math.ceil(bytes / 1024)} KiB`;
}

async function lstat(p: Buffer): Promise<Stats | undefined> {
  try {
    return await fsp.lstat(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** True when the first BINARY_SNIFF_BYTES of the file hold a NUL (false when it cannot be read). */
async function looksBinary(p: Buffer): Promise<boolean> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(p, 'r');
    const buf = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, BINARY_SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead).includes(0);
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

type Verdict = { kind: 'update' } | { kind: 'remove'; why?: string } | { kind: 'skip'; why: string; link?: string };

async function judge(root: Buffer, rel: Buffer, limits: ScanLimits, links: LinkedFolders): Promise<Verdict> {
  // ls-files names a nested repository by its folder, with a trailing slash.
  if (rel[rel.length - 1] === 0x2f) return { kind: 'skip', why: 'a nested git repository (not checkpointed: its own history keeps it)' };
  const link = await links.beyond(rel);
  if (link) return { kind: 'skip', why: `beyond the symbolic link "${link}" (the link is checkpointed, not what it leads to)`, link };
  const full = Buffer.concat([root, rel]);
  const st = await lstat(full);
  if (!st || st.isSymbolicLink()) return { kind: 'update' };
  if (st.isDirectory()) return { kind: 'remove' };
  if (!st.isFile()) return { kind: 'skip', why: 'not a regular file' };
  if (st.size > limits.maxFileBytes) return { kind: 'skip', why: `larger than ${size(limits.maxFileBytes)} (${size(st.size)})` };
  if (st.size > limits.maxBinaryBytes && (await looksBinary(full)))
    return { kind: 'skip', why: `a binary file larger than ${size(limits.maxBinaryBytes)} (${size(st.size)})` };
  return { kind: 'update' };
}

/** Which folder on a path is a symbolic link, each folder looked at once per scan. */
interface LinkedFolders {
  /** The first folder of `rel` (relative to the work tree) that is a link, as text; undefined when none is. */
  beyond(rel: Buffer): Promise<string | undefined>;
}

/**
 * git refuses to index a path beyond a link ("beyond a symbolic link") and lstat would follow the
 * link to whatever it leads to: a tracked path under a folder that became a link leaves the
 * checkpoint with this reason, and the link itself is checkpointed as a link (ls-files lists it).
 */
function linkedFolders(root: Buffer): LinkedFolders {
  const seen = new Map<string, Promise<boolean>>();
  const isLink = (folder: Buffer): Promise<boolean> => {
    const key = folder.toString('latin1');
    let p = seen.get(key);
    if (!p) seen.set(key, (p = lstat(Buffer.concat([root, folder])).then((st) => st?.isSymbolicLink() === true)));
    return p;
  };
  return {
    async beyond(rel) {
      for (let i = rel.indexOf(0x2f); i > 0 && i < rel.length - 1; i = rel.indexOf(0x2f, i + 1)) {
        const folder = rel.subarray(0, i);
        if (await isLink(folder)) return folder.toString('utf8');
      }
      return undefined;
    },
  };
}

/**
 * Sorts the candidates (paths relative to `workTree`, as git printed them; the first `tracked` of
 * them are in the index, the rest are new) into what to update, remove and skip.
 */
export async function scan(workTree: string, candidates: readonly Buffer[], limits: ScanLimits, tracked = candidates.length): Promise<Scan> {
  const root = Buffer.from(workTree.endsWith(path.sep) ? workTree : workTree + path.sep);
  const update: Buffer[] = [];
  const forceRemove: Buffer[] = [];
  const skipped: Skipped[] = [];
  let skippedTotal = 0;
  let next = 0;
  const links = linkedFolders(root);
  const worker = async (): Promise<void> => {
    while (next < candidates.length) {
      const i = next++;
      const rel = candidates[i]!;
      const v = await judge(root, rel, limits, links);
      if (v.kind === 'update') update.push(rel);
      else {
        // Only a path in the index has anything to remove (a new one left out was never added).
        if (i < tracked) forceRemove.push(rel);
        if (v.kind === 'skip') {
          skippedTotal++;
          if (skipped.length < MAX_SKIPPED_LISTED)
            skipped.push({ path: rel.toString('utf8').replace(/\/$/, ''), why: v.why, ...(v.link ? { link: v.link } : {}) });
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, candidates.length) }, worker));
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { update, forceRemove, skipped, skippedTotal };
}

/** Splits NUL-terminated output into its entries (without empty ones). */
export function splitNul(out: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = out.indexOf(0); i !== -1; i = out.indexOf(0, start)) {
    if (i > start) parts.push(out.subarray(start, i));
    start = i + 1;
  }
  if (start < out.length) parts.push(out.subarray(start));
  return parts;
}

/** Joins paths for `-z --stdin`. */
export function joinNul(paths: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [];
  const nul = Buffer.from([0]);
  for (const p of paths) parts.push(p, nul);
  return Buffer.concat(parts);
}

/**
 * A watcher of `ls-files -z -t -o -m` output as it arrives, for GitRunOptions.onStdout: counts the
 * new paths (tagged "? ", listed before the tracked ones) and answers false once there are more
 * than `room`.
 */
export function newPathCounter(room: number): (chunk: Buffer) => boolean {
  let count = 0;
  let atStart = true;
  let pastNew = false;
  return (chunk) => {
    for (let i = 0; i < chunk.length && !pastNew;) {
      if (atStart) {
        if (chunk[i] !== 0x3f) pastNew = true;
        else if (++count > room) return false;
        atStart = false;
      }
      const nul = chunk.indexOf(0, i);
      if (nul === -1) break;
      i = nul + 1;
      atStart = true;
    }
    return true;
  };
}

/**
 * Reads `ls-files -z -t -o -m` output: new paths ("? <path>") and tracked ones whose stat data
 * changed or that are gone ("C <path>"; a gone one is listed as changed too).
 */
export function splitListing(out: Buffer): { changed: Buffer[]; untracked: Buffer[] } {
  const changed: Buffer[] = [];
  const untracked: Buffer[] = [];
  for (const entry of splitNul(out)) {
    if (entry.length < 3 || entry[1] !== 0x20) continue;
    if (entry[0] === 0x3f) untracked.push(entry.subarray(2));
    else if (entry[0] === 0x43) changed.push(entry.subarray(2));
  }
  return { changed, untracked };
}
