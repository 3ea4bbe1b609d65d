// Where a review comment's lines are after a file changed: the common head and tail of the two
// texts are trimmed, the middle is matched line by line (longest common subsequence, bounded), and
// the comment's lines follow their matches. A comment is never moved to lines it did not sit on:
// when none of its lines survive it says so (`gone`), at the place they were. Free of `vscode`.

/** Lines of a comment: 0-based, `end` inclusive. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

export interface Reanchored extends LineRange {
  /** The change touched the range (a line in it changed, went, or a line came in between). */
  readonly touched: boolean;
  /** None of the range's lines are left. */
  readonly gone: boolean;
}

/** The middle of two texts matched line by line up to this many cells; past it, replaced whole. */
const MAX_CELLS = 4_000_000;

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** For each old line, its new line (or -1 when it went). */
export function lineMap(a: readonly string[], b: readonly string[]): Int32Array {
  const map = new Int32Array(a.length).fill(-1);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) map[pre] = pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) {
    map[a.length - 1 - suf] = b.length - 1 - suf;
    suf++;
  }
  const n = a.length - pre - suf;
  const m = b.length - pre - suf;
  if (n === 0 || m === 0 || n * m > MAX_CELLS) return map;
  // LCS table of the middle, from the end, so the walk below goes forwards.
  const w = m + 1;
  const t = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) t[i * w + j] = a[pre + i] === b[pre + j] ? t[(i + 1) * w + j + 1]! + 1 : Math.max(t[(i + 1) * w + j]!, t[i * w + j + 1]!);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[pre + i] === b[pre + j]) map[pre + i++] = pre + j++;
    else if (t[(i + 1) * w + j]! >= t[i * w + j + 1]!) i++;
    else j++;
  }
  return map;
}

/** Where `range` (in `before`) is in `after`. */
export function reanchor(range: LineRange, before: string, after: string): Reanchored {
  return reanchorLines(range, splitLines(before), splitLines(after));
}

export function reanchorLines(range: LineRange, a: readonly string[], b: readonly string[]): Reanchored {
  const map = lineMap(a, b);
  const kept: number[] = [];
  for (let i = range.start; i <= range.end && i < a.length; i++) if (map[i]! >= 0) kept.push(map[i]!);
  // The new lines between the range's neighbours that are left: what replaced its lost edges.
  const at = afterKept(map, Math.min(range.start, a.length));
  const next = beforeKept(map, range.end + 1, b.length);
  if (!kept.length) {
    if (next > at) return { start: at, end: next - 1, touched: true, gone: false };
    const start = Math.min(at, Math.max(0, b.length - 1));
    return { start, end: start, touched: true, gone: true };
  }
  // A first or last line replaced: the range keeps the lines that took its place.
  const start = map[range.start]! < 0 && at < kept[0]! ? at : kept[0]!;
  const last = kept[kept.length - 1]!;
  const end = range.end < a.length && map[range.end]! < 0 && next - 1 > last ? next - 1 : last;
  const whole = kept.length === Math.min(range.end, a.length - 1) - range.start + 1;
  return { start, end, touched: !whole || end - start !== range.end - range.start, gone: false };
}

/** The new line after the last old line before `i` that is left (0 when none is). */
function afterKept(map: Int32Array, i: number): number {
  for (let k = i - 1; k >= 0; k--) if (map[k]! >= 0) return map[k]! + 1;
  return 0;
}

/** The new line of the first old line from `i` on that is left (`size` when none is). */
function beforeKept(map: Int32Array, i: number, size: number): number {
  for (let k = i; k < map.length; k++) if (map[k]! >= 0) return map[k]!;
  return size;
}

/** Where `lines` are in `doc`, the match nearest to `start` first; undefined when they are not there. */
export function findLines(lines: readonly string[], start: number, doc: readonly string[]): LineRange | undefined {
  const r = locate(lines, start, doc);
  return lines.length && lines.every((l, k) => doc[r.start + k] === l) ? r : undefined;
}

/**
 * Where a comment's lines are in another text of its file (the side of a review diff): at
 * `start` when they are there, else at the match of its lines nearest to `start`, else at `start`.
 */
export function locate(lines: readonly string[], start: number, doc: readonly string[]): LineRange {
  const len = Math.max(1, lines.length);
  const at = (s: number): boolean => lines.length > 0 && lines.every((l, k) => doc[s + k] === l);
  if (at(start)) return { start, end: start + len - 1 };
  for (let d = 1; d < doc.length; d++) {
    if (start - d >= 0 && at(start - d)) return { start: start - d, end: start - d + len - 1 };
    if (start + d < doc.length && at(start + d)) return { start: start + d, end: start + d + len - 1 };
    if (start - d < 0 && start + d >= doc.length) break;
  }
  const s = Math.max(0, Math.min(start, doc.length - 1));
  return { start: s, end: Math.max(s, Math.min(s + len - 1, doc.length - 1)) };
}
