// The scanner of Markdown plan outlines (the header of markdownOutline.ts says how and why): loaded
// the first time a Markdown plan is read (dist/markdown-outline.js in the extension bundle; see
// src/common/lazy.ts). No `vscode`.
import type { MarkdownOutline, MdHeading, MdNode, MdProgress, MdTask, OutlineLimits } from './markdownOutline';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Progress = Mutable<MdProgress>;
type Heading = Omit<MdHeading, 'progress'> & { progress: Progress };
type Task = Omit<MdTask, 'progress' | 'children'> & { progress: Progress; children: Task[] };

const TAB = 9,
  LF = 10,
  CR = 13,
  SPACE = 32,
  HASH = 35,
  BACKTICK = 96,
  TILDE = 126;
const LBRACKET = 91,
  RBRACKET = 93,
  X_LOWER = 120,
  X_UPPER = 88;

const isBlank = (c: number): boolean => c === SPACE || c === TAB;
/** Children of an omitted heading: never added to. */
const NO_CHILDREN: MdNode[] = [];

export function parseMarkdownOutline(text: string, limits: OutlineLimits): MarkdownOutline {
  const p = new OutlineScanner(text, limits);
  p.run();
  return p.result();
}

class OutlineScanner {
  private readonly roots: MdNode[] = [];
  private readonly flat: MdNode[] = [];
  private readonly headings: Heading[] = [];
  private readonly taskStack: Task[] = [];
  private fence: { ch: number; len: number } | undefined;
  private tasks = 0;
  private checked = 0;
  private omitted = 0;
  private firstOpen: { taskIndex: number; text: string } | undefined;
  private firstChecked = false;

  constructor(
    private readonly src: string,
    private readonly limits: OutlineLimits,
  ) {}

  run(): void {
    const s = this.src;
    const n = s.length;
    // Line ends by the engine's own search (no per-character loop here); the next CR is kept until
    // passed, so the whole scan stays linear however CRs and LFs mix.
    let nextLf = s.indexOf('\n');
    let nextCr = s.indexOf('\r');
    let pos = 0;
    for (let line = 0; ; line++) {
      if (nextLf !== -1 && nextLf < pos) nextLf = s.indexOf('\n', pos);
      if (nextCr !== -1 && nextCr < pos) nextCr = s.indexOf('\r', pos);
      const end = nextLf === -1 ? (nextCr === -1 ? n : nextCr) : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      this.line(pos, end, line);
      if (end >= n) return;
      pos = end + (s.charCodeAt(end) === CR && s.charCodeAt(end + 1) === LF ? 2 : 1);
    }
  }

  result(): MarkdownOutline {
    return {
      roots: this.roots,
      flat: this.flat,
      tasks: this.tasks,
      checked: this.checked,
      ...(this.firstOpen ? { firstOpen: this.firstOpen } : {}),
      firstChecked: this.firstChecked,
      omitted: this.omitted,
    };
  }

  private line(start: number, end: number, line: number): void {
    const s = this.src;
    // Leading blanks: how many plain spaces come first, and the tab-expanded width of them all.
    let i = start;
    let spaces = 0;
    while (i < end && s.charCodeAt(i) === SPACE) {
      i++;
      spaces++;
    }
    let width = spaces;
    let j = i;
    while (j < end && isBlank(s.charCodeAt(j))) {
      width = s.charCodeAt(j) === TAB ? width + 4 - (width % 4) : width + 1;
      j++;
    }
    const onlySpaces = j === i;

    const fenceRun = onlySpaces && spaces <= 3 ? this.run3(i, end) : undefined;
    if (this.fence) {
      if (fenceRun && fenceRun.ch === this.fence.ch && fenceRun.len >= this.fence.len && this.blankFrom(i + fenceRun.len, end)) this.fence = undefined;
      return;
    }
    if (fenceRun) {
      this.fence = fenceRun;
      return;
    }
    if (onlySpaces && spaces <= 3 && s.charCodeAt(i) === HASH && this.heading(i, end, line)) return;
    this.task(j, end, line, width);
  }

  /** A run of three or more backticks or tildes at `i`. */
  private run3(i: number, end: number): { ch: number; len: number } | undefined {
    const ch = this.src.charCodeAt(i);
    if (ch !== BACKTICK && ch !== TILDE) return undefined;
    let k = i;
    while (k < end && this.src.charCodeAt(k) === ch) k++;
    return k - i >= 3 ? { ch, len: k - i } : undefined;
  }

  private blankFrom(i: number, end: number): boolean {
    for (let k = i; k < end; k++) if (!isBlank(this.src.charCodeAt(k))) return false;
    return true;
  }

  private heading(i: number, end: number, line: number): boolean {
    const s = this.src;
    let k = i;
    while (k < end && k - i < 7 && s.charCodeAt(k) === HASH) k++;
    const level = k - i;
    if (level > 6 || (k < end && !isBlank(s.charCodeAt(k)))) return false;
    // Content: trimmed; a closing run of `#` goes when blanks precede it (or it is all there is).
    let a = k;
    while (a < end && isBlank(s.charCodeAt(a))) a++;
    let b = end;
    while (b > a && isBlank(s.charCodeAt(b - 1))) b--;
    let h = b;
    while (h > a && s.charCodeAt(h - 1) === HASH) h--;
    if (h < b && (h === a || isBlank(s.charCodeAt(h - 1)))) {
      b = h;
      while (b > a && isBlank(s.charCodeAt(b - 1))) b--;
    }
    const hs = this.headings;
    while (hs.length && hs[hs.length - 1]!.level >= level) hs.pop();
    this.taskStack.length = 0;
    if (this.flat.length >= this.limits.maxNodes) {
      // Not in the tree, but on the stack (so that its tasks do not count under the heading
      // before it), without text or children.
      this.omitted++;
      hs.push({ kind: 'heading', index: -1, level, text: '', line, children: NO_CHILDREN, progress: { done: 0, total: 0 } });
      return true;
    }
    const node: Heading = { kind: 'heading', index: this.flat.length, level, text: this.text(a, b), line, children: [], progress: { done: 0, total: 0 } };
    (hs.length ? hs[hs.length - 1]!.children : this.roots).push(node as MdHeading);
    hs.push(node);
    this.flat.push(node as MdHeading);
    return true;
  }

  private task(i: number, end: number, line: number, indent: number): void {
    const s = this.src;
    let k = i;
    const c = s.charCodeAt(k);
    if (c === 45 /* - */ || c === 42 /* * */ || c === 43 /* + */) k++;
    else {
      while (k < end && k - i < 10 && isDigit(s.charCodeAt(k))) k++;
      const digits = k - i;
      if (digits < 1 || digits > 9) return;
      const d = s.charCodeAt(k);
      if (d !== 46 /* . */ && d !== 41 /* ) */) return;
      k++;
    }
    if (k >= end || !isBlank(s.charCodeAt(k))) return;
    while (k < end && isBlank(s.charCodeAt(k))) k++;
    if (k + 3 > end || s.charCodeAt(k) !== LBRACKET || s.charCodeAt(k + 2) !== RBRACKET) return;
    const mark = s.charCodeAt(k + 1);
    if (mark !== SPACE && mark !== X_LOWER && mark !== X_UPPER) return;
    k += 3;
    if (k < end && !isBlank(s.charCodeAt(k))) return;
    let b = end;
    while (b > k && isBlank(s.charCodeAt(b - 1))) b--;
    while (k < b && isBlank(s.charCodeAt(k))) k++;
    this.addTask(mark !== SPACE, k, b, line, indent);
  }

  private addTask(checked: boolean, a: number, b: number, line: number, indent: number): void {
    const taskIndex = this.tasks++;
    if (checked) this.checked++;
    if (taskIndex === 0) this.firstChecked = checked;
    if (!checked && !this.firstOpen) this.firstOpen = { taskIndex, text: this.text(a, b) };
    const stack = this.taskStack;
    while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
    if (stack.length >= this.limits.maxTaskDepth) stack.pop();
    // Progress counts every task, kept or not, in its kept ancestors (at most 6 + maxTaskDepth).
    const hs = this.headings;
    for (let h = 0; h < hs.length; h++) count(hs[h]!.progress, checked);
    for (let t = 0; t < stack.length; t++) count(stack[t]!.progress, checked);
    if (this.flat.length >= this.limits.maxNodes) {
      this.omitted++;
      return;
    }
    const node: Task = { kind: 'task', index: this.flat.length, checked, text: this.text(a, b), line, indent, children: [], progress: { done: 0, total: 0 } };
    count(node.progress, checked);
    if (stack.length) stack[stack.length - 1]!.children.push(node);
    else (hs.length ? hs[hs.length - 1]!.children : this.roots).push(node as MdTask);
    stack.push(node);
    this.flat.push(node as MdTask);
  }

  private text(a: number, b: number): string {
    const max = this.limits.maxTextLength;
    return b - a <= max ? this.src.slice(a, b) : this.src.slice(a, a + Math.max(0, max - 1)) + '…';
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function count(p: Progress, checked: boolean): void {
  p.total++;
  if (checked) p.done++;
}
