// The prompts of the review: Send Review to Agent (every open comment of a session, as one prompt:
// per comment a `resource_link` to its file with its lines, then its text, grouped by step in the
// order written), Explain This Change and Summarize This Step's Changes (the lines named exactly).
// The prompt goes to the agent, so its words stay English (docs/ARCHITECTURE.md, "Words").
// Bounded: at most MAX_COMMENTS comments per prompt (the rest stay open for the next), each text
// cut at MAX_TEXT_CHARS with a note. Free of `vscode`.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContentBlock } from '../../protocol/domain';
import type { ReviewComment } from './reviewModel';

export const MAX_COMMENTS = 200;
export const MAX_TEXT_CHARS = 16 * 1024;
/** The `_meta` key of a link's line range (1-based, inclusive). */
export const RANGE_META_KEY = 'acp-plans/lines';

export interface BuiltPrompt {
  readonly blocks: ContentBlock[];
  /** The comments in the prompt, in its order. */
  readonly sent: readonly string[];
  /** Open comments left for a later prompt (over MAX_COMMENTS). */
  readonly left: number;
  /** Comments on files outside the workspace: never sent. */
  readonly outside: number;
  readonly truncated: number;
}

/** "file.ts line 12" / "file.ts lines 12–14" (1-based). */
export function rangeName(file: string, start: number, end: number): string {
  const name = path.basename(file);
  return start === end ? `${name} line ${start + 1}` : `${name} lines ${start + 1}–${end + 1}`;
}

/** A link to lines of a file: the range in its name, its title and its `_meta`. */
export function rangeLink(file: string, start: number, end: number, rel: string): ContentBlock {
  return {
    type: 'resource_link',
    uri: pathToFileURL(file).href,
    name: rangeName(file, start, end),
    title: start === end ? `${rel}:${start + 1}` : `${rel}:${start + 1}-${end + 1}`,
    _meta: { [RANGE_META_KEY]: { start: start + 1, end: end + 1 } },
  };
}

/**
 * Every open comment that may be sent, as one prompt. `inside`: whether a path is in the
 * workspace; `rel`: the path as the prompt names it.
 */
export function reviewPrompt(comments: readonly ReviewComment[], inside: (p: string) => boolean, rel: (p: string) => string): BuiltPrompt {
  const open = comments.filter((c) => c.state === 'open').sort((a, b) => a.created - b.created);
  const ok = open.filter((c) => inside(c.path));
  const taken = ok.slice(0, MAX_COMMENTS);
  // Grouped by step, the groups in the order of their first comment.
  const groups = new Map<string, ReviewComment[]>();
  for (const c of taken) {
    const k = c.step ? `${c.step.planId ?? ''}\u0000${c.step.key}` : '';
    const g = groups.get(k);
    if (g) g.push(c);
    else groups.set(k, [c]);
  }
  let truncated = 0;
  const blocks: ContentBlock[] = [
    {
      type: 'text',
      text: `Review comments on your changes (${taken.length}). Please address each one; each names the lines it is about.`,
    },
  ];
  for (const g of groups.values()) {
    const step = g[0]!.step;
    blocks.push({ type: 'text', text: step ? `Step: ${step.label}` : 'Changes outside any plan step' });
    for (const c of g) {
      let text = c.text;
      if (text.length > MAX_TEXT_CHARS) {
        truncated++;
        text = `${text.slice(0, MAX_TEXT_CHARS)}\n[The comment was cut here: it has ${c.text.length} characters.]`;
      }
      const where = rangeName(c.path, c.start, c.end);
      const note = c.gone === 'file' ? ' (the file was deleted since)' : c.gone === 'lines' ? ' (these lines were removed since)' : '';
      blocks.push(rangeLink(c.path, c.start, c.end, rel(c.path)));
      blocks.push({ type: 'text', text: `${where}${note}: ${text}` });
    }
  }
  const left = ok.length - taken.length;
  if (left > 0) blocks.push({ type: 'text', text: `${left} more comments are not in this prompt; they will follow in the next one.` });
  return { blocks, sent: [...groups.values()].flat().map((c) => c.id), left, outside: open.length - ok.length, truncated };
}

/** Explain This Change: the lines, and the question. */
export function explainPrompt(file: string, start: number, end: number, rel: string, step?: string): ContentBlock[] {
  return [
    { type: 'text', text: `Explain this change${step ? ` (step: ${step})` : ''}: what it does and why. Answer about exactly these lines:` },
    rangeLink(file, start, end, rel),
  ];
}

/** Summarize This Step's Changes: each changed file of the step, whole or by its changed lines. */
export function summarizePrompt(step: string, files: readonly { path: string; start: number; end: number; rel: string }[]): ContentBlock[] {
  return [
    { type: 'text', text: `Summarize the changes of the step "${step}": what changed in each file and why.` },
    ...files.map((f) => rangeLink(f.path, f.start, f.end, f.rel)),
  ];
}
