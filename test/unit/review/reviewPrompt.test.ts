// Send Review to Agent's prompt (src/app/review/reviewPrompt.ts): per open comment a resource link
// to its file with its lines (name, title and `_meta`) and its text, grouped by step in the order
// written; resolved comments and comments outside the workspace stay out; at most MAX_COMMENTS per
// prompt (the rest said and left open) and a huge text cut with a note.
import * as assert from 'node:assert/strict';
import { MAX_COMMENTS, MAX_TEXT_CHARS, RANGE_META_KEY, reviewPrompt } from '../../../src/app/review/reviewPrompt';
import type { ReviewComment } from '../../../src/app/review/reviewModel';

let n = 0;
function comment(p: Partial<ReviewComment> & { path: string; start: number; end: number; text: string }): ReviewComment {
  n++;
  return { id: `c${n}`, agentId: 'demo', sessionId: 's', lines: [], created: n, state: 'open', ...p };
}
const inside = (p: string): boolean => p.startsWith('/w/');
const rel = (p: string): string => p.replace('/w/', '');
const S1 = { planId: 'p', key: 0, label: 'Add farewell' };
const S2 = { planId: 'p', key: 1, label: 'Write a test' };

describe('Review: the prompt of Send Review to Agent', () => {
  it('links each comment to its lines and groups them by step in the order written', () => {
    const list = [
      comment({ path: '/w/a.ts', start: 11, end: 13, text: 'first', step: S1 }),
      comment({ path: '/w/b.ts', start: 0, end: 0, text: 'second', step: S2 }),
      comment({ path: '/w/a.ts', start: 20, end: 20, text: 'third', step: S1 }),
      comment({ path: '/w/a.ts', start: 1, end: 1, text: 'done', step: S1, state: 'resolved' }),
    ];
    const p = reviewPrompt(list, inside, rel);
    const shape = p.blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? `link ${b.uri} ${b.name} ${b.title}` : b.type));
    assert.deepEqual(shape.slice(1), [
      'Step: Add farewell',
      'link file:///w/a.ts a.ts lines 12–14 a.ts:12-14',
      'a.ts lines 12–14: first',
      'link file:///w/a.ts a.ts line 21 a.ts:21',
      'a.ts line 21: third',
      'Step: Write a test',
      'link file:///w/b.ts b.ts line 1 b.ts:1',
      'b.ts line 1: second',
    ]);
    const link = p.blocks[2] as { _meta?: Record<string, unknown> };
    assert.deepEqual(link._meta?.[RANGE_META_KEY], { start: 12, end: 14 });
    assert.deepEqual(p.sent, ['c1', 'c3', 'c2']);
  });

  it('never sends comments on files outside the workspace', () => {
    const p = reviewPrompt(
      [comment({ path: '/elsewhere/x.ts', start: 0, end: 0, text: 'imported' }), comment({ path: '/w/y.ts', start: 0, end: 0, text: 'ok' })],
      inside,
      rel,
    );
    assert.equal(p.outside, 1);
    assert.equal(p.blocks.filter((b) => b.type === 'resource_link').length, 1);
    assert.ok(!JSON.stringify(p.blocks).includes('elsewhere'));
  });

  it('bounds a review of 500 comments and cuts a 1 MB comment, saying so', () => {
    const many = Array.from({ length: 500 }, (_, i) => comment({ path: '/w/a.ts', start: i, end: i, text: i === 0 ? 'x'.repeat(1024 * 1024) : `c${i}` }));
    const p = reviewPrompt(many, inside, rel);
    assert.equal(p.sent.length, MAX_COMMENTS);
    assert.equal(p.left, 500 - MAX_COMMENTS);
    assert.match((p.blocks.at(-1) as { text: string }).text, /^300 more comments are not in this prompt/);
    assert.equal(p.truncated, 1);
    const first = p.blocks[3] as { text: string };
    assert.ok(first.text.length < MAX_TEXT_CHARS + 200, 'cut');
    assert.match(first.text, /\[The comment was cut here: it has 1048576 characters\.\]$/);
  });
});
