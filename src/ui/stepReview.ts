// Review of a file the checkpoints saw change (src/app/checkpoints): the diff editor's left side is
// the file as the checkpoint before the step's first change holds it; the right side is the live
// file when it still holds what the step left (so the diff editor's own per-hunk revert arrows
// reject a hunk in the real file), else the file as the step left it, read-only. Part of the
// work-actions bundle.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileChange } from '../state/attribution/workStore';

export interface CheckpointReader {
  /** null: absent in that checkpoint; undefined: the checkpoint is not available. */
  read(folder: string, id: string, relPath: string): Promise<Buffer | null | undefined>;
}

/** Where a file's sides come from. */
export interface ReviewSides {
  readonly before: vscode.Uri;
  readonly after: vscode.Uri;
  /** The right side is the file itself (edits there change the workspace). */
  readonly live: boolean;
}

/** The checkpoint spans of a file's changes in a step: the first's start and the last's end. */
export function spansOf(all: readonly FileChange[]): { folder: string; from: string; to: string; binary: boolean } | undefined {
  const spans = all.flatMap((c) => (c.checkpoint ? [c.checkpoint] : []));
  if (!spans.length) return undefined;
  return { folder: spans[0]!.folder, from: spans[0]!.from, to: spans.at(-1)!.to, binary: spans.some((s) => s.binary) };
}

export async function checkpointSides(
  file: string,
  all: readonly FileChange[],
  reader: CheckpointReader,
  doc: (side: 'before' | 'after', text: string) => vscode.Uri,
): Promise<ReviewSides | undefined> {
  const span = spansOf(all);
  // The client's own writes know their texts exactly: their review stays theirs.
  if (!span || all.some((c) => c.written)) return undefined;
  const rel = path.relative(span.folder, file).split(path.sep).join('/');
  const [before, after] = await Promise.all([reader.read(span.folder, span.from, rel), reader.read(span.folder, span.to, rel)]);
  if (before === undefined || after === undefined) return undefined;
  const text = (b: Buffer | null): string =>
    b === null ? '' : span.binary ? `(A binary file of ${b.length} bytes: ACP Plans shows text files only.)` : b.toString('utf8');
  const left = doc('before', text(before));
  if (after !== null && !span.binary) {
    const now = await fs.promises.readFile(file).catch(() => undefined);
    if (now?.equals(after)) return { before: left, after: vscode.Uri.file(file), live: true };
  }
  return { before: left, after: doc('after', text(after)), live: false };
}
