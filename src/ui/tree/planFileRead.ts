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
import { english, type L10n } from '../../common/l10n';
import { formatBytes } from '../../state/planBytes';
import { isInside, isSystemPath } from '../../state/planFileUri';

/** Larger files are shown cut to this many bytes. */
export const MAX_PLAN_FILE_BYTES = 2 * 1024 * 1024;

export type PlanFileRead = { readonly text: string; readonly size: number; readonly cut: boolean } | { readonly error: string; readonly offerOpen?: boolean };

export async function readPlanFile(file: string, roots: readonly string[], maxBytes = MAX_PLAN_FILE_BYTES, l10n: L10n = english): Promise<PlanFileRead> {
  let real: string;
  try {
    real = await fs.realpath(file);
  } catch (err) {
    return { error: describe(err, l10n) };
  }
  if (isSystemPath(real)) return { error: l10n.t('refused: it leads to {0}, a system file', real) };
  const realRoots = await Promise.all(roots.map((r) => fs.realpath(r).catch(() => r)));
  if (!realRoots.some((r) => isInside(real, r))) return { error: l10n.t('not read: it leads to {0}, outside the workspace folders', real), offerOpen: true };
  try {
    const st = await fs.stat(real);
    if (!st.isFile()) return { error: notRegular(st, l10n, true) };
  } catch (err) {
    return { error: describe(err, l10n) };
  }

  let handle: fs.FileHandle;
  try {
    handle = await fs.open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    return { error: describe(err, l10n) };
  }
  try {
    // Checked again on what was opened: the path may have been replaced since the stat.
    const st = await handle.stat();
    if (!st.isFile()) return { error: notRegular(st, l10n, true) };
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
    return {
      text: cut ? `${text}\n\n${l10n.t('(cut: only the first {0} of {1} are shown)', formatBytes(maxBytes), formatBytes(st.size))}` : text,
      size: st.size,
      cut,
    };
  } catch (err) {
    return { error: describe(err, l10n) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

type StatKind = { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean };

/** Why a path is not a regular file; `refused` prefixes "refused: " to what is refused (not a folder). */
function notRegular(st: StatKind, l10n: L10n, refused: boolean): string {
  if (st.isDirectory()) return l10n.t('is a folder');
  const why = st.isFIFO()
    ? l10n.t('a pipe (FIFO), not a regular file')
    : st.isSocket()
      ? l10n.t('a socket, not a regular file')
      : st.isCharacterDevice() || st.isBlockDevice()
        ? l10n.t('a device, not a regular file')
        : l10n.t('not a regular file');
  return refused ? l10n.t('refused: {0}', why) : why;
}

function describe(err: unknown, l10n: L10n): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return l10n.t('not found');
  if (code === 'EACCES' || code === 'EPERM') return l10n.t('no permission to read it');
  if (code === 'EISDIR') return l10n.t('is a folder');
  if (code === 'ELOOP') return l10n.t('refused: it was replaced by a link while being read');
  return l10n.t('could not be read');
}

/**
 * Whether a file the user asked to open (Open Plan) is a regular file, and not a system file, after
 * its links are resolved. Outside the workspace is fine here: the user asked for it.
 */
export async function checkOpenable(file: string, l10n: L10n = english): Promise<{ ok: true; path: string } | { ok: false; reason: string }> {
  let real: string;
  try {
    real = await fs.realpath(file);
  } catch (err) {
    return { ok: false, reason: describe(err, l10n) };
  }
  if (isSystemPath(real)) return { ok: false, reason: l10n.t('it leads to {0}, a system file', real) };
  try {
    const st = await fs.stat(real);
    return st.isFile() ? { ok: true, path: real } : { ok: false, reason: notRegular(st, l10n, false) };
  } catch (err) {
    return { ok: false, reason: describe(err, l10n) };
  }
}
