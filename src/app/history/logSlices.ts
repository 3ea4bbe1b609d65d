// Writing a log a slice at a time: the slice size, a yield to the host between slices, and the
// serialization of records as a log of their own; the most records a restore applies in one slice. Free of `vscode`.
import type { HistoryRecord, LogEncoder } from './records';

/** Writing a batch or a whole log goes a slice of this many characters at a time (the host answers in between). */
export const SLICE_CHARS = 128 * 1024;
/** The most records one slice of a restore applies, however fast they go (the host answers between slices). */
export const MAX_SLICE_RECORDS = 256;
export const yieldNow = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Serializes records as a log of their own, a slice at a time, yielding between slices. */
export async function serializeInSlices(records: readonly HistoryRecord[], encoder: LogEncoder): Promise<string[]> {
  const parts: string[] = [];
  for (let i = 0; i < records.length;) {
    let text = '';
    while (i < records.length && text.length < SLICE_CHARS) text += encoder.line(records[i++]!);
    parts.push(text);
    if (i < records.length) await yieldNow();
  }
  return parts;
}

export function byteLength(parts: readonly string[]): number {
  return parts.reduce((n, p) => n + Buffer.byteLength(p), 0);
}
