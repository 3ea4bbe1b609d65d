// Reads a session log's lines from its file a chunk at a time, holding at most one line (up to
// `maxLineBytes`) and one chunk: a longer line is dropped while it is read, never put together,
// so a 400 MB line costs a chunk of memory, not 400 MB. The file is opened without following a
// link (O_NOFOLLOW) and read only when it is a regular file. Part of the lazily loaded reader
// (history-reader.js). Free of `vscode`.
import * as fs from 'node:fs';

/** A log line longer than this is skipped (counted): the cap of a whole session log. */
export const MAX_LOG_LINE_BYTES = 64 * 1024 * 1024;
/** Bytes read from a log at a time. */
export const LOG_CHUNK_BYTES = 256 * 1024;
/** Opening a file in the history folder never follows a link (0 where the platform has no such flag). */
export const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

export interface LineLimits {
  maxLineBytes?: number;
  chunkBytes?: number;
}

export interface LinesRead {
  /** Lines over the limit, skipped. */
  longLines: number;
  /** The most bytes held at once (the line being read and the chunk). */
  maxBuffered: number;
}

/**
 * Calls `line` with each line of the file, in order (`ended`: false for a last line without its
 * newline). Throws as `fs` does (ENOENT, ELOOP for a link); a file that is not a regular file is
 * refused with an error of code `ENOTREG`.
 */
export async function readLines(file: string, limits: LineLimits, line: (text: string, ended: boolean) => void): Promise<LinesRead> {
  const maxLine = limits.maxLineBytes ?? MAX_LOG_LINE_BYTES;
  const chunk = Buffer.alloc(limits.chunkBytes ?? LOG_CHUNK_BYTES);
  const read: LinesRead = { longLines: 0, maxBuffered: 0 };
  const fh = await fs.promises.open(file, fs.constants.O_RDONLY | NO_FOLLOW);
  try {
    if (!(await fh.stat()).isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: 'ENOTREG' });
    let parts: Buffer[] = [];
    let held = 0;
    let dropping = false;
    for (;;) {
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, null);
      if (!bytesRead) break;
      read.maxBuffered = Math.max(read.maxBuffered, held + chunk.length);
      for (let start = 0; start < bytesRead;) {
        const nl = chunk.indexOf(10, start);
        const end = nl < 0 || nl >= bytesRead ? bytesRead : nl; // past bytesRead: an earlier read's bytes
        if (!dropping && held + (end - start) > maxLine) {
          dropping = true;
          parts = [];
          held = 0;
        }
        if (end === bytesRead) {
          // The line goes on in the next chunk (copied: the chunk is read into again).
          if (!dropping && end > start) {
            parts.push(Buffer.from(chunk.subarray(start, end)));
            held += end - start;
          }
          break;
        }
        if (dropping) read.longLines++;
        else if (!held) line(chunk.toString('utf8', start, end), true);
        else line(Buffer.concat([...parts, chunk.subarray(start, end)], held + end - start).toString('utf8'), true);
        parts = [];
        held = 0;
        dropping = false;
        start = end + 1;
      }
    }
    if (dropping) read.longLines++;
    else if (held) line(Buffer.concat(parts, held).toString('utf8'), false);
    return read;
  } finally {
    await fh.close();
  }
}
