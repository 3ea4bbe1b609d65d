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

import { lazyModule } from '../common/lazy';
import type * as Parser from './markdownParser';

export interface MdProgress {
  readonly done: number;
  readonly total: number;
}

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

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously
const scanner = lazyModule('markdown-outline.js', () => require('./markdownParser') as typeof Parser);

/** The outline of a Markdown text (the scanner is loaded on first use). */
export function parseMarkdownOutline(text: string, limits: OutlineLimits = DEFAULT_OUTLINE_LIMITS): MarkdownOutline {
  return scanner().parseMarkdownOutline(text, limits);
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
    for (const n of level) {
      if (n.index < index) next = n;
      else break;
    }
    if (!next) return undefined;
    parent = next;
    level = next.children;
  }
}
