// The session history's files written or read whole: the index (`index.json`, read at activation,
// replaced atomically: a temporary file, then a rename) and a log's last records written
// synchronously at deactivation. Nothing here follows a link: files are opened with O_NOFOLLOW,
// and a link in place of the history folder, its `sessions` folder or a file about to be replaced
// by a rename is refused (`LinkRefused`). Free of `vscode`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isStoredSession, withValidWorktree, type HistoryIndex } from './storedSessions';

/** Opening a file in the history folder never follows a link (0 where the platform has no such flag). */
export const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const WRITE_NEW = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | NO_FOLLOW;

/** A link where the history keeps a file or folder (`name`, relative to the history folder). */
export class LinkRefused extends Error {
  constructor(readonly link: string) {
    super(`The session history folder contains a link (${link}); ACP Plans does not write through links. Remove it to keep history.`);
  }
}

/** The link an error met (a LinkRefused, or opening a link with O_NOFOLLOW), as a LinkRefused; else undefined. */
export function linkRefused(dir: string, err: unknown): LinkRefused | undefined {
  if (err instanceof LinkRefused) return err;
  const e = err as NodeJS.ErrnoException;
  if ((e?.code !== 'ELOOP' && e?.code !== 'EMLINK') || !e.path) return undefined;
  return new LinkRefused(path.relative(dir, e.path).split(path.sep).join('/') || path.basename(dir));
}

/** Throws LinkRefused when `rel` (under `dir`; '' is `dir` itself) is a link. */
export function refuseLinkSync(dir: string, rel: string): void {
  try {
    if (!fs.lstatSync(path.join(dir, rel)).isSymbolicLink()) return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  throw new LinkRefused(rel || path.basename(dir));
}

/** The history folder and its `sessions` folder, made when missing; links refused. */
export function makeDirsSync(dir: string): void {
  refuseLinkSync(dir, '');
  fs.mkdirSync(path.join(dir, 'sessions'), { recursive: true });
  refuseLinkSync(dir, 'sessions');
}

/** Writes `text` to a new file `rel` under `dir` (not through a link). */
async function writeNew(dir: string, rel: string, text: string): Promise<void> {
  const fh = await fs.promises.open(path.join(dir, rel), WRITE_NEW);
  try {
    await fh.writeFile(text);
  } finally {
    await fh.close();
  }
}

/** Renames `from` to `to` (under `dir`) unless `to` is a link. */
export function renameSync(dir: string, from: string, to: string): void {
  refuseLinkSync(dir, to);
  fs.renameSync(path.join(dir, from), path.join(dir, to));
}

/** The batch being appended to a log: the slice being written and where, what is left of it. */
export interface Appending {
  file: string;
  rest: Iterator<string>;
  position?: number;
  slice?: Buffer;
}

/** The stored index; undefined when missing, unreadable (reported) or of another version. Throws LinkRefused. */
export function readIndexFile(dir: string, warn: (message: string) => void): HistoryIndex | undefined {
  refuseLinkSync(dir, '');
  refuseLinkSync(dir, 'sessions');
  try {
    const fd = fs.openSync(path.join(dir, 'index.json'), fs.constants.O_RDONLY | NO_FOLLOW);
    let text: string;
    try {
      if (!fs.fstatSync(fd).isFile()) throw new Error('index.json is not a regular file');
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
    const v = JSON.parse(text) as Partial<HistoryIndex>;
    if (v.version === 1 && Array.isArray(v.sessions))
      return { version: 1, sessions: v.sessions.filter(isStoredSession).map(withValidWorktree), ...(v.active ? { active: v.active } : {}) };
  } catch (err) {
    if (linkRefused(dir, err)) throw linkRefused(dir, err);
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warn(`history index unreadable, starting empty: ${String(err)}`);
  }
  return undefined;
}

/** Writes the index beside its place, then renames it into place unless `stale()` by then. */
export async function writeIndexFile(dir: string, index: HistoryIndex, wrote: (bytes: number) => void, stale: () => boolean): Promise<void> {
  const text = JSON.stringify(index);
  await writeNew(dir, 'index.json.tmp', text);
  wrote(Buffer.byteLength(text));
  // After deactivation flushSync wrote the newer index: this one is not put in its place. The
  // rename is synchronous so that flushSync cannot come between the check and the rename.
  if (stale()) return void (await fs.promises.rm(path.join(dir, 'index.json.tmp'), { force: true }));
  renameSync(dir, 'index.json.tmp', 'index.json');
}

/** Writes the index at once (deactivation); returns the bytes written. */
export function writeIndexFileSync(dir: string, index: HistoryIndex): number {
  makeDirsSync(dir);
  const tmp = 'index.json.sync.tmp'; // not the async write's file, which may be half written
  const text = JSON.stringify(index);
  const fd = fs.openSync(path.join(dir, tmp), WRITE_NEW);
  try {
    fs.writeFileSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
  renameSync(dir, tmp, 'index.json');
  return Buffer.byteLength(text);
}

/** Writes `slice` at `position` then the rest (or all of it at the end of the log when `position` is undefined). */
export function writeLogSync(
  logPath: string,
  position: number | undefined,
  slice: Buffer | undefined,
  rest: Iterator<string>,
  wrote: (bytes: number) => void,
): void {
  const { O_WRONLY, O_CREAT, O_APPEND } = fs.constants;
  const fd = fs.openSync(logPath, O_WRONLY | O_CREAT | NO_FOLLOW | (position === undefined ? O_APPEND : 0));
  try {
    const write = (buf: Buffer): void => {
      for (let done = 0; done < buf.length;) done += fs.writeSync(fd, buf, done, buf.length - done, position === undefined ? null : position + done);
      if (position !== undefined) position += buf.length;
      wrote(buf.length);
    };
    if (slice) write(slice);
    for (let r = rest.next(); !r.done; r = rest.next()) write(Buffer.from(r.value));
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Appends the slices of `a` at the end of its log, through one open file (not opened to append: a
 * write goes where it is told, and writing a slice twice at its place is harmless), keeping where
 * each slice goes in `a` (flushSync finishes it); stops once `current()` is false.
 */
export async function appendSlices(logPath: string, a: Appending, current: () => boolean, wrote: (bytes: number) => void): Promise<void> {
  const fh = await fs.promises.open(logPath, fs.constants.O_WRONLY | fs.constants.O_CREAT | NO_FOLLOW);
  try {
    let position = (await fh.stat()).size;
    for (let r = a.rest.next(); !r.done; r = a.rest.next()) {
      const slice = Buffer.from(r.value);
      Object.assign(a, { position, slice });
      for (let done = 0; done < slice.length;) done += (await fh.write(slice, done, slice.length - done, position + done)).bytesWritten;
      if (!current()) return;
      position += slice.length;
      wrote(slice.length);
    }
  } finally {
    await fh.close();
  }
}

/** Replaces the log `file` with `parts`: written beside it, then renamed into place unless `stale()` by then (false). */
export async function replaceLog(dir: string, file: string, parts: readonly string[], stale: () => boolean): Promise<boolean> {
  const tmp = `sessions/${file}.tmp`;
  const fh = await fs.promises.open(path.join(dir, tmp), WRITE_NEW);
  try {
    for (const part of parts) await fh.appendFile(part);
  } finally {
    await fh.close();
  }
  if (stale()) {
    await fs.promises.rm(path.join(dir, tmp), { force: true });
    return false;
  }
  renameSync(dir, tmp, `sessions/${file}`); // at once: flushSync cannot come between the check and the rename
  return true;
}
