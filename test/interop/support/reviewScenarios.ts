// The review loop's model script (claude-agent-acp 0.101): the model reads the file the review
// comment is on (Claude's Edit refuses a file it has not read), edits the commented line 3, then
// answers. The workspace file is 10 lines, so the range is unambiguous.
import path from 'node:path';
import type { Scenario } from './fakeModel';

export const REVIEW_FILE = 'hello.ts';
export const REVIEW_LINES = Array.from({ length: 10 }, (_, i) => `export const line${i + 1} = ${i + 1};`);
export const REVIEW_TEXT = `${REVIEW_LINES.join('\n')}\n`;
/** Line 3 after the edit. */
export const EDITED_LINE = "export const line3 = 'three';";
export const COMMENT_TEXT = 'Make line3 a string: the callers print it.';
export const REVIEW_DONE = 'Line 3 is a string now.';

export function claudeReviewScenario(cwd: string): Scenario {
  const file = path.join(cwd, REVIEW_FILE);
  return {
    finalText: REVIEW_DONE,
    steps: [
      { kind: 'tools', calls: [{ name: 'Read', input: { file_path: file } }] },
      { kind: 'tools', calls: [{ name: 'Edit', input: { file_path: file, old_string: REVIEW_LINES[2], new_string: EDITED_LINE } }] },
    ],
  };
}
