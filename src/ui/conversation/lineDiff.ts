// Line diff (Myers, O((N+M)·D)) for the compact rendering of v1 diffs. The common prefix and
// suffix are trimmed first; past `maxEdits` the middle is reported as replaced whole.
//
// Kept hand-written rather than jsdiff (`diff`), measured with esbuild --minify: this whole file
// is 2.2 KB, jsdiff's `diffArrays` alone adds 8.5 KB (v7, the version already in the lockfile
// through mocha; its ES5 build does not tree-shake) or 3.4 KB (v8), while dist/extension.js is
// already at its 400 KiB budget (406 KiB when this was measured). jsdiff brings nothing this preview needs: it runs
// once per diff on whole texts (no streaming), and the edit bound is the same idea as its
// `maxEditLength`. Also see docs/ARCHITECTURE.md, "Libraries and hand-written code".

export type DiffLine = { op: ' ' | '+' | '-'; text: string };

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function diffLines(a: string[], b: string[], maxEdits = 400): DiffLine[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const middle = myers(am, bm, maxEdits) ?? [...am.map((text): DiffLine => ({ op: '-', text })), ...bm.map((text): DiffLine => ({ op: '+', text }))];
  return [...a.slice(0, pre).map((text): DiffLine => ({ op: ' ', text })), ...middle, ...a.slice(a.length - suf).map((text): DiffLine => ({ op: ' ', text }))];
}

function myers(a: string[], b: string[], maxD: number): DiffLine[] | null {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((text) => ({ op: '+', text }));
  if (m === 0) return a.map((text) => ({ op: '-', text }));
  const max = Math.min(n + m, maxD);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace);
    }
  }
  return null;
}

function backtrack(a: string[], b: string[], trace: Int32Array[]): DiffLine[] {
  const out: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d];
    const at = (k: number): number => v[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ op: ' ', text: a[x - 1] });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) out.push({ op: '+', text: b[y - 1] });
      else out.push({ op: '-', text: a[x - 1] });
    }
    x = prevX;
    y = prevY;
  }
  return out.reverse();
}

/**
 * A compact unified rendering: changed lines with `context` lines around them, `@@` between
 * distant hunks, at most `maxLines` lines. Returns the lines and how many were left out.
 */
export function compactHunks(lines: DiffLine[], context = 2, maxLines = 40): { preview: string[]; more: number } {
  const keep = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    if (l.op === ' ') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = 1;
  });
  const all: string[] = [];
  let gap = false;
  lines.forEach((l, i) => {
    if (!keep[i]) {
      gap = true;
      return;
    }
    if (gap && all.length > 0) all.push('@@');
    gap = false;
    all.push(l.op + l.text);
  });
  return all.length > maxLines ? { preview: all.slice(0, maxLines), more: all.length - maxLines } : { preview: all, more: 0 };
}

export function countChanges(lines: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.op === '+') added++;
    else if (l.op === '-') removed++;
  }
  return { added, removed };
}
