import * as assert from 'assert';
import { Recency } from '../../../src/state/recency';

describe('Recency', () => {
  it('keeps values least recently touched first', () => {
    const r = new Recency<string>();
    for (const v of ['a', 'b', 'c']) r.touch(v);
    r.touch('a');
    assert.deepStrictEqual([...r], ['b', 'c', 'a']);
    r.touch('a'); // already the newest
    r.touch('c');
    assert.deepStrictEqual([...r], ['b', 'a', 'c']);
    assert.strictEqual(r.oldest(), 'b');
    assert.strictEqual(r.size, 3);
  });

  it('deletes from either end and the middle', () => {
    const r = new Recency<number>();
    for (let i = 0; i < 5; i++) r.touch(i);
    assert.strictEqual(r.delete(0), true);
    assert.strictEqual(r.delete(4), true);
    assert.strictEqual(r.delete(2), true);
    assert.strictEqual(r.delete(2), false);
    assert.deepStrictEqual([...r], [1, 3]);
    assert.strictEqual(r.has(2), false);
    r.touch(2);
    assert.deepStrictEqual([...r], [1, 3, 2]);
    r.delete(1);
    r.delete(3);
    r.delete(2);
    assert.deepStrictEqual([...r], []);
    assert.strictEqual(r.oldest(), undefined);
    r.touch(9);
    assert.deepStrictEqual([...r], [9]);
  });

  it('goes on when the value just yielded is deleted or touched (touched: visited again at the newest end, as in a Set)', () => {
    const r = new Recency<number>();
    for (let i = 0; i < 6; i++) r.touch(i);
    const seen: number[] = [];
    for (const v of r) {
      seen.push(v);
      if (v % 2) r.delete(v);
      else if (v === 2) r.touch(v);
    }
    assert.deepStrictEqual(seen, [0, 1, 2, 3, 4, 5, 2]);
    assert.deepStrictEqual([...r], [0, 4, 2]);
  });

  it('agrees with a Set kept by delete-then-add over a random walk', () => {
    let seed = 7;
    const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const r = new Recency<number>();
    const s = new Set<number>();
    for (let i = 0; i < 5000; i++) {
      const v = rnd(20);
      if (rnd(4) === 0) assert.strictEqual(r.delete(v), s.delete(v));
      else {
        r.touch(v);
        s.delete(v);
        s.add(v);
      }
      if (i % 97 === 0) assert.deepStrictEqual([...r], [...s]);
    }
    assert.deepStrictEqual([...r], [...s]);
    assert.strictEqual(r.size, s.size);
  });
});
