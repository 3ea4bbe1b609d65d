// The structure of a Markdown plan: its ATX headings and GFM task items (`- [ ]`, `- [x]`),
// nested as they appear (tasks under the nearest heading, indented tasks under their parent
// task). Everything else (prose, plain list items, fenced code) is not structure.

export interface MdHeading {
  readonly kind: 'heading';
  /** Position in document order among headings and tasks (stable id within one text). */
  readonly index: number;
  readonly level: number;
  readonly text: string;
  /** 0-based line number in the source text. */
  readonly line: number;
  readonly children: MdNode[];
}

export interface MdTask {
  readonly kind: 'task';
  readonly index: number;
  readonly checked: boolean;
  readonly text: string;
  readonly line: number;
  readonly indent: number;
  readonly children: MdTask[];
}

export type MdNode = MdHeading | MdTask;

export interface MarkdownOutline {
  /** Top-level nodes. */
  readonly roots: MdNode[];
  /** Every node in document order (`flat[n].index === n`). */
  readonly flat: MdNode[];
  readonly tasks: number;
  readonly checked: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const TASK = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+\[([ xX])\](?:[ \t]+(.*?))?[ \t]*$/;

export function parseMarkdownPlan(text: string): MarkdownOutline {
  const roots: MdNode[] = [];
  const flat: MdNode[] = [];
  const headings: MdHeading[] = [];
  let tasks: MdTask[] = [];
  let fence: { ch: string; len: number } | undefined;
  let taskCount = 0;
  let checkedCount = 0;

  const lines = text.split(/\r\n|\r|\n/);
  for (let line = 0; line < lines.length; line++) {
    const src = lines[line]!;
    const f = FENCE.exec(src);
    if (fence) {
      if (f && f[1]![0] === fence.ch && f[1]!.length >= fence.len && src.trim() === f[1]) fence = undefined;
      continue;
    }
    if (f) { fence = { ch: f[1]![0]!, len: f[1]!.length }; continue; }

    const h = HEADING.exec(src);
    if (h) {
      const level = h[1]!.length;
      while (headings.length && headings[headings.length - 1]!.level >= level) headings.pop();
      const node: MdHeading = { kind: 'heading', index: flat.length, level, text: (h[2] ?? '').trim(), line, children: [] };
      (headings.length ? headings[headings.length - 1]!.children : roots).push(node);
      headings.push(node);
      flat.push(node);
      tasks = [];
      continue;
    }

    const t = TASK.exec(src);
    if (t) {
      const indent = width(t[1]!);
      const checked = t[2] !== ' ';
      while (tasks.length && tasks[tasks.length - 1]!.indent >= indent) tasks.pop();
      const node: MdTask = { kind: 'task', index: flat.length, checked, text: (t[3] ?? '').trim(), line, indent, children: [] };
      if (tasks.length) tasks[tasks.length - 1]!.children.push(node);
      else (headings.length ? headings[headings.length - 1]!.children : roots).push(node);
      tasks.push(node);
      flat.push(node);
      taskCount++;
      if (checked) checkedCount++;
    }
  }
  return { roots, flat, tasks: taskCount, checked: checkedCount };
}

/** Tasks (done, total) in a node's subtree, the node included. */
export function taskProgress(node: MdNode): { done: number; total: number } {
  let done = 0;
  let total = 0;
  const walk = (n: MdNode): void => {
    if (n.kind === 'task') { total++; if (n.checked) done++; }
    for (const c of n.children) walk(c);
  };
  walk(node);
  return { done, total };
}

/** The tasks in document order. */
export function outlineTasks(o: MarkdownOutline): MdTask[] {
  return o.flat.filter((n): n is MdTask => n.kind === 'task');
}

function width(ws: string): number {
  let w = 0;
  for (const c of ws) w += c === '\t' ? 4 - (w % 4) : 1;
  return w;
}
