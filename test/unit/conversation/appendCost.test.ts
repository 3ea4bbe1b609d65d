// Appending chunk #10,000 must cost what appending chunk #100 costs. Rather than timing, this
// counts the elements that every O(n) Array/String method touches while one chunk is applied
// (join, slice, concat, indexOf, map…) and checks the count does not grow with the transcript.
import { strict as assert } from 'node:assert';
import { Transcript } from '../../../src/state/transcript';
import { b64, ev, S } from './builders';

const METHODS = [
  'join',
  'slice',
  'concat',
  'indexOf',
  'lastIndexOf',
  'includes',
  'map',
  'filter',
  'forEach',
  'reduce',
  'find',
  'findIndex',
  'some',
  'every',
  'splice',
  'shift',
  'unshift',
] as const;

/** Runs fn and returns the number of elements touched by O(n) array methods meanwhile. */
function arrayWork(fn: () => void): number {
  const proto = Array.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const saved = METHODS.map((m) => [m, proto[m]] as const);
  let work = 0;
  for (const [m, orig] of saved) {
    proto[m] = function (this: unknown[], ...args: unknown[]) {
      work += this.length;
      return orig.apply(this, args);
    };
  }
  try {
    fn();
  } finally {
    for (const [m, orig] of saved) proto[m] = orig;
  }
  return work;
}

describe('Transcript: append cost does not grow with the transcript', () => {
  it('message chunks: the same work at chunk 100 and chunk 10,000; only the newest 64 are joined', () => {
    const t = new Transcript();
    const listenerWork: number[] = [];
    t.onDidChange(() => listenerWork.push(0));
    const costs: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      const e = ev.chunk('long', `chunk ${i} `);
      if (i === 99 || i === 9_999) costs.push(arrayWork(() => t.apply(e)));
      else t.apply(e);
    }
    assert.equal(costs[0], costs[1], `work at #100 = ${costs[0]}, at #10,000 = ${costs[1]}`);
    assert.ok(costs[1] < 50, `constant and small: ${costs[1]}`);
    const item = t.session(S)!.item('m:agent:long');
    assert.ok(item?.kind === 'message' && item.parts[0].type === 'text');
    assert.equal(item.parts[0].chunks.length, Math.floor(10_000 / 64) + (10_000 % 64), 'each 64 chunks joined once into a piece');
    assert.equal(item.parts[0].chunks.join(''), Array.from({ length: 10_000 }, (_, i) => `chunk ${i} `).join(''));
  });

  it('chunks of one message among thousands of other items cost the same', () => {
    const t = new Transcript();
    t.apply(ev.chunk('first', 'a'));
    const before = arrayWork(() => t.apply(ev.chunk('first', 'b')));
    for (let i = 0; i < 5_000; i++) t.apply(ev.chunk(`m${i}`, 'x'));
    const after = arrayWork(() => t.apply(ev.chunk('first', 'c')));
    assert.equal(before, after);
  });

  it('tool call content chunks and terminal chunks: constant work', () => {
    const t = new Transcript();
    const costs: number[] = [];
    const termCosts: number[] = [];
    for (let i = 0; i < 5_000; i++) {
      const c = ev.toolChunk('tc', { type: 'content', content: { type: 'text', text: `line ${i}\n` } });
      const d = ev.termChunk('term', b64(`out ${i}\n`));
      if (i === 99 || i === 4_999) {
        costs.push(arrayWork(() => t.apply(c)));
        termCosts.push(arrayWork(() => t.apply(d)));
      } else {
        t.apply(c);
        t.apply(d);
      }
    }
    assert.equal(costs[0], costs[1]);
    assert.equal(termCosts[0], termCosts[1]);
    assert.equal(t.session(S)!.terminal('term')!.chunkCount, 5_000);
  });
});
