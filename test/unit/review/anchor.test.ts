// Review comments follow their lines (src/app/review/anchor.ts): an edit above moves them, an edit
// below leaves them, an edit inside marks them touched, deleting their lines says so (never a move
// to unrelated lines), and locate() finds them in another text of the file.
import * as assert from 'node:assert/strict';
import { locate, reanchor } from '../../../src/app/review/anchor';

const text = (...lines: string[]): string => lines.join('\n') + '\n';
const BASE = text('a', 'b', 'c', 'd', 'e', 'f');
const C = { start: 2, end: 3 }; // c, d

describe('Review: anchoring comments to lines', () => {
  it('moves with lines inserted above', () => {
    assert.deepEqual(reanchor(C, BASE, text('x', 'y', 'a', 'b', 'c', 'd', 'e', 'f')), { start: 4, end: 5, touched: false, gone: false });
  });

  it('moves with lines removed above', () => {
    assert.deepEqual(reanchor(C, BASE, text('b', 'c', 'd', 'e', 'f')), { start: 1, end: 2, touched: false, gone: false });
  });

  it('stays put when the edit is below', () => {
    assert.deepEqual(reanchor(C, BASE, text('a', 'b', 'c', 'd', 'e', 'F', 'g')), { start: 2, end: 3, touched: false, gone: false });
  });

  it('is touched by an edit inside its range and keeps the lines that are left', () => {
    assert.deepEqual(reanchor(C, BASE, text('a', 'b', 'c', 'D', 'e', 'f')), { start: 2, end: 3, touched: true, gone: false });
    assert.deepEqual(reanchor(C, BASE, text('a', 'b', 'c', 'new', 'd', 'e', 'f')), { start: 2, end: 4, touched: true, gone: false });
  });

  it('follows its lines when they were replaced in place: the new lines, touched', () => {
    assert.deepEqual(reanchor(C, BASE, text('a', 'b', 'X', 'Y', 'Z', 'e', 'f')), { start: 2, end: 4, touched: true, gone: false });
  });

  // Mutation: keep only the surviving lines (the range shrank to "d" and the new first line was not shown as its code).
  it('keeps the lines that replaced its first or last line', () => {
    assert.deepEqual(reanchor(C, BASE, text('a', 'b', 'C', 'd', 'e', 'f')), { start: 2, end: 3, touched: true, gone: false });
    assert.deepEqual(reanchor(C, BASE, text('a', 'b', 'C1', 'C2', 'd', 'e', 'f')), { start: 2, end: 4, touched: true, gone: false });
    // A line deleted at the edge, none in its place: the range is what is left.
    assert.deepEqual(reanchor(C, BASE, text('a', 'b', 'd', 'e', 'f')), { start: 2, end: 2, touched: true, gone: false });
  });

  it('says its lines are gone when they were deleted, where they were', () => {
    assert.deepEqual(reanchor(C, BASE, text('a', 'b', 'e', 'f')), { start: 2, end: 2, touched: true, gone: true });
  });

  it('follows its lines through edits above and below at once', () => {
    assert.deepEqual(reanchor(C, BASE, text('0', 'a', 'B', 'c', 'd', 'E', 'f', 'g')), { start: 3, end: 4, touched: false, gone: false });
  });

  it('finds the lines in another text of the file, nearest first', () => {
    const doc = ['x', 'c', 'd', 'y', 'c', 'd'];
    assert.deepEqual(locate(['c', 'd'], 4, doc), { start: 4, end: 5 });
    assert.deepEqual(locate(['c', 'd'], 2, doc), { start: 1, end: 2 });
    assert.deepEqual(locate(['q'], 3, doc), { start: 3, end: 3 }, 'not found: stays at its line');
  });
});
