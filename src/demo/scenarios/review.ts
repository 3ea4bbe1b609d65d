// A review sent to the Demo Agent: a prompt holding `resource_link`s with a line range (the
// client's `_meta["acp-plans/lines"] = {start, end}`, 1-based) each followed by the review's text.
// For each, the agent edits the first line of that range in that file: it appends
// `// reviewed: <text>` (v1: through the client's fs/write_text_file; v2: the disk), with a tool
// call whose diff carries both texts. Small on purpose: it shows the loop, not a fix.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Block, ToolContent } from '../model';
import { writeFile } from './demoFiles';
import type { Scenario } from './scenario';

const RANGE_KEY = 'acp-plans/lines';

interface Ask {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** The review's asks: each link with a range, and the text block after it. */
export function reviewAsks(prompt: readonly Block[]): Ask[] {
  const out: Ask[] = [];
  prompt.forEach((b, i) => {
    if (b.type !== 'resource_link' || typeof b.uri !== 'string' || !b.uri.startsWith('file:')) return;
    const meta = b._meta as Record<string, unknown> | undefined;
    const range = meta?.[RANGE_KEY] as { start?: unknown } | undefined;
    const next = prompt[i + 1];
    if (typeof range?.start !== 'number' || next?.type !== 'text' || typeof next.text !== 'string') return;
    const text = next.text
      .replace(/^[^:]*:\s*/, '')
      .split('\n')[0]!
      .slice(0, 60);
    out.push({ file: fileURLToPath(b.uri), line: range.start, text });
  });
  return out;
}

export const reviewScenario: Scenario = {
  name: 'review',
  description: 'Address review comments (links with line ranges): append a note to each commented line',
  async run(turn, _args, prompt) {
    const asks = reviewAsks(prompt);
    if (!asks.length) {
      turn.say('No review comment with a line range in this prompt.');
      return;
    }
    for (const a of asks) {
      const id = turn.id('call_review');
      let before: string;
      try {
        before = readFileSync(a.file, 'utf8');
      } catch {
        turn.say(`Cannot read ${a.file}.`);
        continue;
      }
      const lines = before.split('\n');
      const at = Math.min(Math.max(0, a.line - 1), lines.length - 1);
      lines[at] = `${lines[at]} // reviewed: ${a.text}`;
      const after = lines.join('\n');
      const diff: ToolContent = { type: 'diff', path: a.file, patchPath: path.relative(turn.cwd, a.file), oldText: before, newText: after };
      turn.tool({
        toolCallId: id,
        title: `Address review: ${a.file} line ${a.line}`,
        kind: 'edit',
        status: 'in_progress',
        locations: [{ path: a.file }],
        content: [diff],
      });
      if (turn.version === 1 && turn.services.writeTextFile) await turn.clientRequest('fs/write_text_file', { path: a.file, content: after });
      else writeFile(a.file, after);
      turn.tool({ toolCallId: id, status: 'completed' });
    }
    turn.say(`Addressed ${asks.length} review comment(s).`);
  },
};
