// The prompt Send Review to Agent builds is what the Demo Agent's review scenario reads
// (src/demo/scenarios/review.ts): the link's line range and the text after it, so the demo edits
// exactly the commented line; a prompt without such links runs the default turn.
import * as assert from 'node:assert/strict';
import type { ReviewComment } from '../../../src/app/review/reviewModel';
import { reviewPrompt } from '../../../src/app/review/reviewPrompt';
import { pickScenario } from '../../../src/demo/scenarios/index';
import { reviewAsks } from '../../../src/demo/scenarios/review';
import type { Block } from '../../../src/demo/model';

const c: ReviewComment = {
  id: 'a',
  agentId: 'demo',
  sessionId: 's',
  path: '/w/hello.ts',
  start: 7,
  end: 9,
  lines: [],
  text: 'Greet by name',
  created: 1,
  state: 'open',
};

describe('Review: the Demo Agent reads the review prompt', () => {
  it('finds each comment: its file, its first line and its text', () => {
    const blocks = reviewPrompt(
      [c],
      () => true,
      (p) => p,
    ).blocks as unknown as Block[];
    assert.deepEqual(reviewAsks(blocks), [{ file: '/w/hello.ts', line: 8, text: 'Greet by name' }]);
    assert.equal(pickScenario(blocks).scenario.name, 'review');
  });

  it('runs the default turn for a prompt without review links', () => {
    assert.notEqual(pickScenario([{ type: 'text', text: 'Add a farewell function' }]).scenario.name, 'review');
  });
});
