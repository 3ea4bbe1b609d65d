// Reads a file plan's file, after decidePlanFile (src/state/planFileUri.ts) allowed its path. No
// `vscode` here (unit tested in plain Node). What the path really is decides:
//   - symlinks are resolved first: a link that leads outside the workspace folders (or into
//     /proc, /sys, /dev) is not followed;
//   - only regular files: a folder, device (/dev/zero), FIFO or socket is refused. The file is
//     opened non-blocking (a FIFO opened for reading would otherwise wait for a writer and hold one
//     of the few threads every file operation of the extension host shares) and checked again on
//     the open descriptor;
//   - at most `maxBytes` are read; a larger file is shown cut, and says so.
import { constants, promises as fs } from 'node:fs';
import { formatBytes } from '../../state/planBytes';
import { isInside, isSystemPath } from '../../state/planFileUri';

/** Larger files are shown cut to this many bytes. */
export const MAX_PLAN_FILE_BYTES = 2 * 1024 * 1024;

export type PlanFileRead = { readonly text: string; readonly size: number; readonly cut: boolean } | { readonly error: string; readonly offerOpen?: boolean };

export async function readPlanFile(file: string, roots: readonly string[], maxBytes = MAX_PLAN_FILE_BYTES): Promise<PlanFileRead> {
  let real: string;
  try {
    real = await fs.realpath(file);
  } catch (err) {
    return { error: describe(err) };
  }
  if (isSystemPath(real)) return { error: `refused: it leads to ${real}, a system file` };
  const realRoots = await Promise.all(roots.map((r) => fs.realpath(r).catch(() => r)));
  if (!realRoots.some((r) => isInside(real, r))) return { error: `not read: it leads to ${real}, outside the workspace folders`, offerOpen: true };
  try {
    const st = await fs.stat(real);
    if (!st.isFile()) return { error: notRegular(st) };
  } catch (err) {
    return { error: describe(err) };
  }

  let handle: fs.FileHandle;
  try {
    handle = await fs.open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    return { error: describe(err) };
  }
  try {
    // Checked again on what was opened: the path may have been replaced since the stat.
    const st = await handle.stat();
    if (!st.isFile()) return { error: notRegular(st) };
    const want = Math.min(st.size, maxBytes);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await handle.read(buf, got, want - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    const cut = st.size > maxBytes;
    const text = new TextDecoder('utf-8').decode(buf.subarray(0, got));
    return { text: cut ? `${text}\n\n(cut: only the first ${formatBytes(maxBytes)} of ${formatBytes(st.size)} are shown)` : text, size: st.size, cut };
  } catch (err) {
    return { error: describe(err) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function notRegular(st: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (st.isDirectory()) return 'is a folder';
  if (st.isFIFO()) return 'refused: a pipe (FIFO), not a regular file';
  if (st.isSocket()) return 'refused: a socket, not a regular file';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'refused: a device, not a regular file';
  return 'refused: not a regular file';
}

function describe(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'not found';
  if (code === 'EACCES' || code === 'EPERM') return 'no permission to read it';
  if (code === 'EISDIR') return 'is a folder';
  if (code === 'ELOOP') return 'refused: it was replaced by a link while being read';
  return 'could not be read';
}

/**
 * Whether a file the user asked to open (Open Plan) is a regular file, and not a system file, after
 * its links are resolved. Outside the workspace is fine here: the user asked for it.
 */
export async function checkOpenable(file: string): Promise<{ ok: true; path: string } | { ok: false; reason: string }> {
  let real: string;
  try {
    real = await fs.realpath(file);
  } catch (err) {
    return { ok: false, reason: describe(err) };
  }
  if (isSystemPath(real)) return { ok: false, reason: `it leads to ${real}, a system file` };
  try {
    const st = await fs.stat(real);
    return st.isFile() ? { ok: true, path: real } : { ok: false, reason: notRegular(st).replace(/^refused: /, '') };
  } catch (err) {
    return { ok: false, reason: describe(err) };
  }
}
