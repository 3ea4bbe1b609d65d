// A small line diff (LCS) rendered as a git patch, for the v2 diff `patch` text.

const CONTEXT = 3;
/** Above this many line pairs the LCS table gets too big: the patch replaces the file whole. */
const MAX_CELLS = 4_000_000;

type Op = { tag: ' ' | '-' | '+'; line: string; oldNo: number; newNo: number };

function splitLines(text: string): { lines: string[]; finalNewline: boolean } {
  if (text === '') return { lines: [], finalNewline: true };
  const finalNewline = text.endsWith('\n');
  const lines = (finalNewline ? text.slice(0, -1) : text).split('\n');
  return { lines, finalNewline };
}

function diffOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) {
    return [...a.map((line, i): Op => ({ tag: '-', line, oldNo: i, newNo: 0 })), ...b.map((line, j): Op => ({ tag: '+', line, oldNo: n, newNo: j }))];
  }
  // lcs[i][j] = length of the LCS of a[i..] and b[j..]
  const lcs: Uint32Array[] = [];
  for (let i = 0; i <= n; i++) lcs.push(new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ tag: ' ', line: a[i], oldNo: i++, newNo: j++ });
    // On a tie, deletions go first, as git prints them.
    else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push({ tag: '-', line: a[i], oldNo: i++, newNo: j });
    else ops.push({ tag: '+', line: b[j], oldNo: i, newNo: j++ });
  }
  return ops;
}

function hunkRange(start: number, count: number): string {
  // Unified diff: an empty range names the line before it.
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}

function hunks(ops: Op[], oldFinalNewline: boolean, newFinalNewline: boolean, oldCount: number, newCount: number): string[] {
  const changed = ops.map((op, k) => (op.tag !== ' ' ? k : -1)).filter((k) => k >= 0);
  const out: string[] = [];
  let g = 0;
  while (g < changed.length) {
    let from = Math.max(0, changed[g] - CONTEXT);
    let to = Math.min(ops.length, changed[g] + CONTEXT + 1);
    while (g + 1 < changed.length && changed[g + 1] - CONTEXT <= to) {
      g++;
      to = Math.min(ops.length, changed[g] + CONTEXT + 1);
    }
    g++;
    from = Math.max(0, from);
    const slice = ops.slice(from, to);
    const oldStart = slice[0].oldNo;
    const newStart = slice[0].newNo;
    const oldLen = slice.filter((o) => o.tag !== '+').length;
    const newLen = slice.filter((o) => o.tag !== '-').length;
    out.push(`@@ -${hunkRange(oldStart, oldLen)} +${hunkRange(newStart, newLen)} @@`);
    for (const op of slice) {
      out.push(`${op.tag}${op.line}`);
      const lastOld = op.tag !== '+' && op.oldNo === oldCount - 1 && !oldFinalNewline;
      const lastNew = op.tag !== '-' && op.newNo === newCount - 1 && !newFinalNewline;
      if (lastOld || lastNew) out.push('\\ No newline at end of file');
    }
  }
  return out;
}

/** A git patch turning `oldText` (null: the file is new) into `newText`, for `path` (relative). */
export function gitPatch(path: string, oldText: string | null, newText: string): string {
  const before = splitLines(oldText ?? '');
  const after = splitLines(newText);
  const header = [`diff --git a/${path} b/${path}`];
  if (oldText === null) header.push('new file mode 100644', '--- /dev/null');
  else header.push(`--- a/${path}`);
  header.push(`+++ b/${path}`);
  const ops = diffOps(before.lines, after.lines);
  const body = hunks(ops, before.finalNewline, after.finalNewline, before.lines.length, after.lines.length);
  return `${[...header, ...body].join('\n')}\n`;
}
