// Texts of a file change from a unified/git patch, for the work index and its review: the part of a
// (multi-file) patch that concerns one file (patchSection.ts), applying it forward or backward to a
// text (hunks may sit at shifted lines, as `patch` allows, but must match exactly), and, when no
// full text is known, the hunks' own two sides with markers where lines are left out. Pure: no
// node, no vscode.
//
// Line ends: a file's lines keep their own ends; a line the patch brings gets the end the patch
// shows for it (a `\r` before the newline) when the patch shows any, else the file's usual end.
// A patch sent whole with CRLF line ends (its headers end in `\r` too) is read without them.
export { keptPatches, MAX_PATCH_CHARS, patchSection } from './patchSection';

/** Line comparisons one apply may make while it looks for shifted hunks; over it the patch does not apply. */
export const MAX_APPLY_COMPARISONS = 20_000_000;
/** What the review shows on both sides of a binary file's change. */
export const BINARY_NOTE = '(Binary file: the patch carries no text of it.)';

interface PatchLine {
  readonly op: ' ' | '-' | '+';
  readonly text: string;
  /** The patch shows this line with a `\r` before its newline. */
  readonly cr: boolean;
  /** "\ No newline at end of file" follows it: it ends its side(s) without a newline. */
  noEol: boolean;
}

interface Hunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: PatchLine[];
}

export interface ParsedSection {
  readonly hunks: readonly Hunk[];
  readonly binary: boolean;
  /** The file is new (`--- /dev/null`, `new file mode`). */
  readonly added: boolean;
  /** The file is gone (`+++ /dev/null`, `deleted file mode`). */
  readonly deleted: boolean;
  /** Every hunk has the lines its header counts. */
  readonly complete: boolean;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

// ------------------------------------------------------------------ parsing a section

export function parseSection(section: string): ParsedSection {
  const rawLines = section.split('\n');
  if (rawLines[rawLines.length - 1] === '') rawLines.pop();
  const crlfPatch = rawLines.some((l) => HUNK.test(l) && l.endsWith('\r'));
  const hunks: Hunk[] = [];
  let binary = false;
  let added = false;
  let deleted = false;
  let complete = true;
  let hunk: Hunk | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  let last: PatchLine | undefined;
  for (let raw of rawLines) {
    if (crlfPatch && raw.endsWith('\r')) raw = raw.slice(0, -1);
    if (hunk && raw.startsWith('\\')) {
      if (last) last.noEol = true;
      continue;
    }
    if (hunk && (oldLeft > 0 || newLeft > 0)) {
      const op = raw[0] ?? ' ';
      if (op === ' ' || op === '-' || op === '+') {
        const body = raw.slice(1);
        const cr = body.endsWith('\r');
        last = { op, text: cr ? body.slice(0, -1) : body, cr, noEol: false };
        hunk.lines.push(last);
        if (op !== '+') oldLeft--;
        if (op !== '-') newLeft--;
        continue;
      }
      complete = false;
      oldLeft = newLeft = 0;
    }
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const h = HUNK.exec(line);
    if (h) {
      if (oldLeft > 0 || newLeft > 0) complete = false;
      hunk = { oldStart: +h[1]!, oldLines: h[2] === undefined ? 1 : +h[2], newStart: +h[3]!, newLines: h[4] === undefined ? 1 : +h[4], lines: [] };
      hunks.push(hunk);
      oldLeft = hunk.oldLines;
      newLeft = hunk.newLines;
      last = undefined;
      continue;
    }
    last = undefined;
    if (line === '--- /dev/null' || line.startsWith('--- /dev/null\t') || line.startsWith('new file mode')) added = true;
    else if (line === '+++ /dev/null' || line.startsWith('+++ /dev/null\t') || line.startsWith('deleted file mode')) deleted = true;
    else if (line === 'GIT binary patch' || /^Binary files .* differ$/.test(line)) binary = true;
  }
  if (oldLeft > 0 || newLeft > 0) complete = false;
  return { hunks, binary, added, deleted, complete };
}

// ------------------------------------------------------------------ applying

interface FileLines {
  text: string[];
  /** Each line's end: '\n', '\r\n', or '' (the last line, without a newline). */
  eol: string[];
}

function fileLines(s: string): FileLines {
  const text: string[] = [];
  const eol: string[] = [];
  for (let at = 0; at < s.length;) {
    const nl = s.indexOf('\n', at);
    if (nl < 0) {
      text.push(s.slice(at));
      eol.push('');
      break;
    }
    const cr = nl > at && s[nl - 1] === '\r';
    text.push(s.slice(at, cr ? nl - 1 : nl));
    eol.push(cr ? '\r\n' : '\n');
    at = nl + 1;
  }
  return { text, eol };
}

/** The text after the change, when the section's hunks apply exactly to `before`; undefined otherwise. */
export function forwardApply(before: string, section: string): string | undefined {
  return apply(before, parseSection(section), true);
}

/** The text before the change, when the section's hunks apply exactly (backward) to `after`; undefined otherwise. */
export function reverseApply(after: string, section: string): string | undefined {
  return apply(after, parseSection(section), false);
}

function apply(source: string, p: ParsedSection, forward: boolean): string | undefined {
  if (p.binary || !p.complete) return undefined;
  // A new file's patch applies only to no text, and backward leaves none; a deleted file's likewise.
  if ((forward ? p.added : p.deleted) && source !== '') return undefined;
  const src = fileLines(source);
  const crlf = src.eol.filter((e) => e === '\r\n').length * 2 > src.eol.length;
  const patchShowsCr = p.hunks.some((h) => h.lines.some((l) => l.cr));
  const usual = crlf ? '\r\n' : '\n';
  const out: FileLines = { text: [], eol: [] };
  const budget = { left: MAX_APPLY_COMPARISONS };
  let pos = 0;
  let offset = 0;
  for (const h of p.hunks) {
    const from = h.lines.filter((l) => l.op !== (forward ? '+' : '-'));
    const to = h.lines.filter((l) => l.op !== (forward ? '-' : '+'));
    const start = forward ? h.oldStart : h.newStart;
    const declared = from.length === 0 ? start : start - 1;
    const at = find(src, from, Math.max(pos, declared + offset), pos, budget);
    if (at < 0) return undefined;
    offset = at - declared;
    copy(src, pos, at, out);
    for (const l of to) {
      out.text.push(l.text);
      out.eol.push(l.noEol ? '' : patchShowsCr ? (l.cr ? '\r\n' : '\n') : usual);
    }
    pos = at + from.length;
  }
  copy(src, pos, src.text.length, out);
  let s = '';
  for (let i = 0; i < out.text.length; i++) {
    const end = out.eol[i]!;
    // A line the change left inside the file, or a last line the patch says has its newline.
    s += out.text[i]! + (end === '' && i < out.text.length - 1 ? usual : end);
  }
  return (forward ? p.deleted : p.added) && s !== '' ? undefined : s;
}

function copy(src: FileLines, from: number, to: number, out: FileLines): void {
  for (let i = from; i < to; i++) {
    out.text.push(src.text[i]!);
    out.eol.push(src.eol[i]!);
  }
}

/** Where the block matches exactly, nearest `expected` first, not before `min`; -1 when nowhere. */
function find(src: FileLines, block: PatchLine[], expected: number, min: number, budget: { left: number }): number {
  const n = src.text.length;
  const fits = (at: number): boolean => {
    if (at < min || at + block.length > n) return false;
    for (let i = 0; i < block.length; i++) {
      if (--budget.left < 0) return false;
      const l = block[i]!;
      if (src.text[at + i] !== l.text) return false;
      // A line the patch says ends the file without a newline must be just that, and no other may.
      if ((src.eol[at + i] === '') !== l.noEol) return false;
    }
    return true;
  };
  if (block.length === 0) return expected <= n ? expected : -1;
  if (fits(expected)) return expected;
  for (let d = 1; expected - d >= min || expected + d + block.length <= n; d++) {
    if (budget.left < 0) return -1;
    if (fits(expected - d)) return expected - d;
    if (fits(expected + d)) return expected + d;
  }
  return -1;
}

// ------------------------------------------------------------------ partial texts

/**
 * Each hunk's old side and new side (context included) when no full text is known. Lines the
 * patch leaves out are shown as one marker line, `⋯ (lines N–M not in the patch) ⋯`, so a
 * person sees the texts are partial.
 */
export function hunkTexts(section: string): { before: string; after: string } {
  const p = parseSection(section);
  return { before: side(p, true), after: side(p, false) };
}

function side(p: ParsedSection, old: boolean): string {
  const out: string[] = [];
  let next = 1; // the first line of this side not shown yet
  let ended = false;
  for (const h of p.hunks) {
    const count = old ? h.oldLines : h.newLines;
    const start = count === 0 ? (old ? h.oldStart : h.newStart) + 1 : old ? h.oldStart : h.newStart;
    if (start > next) out.push(gap(next, start - 1));
    for (const l of h.lines) {
      if (l.op === (old ? '+' : '-')) continue;
      out.push(l.text);
      if (l.noEol) ended = true;
    }
    next = Math.max(next, start + count);
  }
  // A new or deleted file's hunk holds the whole file.
  if (!ended && !p.added && !p.deleted && p.hunks.length) out.push(`⋯ (lines from ${next} on, if any, not in the patch) ⋯`);
  return out.length ? `${out.join('\n')}\n` : '';
}

function gap(from: number, to: number): string {
  return from === to ? `⋯ (line ${from} not in the patch) ⋯` : `⋯ (lines ${from}–${to} not in the patch) ⋯`;
}

// ------------------------------------------------------------------ the review

export interface ReviewTexts {
  /** null: the file did not exist. */
  readonly before: string | null;
  readonly after: string | null;
  /** Only the hunks' own lines (markers stand for the rest). */
  readonly partial: boolean;
  /** The change is to a binary file: both sides are BINARY_NOTE. */
  readonly binary?: true;
}

/**
 * The before and after texts of a change for the review: its full texts when known; else from its
 * patch section(s) (several: the step's changes of one file, in order). The after text is the one
 * known, or `live` (the file now) when the patches apply backward to it, which gives the before
 * text; a new file's or a deleted file's text comes from the patch alone; else the hunks' sides
 * (partial). Undefined when there is neither a full text nor a patch.
 */
export function reviewTexts(
  change: { readonly before: string | null | undefined; readonly after: string | null | undefined; readonly patch?: string | readonly string[] },
  live: string | null | undefined,
): ReviewTexts | undefined {
  const { before, after } = change;
  if (before !== undefined && after !== undefined) return { before, after, partial: false };
  const sections = (typeof change.patch === 'string' ? [change.patch] : (change.patch ?? [])).filter((s) => s.length > 0);
  if (!sections.length) return undefined;
  const parsed = sections.map(parseSection);
  if (parsed.some((p) => p.binary)) return { before: BINARY_NOTE, after: BINARY_NOTE, partial: true, binary: true };
  const firstAdds = parsed[0]!.added;
  const lastDeletes = parsed[parsed.length - 1]!.deleted;
  const backward = (from: string | null): string | null | undefined => {
    let s: string | undefined = from ?? '';
    for (let i = parsed.length - 1; i >= 0 && s !== undefined; i--) s = apply(s, parsed[i]!, false);
    return s === undefined ? undefined : firstAdds && s === '' ? null : s;
  };
  const forward = (from: string | null): string | null | undefined => {
    let s: string | undefined = from ?? '';
    for (let i = 0; i < parsed.length && s !== undefined; i++) s = apply(s, parsed[i]!, true);
    return s === undefined ? undefined : lastDeletes && s === '' ? null : s;
  };
  if (after !== undefined) {
    const b = backward(after);
    if (b !== undefined) return { before: b, after, partial: false };
  } else if (before !== undefined) {
    const a = forward(before);
    if (a !== undefined) return { before, after: a, partial: false };
  } else {
    const nowAfter = lastDeletes ? null : live;
    if (nowAfter !== undefined && (nowAfter !== null || lastDeletes)) {
      const b = backward(nowAfter);
      if (b !== undefined) return { before: b, after: nowAfter, partial: false };
    }
    if (firstAdds) {
      const a = forward(null);
      if (a !== undefined) return { before: null, after: a, partial: false };
    }
    if (typeof live === 'string' && !firstAdds) {
      // The file holds the text from before the change (not applied yet, or put back since).
      const a = forward(live);
      if (a !== undefined) return { before: live, after: a, partial: false };
    }
  }
  const parts = sections.map(hunkTexts);
  const join = (k: 'before' | 'after'): string => parts.map((p) => p[k]).join('⋯ (the next change of this file) ⋯\n');
  return { before: before ?? join('before'), after: after ?? join('after'), partial: true };
}
