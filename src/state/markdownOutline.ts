// The outline of a Markdown plan: its ATX headings and GFM task items (`- [ ]`, `- [x]`), nested
// as they appear (tasks under the nearest heading, indented tasks under their parent task).
// Everything else (prose, plain list items, fenced code) is not structure.
//
// Markdown here is untrusted (an agent's plan, a file in the workspace), so the scan is one pass
// over the characters with no regular expression and no backtracking: each line is looked at a
// constant number of times, whatever it holds (a 156 KB line of `#`, spaces or `[`, a million
// nested list markers). The result is bounded too:
//   - at most `maxNodes` nodes are kept (later headings and tasks are counted in `omitted`;
//     `tasks`, `checked` and `firstOpen` still count every task of the text);
//   - tasks nest at most `maxTaskDepth` deep (deeper ones become siblings of the deepest);
//   - a node's text is cut to `maxTextLength` characters (an ellipsis marks the cut).
// Each node carries the task progress of its subtree, computed during the same pass.
//
// markdown-it (used by the conversation webview) was measured as the tokenizer for this: it adds
// about 98 KiB to the minified extension bundle, which would take it past its 400 KB budget, so
// this hand-written scanner stays.

export interface MdProgress { readonly done: number; readonly total: number }

export interface MdHeading {
  readonly kind: 'heading';
  /** Position in document order among kept headings and tasks (stable id within one text). */
  readonly index: number;
  readonly level: number;
  readonly text: string;
  /** 0-based line number in the source text. */
  readonly line: number;
  readonly children: MdNode[];
  /** Tasks in the subtree (every task of the text under this heading, kept or not). */
  readonly progress: MdProgress;
}

export interface MdTask {
  readonly kind: 'task';
  readonly index: number;
  readonly checked: boolean;
  readonly text: string;
  readonly line: number;
  readonly indent: number;
  readonly children: MdTask[];
  /** Tasks in the subtree, this one included. */
  readonly progress: MdProgress;
}

export type MdNode = MdHeading | MdTask;

export interface MarkdownOutline {
  /** Top-level nodes. */
  readonly roots: MdNode[];
  /** Every kept node in document order (`flat[n].index === n`). */
  readonly flat: MdNode[];
  /** Every task of the text (kept or not). */
  readonly tasks: number;
  readonly checked: number;
  /** The first unchecked task: its position among all tasks, and its text. */
  readonly firstOpen?: { readonly taskIndex: number; readonly text: string };
  /** Whether the first task is checked (the order statuses first appear in). */
  readonly firstChecked: boolean;
  /** Headings and tasks not kept because of `maxNodes`. */
  readonly omitted: number;
}

export interface OutlineLimits {
  readonly maxNodes: number;
  readonly maxTaskDepth: number;
  readonly maxTextLength: number;
}

export const DEFAULT_OUTLINE_LIMITS: OutlineLimits = { maxNodes: 5000, maxTaskDepth: 16, maxTextLength: 500 };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Progress = Mutable<MdProgress>;
type Heading = Omit<MdHeading, 'progress'> & { progress: Progress };
type Task = Omit<MdTask, 'progress' | 'children'> & { progress: Progress; children: Task[] };

const TAB = 9, LF = 10, CR = 13, SPACE = 32, HASH = 35, BACKTICK = 96, TILDE = 126;
const LBRACKET = 91, RBRACKET = 93, X_LOWER = 120, X_UPPER = 88;

const isBlank = (c: number): boolean => c === SPACE || c === TAB;
/** Children of an omitted heading: never added to. */
const NO_CHILDREN: MdNode[] = [];

export function parseMarkdownOutline(text: string, limits: OutlineLimits = DEFAULT_OUTLINE_LIMITS): MarkdownOutline {
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

  constructor(private readonly src: string, private readonly limits: OutlineLimits) {}

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
      roots: this.roots, flat: this.flat, tasks: this.tasks, checked: this.checked,
      ...(this.firstOpen ? { firstOpen: this.firstOpen } : {}), firstChecked: this.firstChecked, omitted: this.omitted,
    };
  }

  private line(start: number, end: number, line: number): void {
    const s = this.src;
    // Leading blanks: how many plain spaces come first, and the tab-expanded width of them all.
    let i = start;
    let spaces = 0;
    while (i < end && s.charCodeAt(i) === SPACE) { i++; spaces++; }
    let width = spaces;
    let j = i;
    while (j < end && isBlank(s.charCodeAt(j))) { width = s.charCodeAt(j) === TAB ? width + 4 - (width % 4) : width + 1; j++; }
    const onlySpaces = j === i;

    const fenceRun = onlySpaces && spaces <= 3 ? this.run3(i, end) : undefined;
    if (this.fence) {
      if (fenceRun && fenceRun.ch === this.fence.ch && fenceRun.len >= this.fence.len && this.blankFrom(i + fenceRun.len, end)) this.fence = undefined;
      return;
    }
    if (fenceRun) { this.fence = fenceRun; return; }
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
    if (this.flat.length >= this.limits.maxNodes) { this.omitted++; return; }
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

function isDigit(c: number): boolean { return c >= 48 && c <= 57; }

function count(p: Progress, checked: boolean): void {
  p.total++;
  if (checked) p.done++;
}

/** Tasks (done, total) in a node's subtree, the node included (computed while parsing). */
export function taskProgress(node: MdNode): MdProgress {
  return { done: node.progress.done, total: node.progress.total };
}

/** The kept tasks in document order. */
export function outlineTasks(o: MarkdownOutline): MdTask[] {
  return o.flat.filter((n): n is MdTask => n.kind === 'task');
}

/** The parent of the kept node with this index (undefined for a root), walking down from the roots. */
export function outlineParent(o: MarkdownOutline, index: number): MdNode | undefined {
  const target = o.flat[index];
  if (!target) return undefined;
  // Nodes are in document order: the parent is the last node before `index` whose children hold it.
  let level: readonly MdNode[] = o.roots;
  let parent: MdNode | undefined;
  for (;;) {
    if (level.includes(target)) return parent;
    let next: MdNode | undefined;
    for (const n of level) { if (n.index < index) next = n; else break; }
    if (!next) return undefined;
    parent = next;
    level = next.children;
  }
}
