import assert from 'node:assert/strict';
import { foldedSteps } from '../../../src/state/planFold';

const C = 'completed';
const P = 'pending';

describe('folding the oldest done steps of a long plan (odek seed)', () => {
  it('folds nothing up to the threshold, or when it is 0', () => {
    assert.deepEqual(foldedSteps([C, C, C, P], 4), []);
    assert.deepEqual(foldedSteps(Array(100).fill(C), 0), []);
    assert.deepEqual(foldedSteps(Array(100).fill(C), -3), []);
  });

  it('folds the first done steps, enough to bring the rows (fold row included) down to the threshold', () => {
    const s = [C, P, C, C, C, 'in_progress', P, P];
    // 8 steps, threshold 5: 4 folded steps become 1 row, 8 - 4 + 1 = 5 rows.
    assert.deepEqual(foldedSteps(s, 5), [0, 2, 3, 4]);
    assert.equal(s.length - foldedSteps(s, 5).length + 1, 5);
    assert.deepEqual(foldedSteps(s, 7), [0, 2]);
  });

  it('folds every done step when there are not enough, and never just one', () => {
    assert.deepEqual(foldedSteps([C, P, C, P, P, P], 2), [0, 2]);
    assert.deepEqual(foldedSteps([C, P, P, P, P, P], 2), []);
    assert.deepEqual(foldedSteps([P, P, P, P, P, P], 2), []);
    // cancelled or blocked steps are not done: they stay visible.
    assert.deepEqual(foldedSteps(['cancelled', '_blocked', C, C, P], 3), [2, 3]);
  });

  it('handles a 10,000-step plan in one pass', () => {
    const s = Array.from({ length: 10_000 }, (_, i) => (i < 9_000 ? C : P));
    const f = foldedSteps(s, 20);
    assert.equal(f.length, 9_000, 'not enough done steps: all of them fold');
    assert.equal(f[0], 0);
  });
});
