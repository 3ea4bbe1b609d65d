// Unified/git patches: parsing, applying hunks (both ways), and rebuilding a file's before/after
// texts from a patch and the file as it is now. Pure; no `vscode`.

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Body lines, each starting with ' ', '+' or '-'. */
  lines: string[];
  oldNoEol: boolean;
  newNoEol: boolean;
}

export interface FilePatch {
  oldPath: string | null;
  newPath: string | null;
  hunks: Hunk[];
  binary: boolean;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function stripPrefix(p: string): string | null {
  const path = p.split('\t')[0].trim();
  if (path === '/dev/null') return null;
  return path.replace(/^"(.*)"$/, '$1').replace(/^[ab]\//, '');
}

/** Where a parse is: the files so far, the file and hunk lines go to, and the last body line's op. */
interface PatchParse {
  files: FilePatch[];
  file: FilePatch | null;
  hunk: Hunk | null;
  lastOp: string;
}

export function parsePatch(text: string): FilePatch[] {
  const p: PatchParse = { files: [], file: null, hunk: null, lastOp: '' };
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const h = HUNK.exec(line);
    if (h) startHunk(p, h);
    else if (!hunkLine(p, line)) headerLine(p, line);
  }
  return p.files;
}

function newFile(p: PatchParse): FilePatch {
  const f: FilePatch = { oldPath: null, newPath: null, hunks: [], binary: false };
  p.files.push(f);
  p.hunk = null;
  return f;
}

function startHunk(p: PatchParse, h: RegExpExecArray): void {
  p.file ??= newFile(p);
  p.hunk = {
    oldStart: +h[1],
    oldLines: h[2] === undefined ? 1 : +h[2],
    newStart: +h[3],
    newLines: h[4] === undefined ? 1 : +h[4],
    lines: [],
    oldNoEol: false,
    newNoEol: false,
  };
  p.file.hunks.push(p.hunk);
}

/** A line of the current hunk's body, or its "\ No newline at end of file" marker: true when it was one. */
function hunkLine(p: PatchParse, line: string): boolean {
  const current = p.hunk;
  if (current && (line.startsWith(' ') || line.startsWith('+') || line.startsWith('-') || line === '') && !isHeader(line, current)) {
    current.lines.push(line === '' ? ' ' : line);
    p.lastOp = line[0] ?? ' ';
    return true;
  }
  if (current && line.startsWith('\\')) {
    if (p.lastOp === '-') current.oldNoEol = true;
    else if (p.lastOp === '+') current.newNoEol = true;
    else {
      current.oldNoEol = true;
      current.newNoEol = true;
    }
    return true;
  }
  return false;
}

/** A file header line (git's extended headers too): starts a file or names, marks its paths. */
function headerLine(p: PatchParse, line: string): void {
  const file = p.file;
  if (line.startsWith('diff --git ')) {
    const f = (p.file = newFile(p));
    const m = /^diff --git (?:"?a\/(.+?)"?) (?:"?b\/(.+?)"?)$/.exec(line);
    if (m) {
      f.oldPath = m[1];
      f.newPath = m[2];
    }
  } else if (line.startsWith('--- ')) {
    const f = !file || file.hunks.length > 0 ? (p.file = newFile(p)) : file;
    f.oldPath = stripPrefix(line.slice(4));
    p.hunk = null;
  } else if (line.startsWith('+++ ') && file) {
    file.newPath = stripPrefix(line.slice(4));
  } else if (file && line.startsWith('new file mode')) {
    file.oldPath = null;
  } else if (file && line.startsWith('deleted file mode')) {
    file.newPath = null;
  } else if (file && (line.startsWith('Binary files') || line === 'GIT binary patch')) {
    file.binary = true;
  } else if (file && line.startsWith('rename from ')) {
    file.oldPath = line.slice(12);
  } else if (file && line.startsWith('rename to ')) {
    file.newPath = line.slice(10);
  }
}

/** A hunk body ends once it has all its lines; what follows is the next header. */
function isHeader(line: string, h: Hunk): boolean {
  let oldSeen = 0;
  let newSeen = 0;
  for (const l of h.lines) {
    if (l[0] !== '+') oldSeen++;
    if (l[0] !== '-') newSeen++;
  }
  if (oldSeen >= h.oldLines && newSeen >= h.newLines) return true;
  return line.startsWith('--- ') && oldSeen >= h.oldLines;
}

interface Lines {
  lines: string[];
  eol: string;
  finalNewline: boolean;
}

function toLines(text: string): Lines {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const finalNewline = lines.length > 1 && lines[lines.length - 1] === '';
  if (finalNewline || text === '') lines.pop();
  return { lines, eol, finalNewline };
}

/** Applies the hunks forward (old → new) or in reverse (new → old); null when they do not fit. */
export function applyHunks(text: string, hunks: Hunk[], direction: 'forward' | 'reverse'): string | null {
  const src = toLines(text);
  const fwd = direction === 'forward';
  const out: string[] = [];
  let pos = 0;
  let finalNewline = src.finalNewline || text === '';
  for (const h of hunks) {
    const from = h.lines.filter((l) => l[0] !== (fwd ? '+' : '-')).map((l) => l.slice(1));
    const to = h.lines.filter((l) => l[0] !== (fwd ? '-' : '+')).map((l) => l.slice(1));
    const start = fwd ? h.oldStart : h.newStart;
    const expected = Math.max(pos, from.length === 0 ? start : start - 1);
    const at = findBlock(src.lines, from, expected, pos);
    if (at < 0) return null;
    out.push(...src.lines.slice(pos, at), ...to);
    pos = at + from.length;
    const toNoEol = fwd ? h.newNoEol : h.oldNoEol;
    const fromNoEol = fwd ? h.oldNoEol : h.newNoEol;
    if (pos === src.lines.length) {
      if (toNoEol) finalNewline = false;
      else if (fromNoEol || to.length > 0) finalNewline = true;
    }
  }
  out.push(...src.lines.slice(pos));
  if (out.length === 0) return '';
  return out.join(src.eol) + (finalNewline ? src.eol : '');
}

function findBlock(lines: string[], block: string[], expected: number, min: number): number {
  const fits = (at: number): boolean => {
    if (at < min || at + block.length > lines.length) return false;
    for (let i = 0; i < block.length; i++) if (lines[at + i] !== block[i]) return false;
    return true;
  };
  if (fits(expected)) return expected;
  if (block.length === 0) return Math.min(Math.max(expected, min), lines.length);
  for (let d = 1; d < lines.length; d++) {
    if (fits(expected - d)) return expected - d;
    if (fits(expected + d)) return expected + d;
  }
  return -1;
}

/**
 * The before/after texts of one file of a patch. `current` is the file as it is now (undefined
 * when missing): the patch may already be applied (current = after) or not yet (current = before).
 * Null when neither fits.
 */
export function reconstruct(file: FilePatch, current: string | undefined): { before: string; after: string } | null {
  if (file.binary) return null;
  if (current !== undefined) {
    const before = applyHunks(current, file.hunks, 'reverse');
    if (before !== null) return { before, after: current };
    const after = applyHunks(current, file.hunks, 'forward');
    if (after !== null) return { before: current, after };
  }
  if (file.oldPath === null) {
    const after = applyHunks('', file.hunks, 'forward');
    if (after !== null) return { before: '', after };
  }
  if (file.newPath === null) {
    const before = applyHunks('', file.hunks, 'reverse');
    if (before !== null) return { before, after: '' };
  }
  return null;
}

export function patchStats(file: FilePatch): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of file.hunks)
    for (const l of h.lines) {
      if (l[0] === '+') added++;
      else if (l[0] === '-') removed++;
    }
  return { added, removed };
}

/** Finds the patch of `path` (paths in patches are usually relative; `path` may be absolute). */
export function findFilePatch(files: FilePatch[], path: string): FilePatch | undefined {
  const norm = path.replace(/\\/g, '/');
  const matches = (p: string | null): boolean => !!p && (norm === p || norm.endsWith('/' + p));
  return files.find((f) => matches(f.newPath) || matches(f.oldPath));
}
