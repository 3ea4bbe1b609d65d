// The session history's files written or read whole: the index (`index.json`, read at activation,
// replaced atomically: a temporary file, then a rename) and a log's last records written
// synchronously at deactivation. Free of `vscode`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isStoredSession, type HistoryIndex } from './storedSessions';

/** The batch being appended to a log: the slice being written and where, what is left of it. */
export interface Appending {
  file: string;
  rest: Iterator<string>;
  position?: number;
  slice?: Buffer;
}

/** The stored index; undefined when missing, unreadable (reported) or of another version. */
export function readIndexFile(dir: string, warn: (message: string) => void): HistoryIndex | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as Partial<HistoryIndex>;
    if (v.version === 1 && Array.isArray(v.sessions))
      return { version: 1, sessions: v.sessions.filter(isStoredSession), ...(v.active ? { active: v.active } : {}) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warn(`history index unreadable, starting empty: ${String(err)}`);
  }
  return undefined;
}

/** Writes the index beside its place, then renames it into place unless `stale()` by then. */
export async function writeIndexFile(dir: string, index: HistoryIndex, wrote: (bytes: number) => void, stale: () => boolean): Promise<void> {
  const tmp = path.join(dir, 'index.json.tmp');
  const text = JSON.stringify(index);
  await fs.promises.writeFile(tmp, text);
  wrote(Buffer.byteLength(text));
  // After deactivation flushSync wrote the newer index: this one is not put in its place. The
  // rename is synchronous so that flushSync cannot come between the check and the rename.
  if (stale()) return void (await fs.promises.rm(tmp, { force: true }));
  fs.renameSync(tmp, path.join(dir, 'index.json'));
}

/** Writes the index at once (deactivation); returns the bytes written. */
export function writeIndexFileSync(dir: string, index: HistoryIndex): number {
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, 'index.json.sync.tmp'); // not the async write's file, which may be half written
  const text = JSON.stringify(index);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, path.join(dir, 'index.json'));
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
  const fd = fs.openSync(logPath, position === undefined ? 'a' : fs.constants.O_WRONLY | fs.constants.O_CREAT);
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
