import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonBytes, utf8Length } from '../../../src/state/planBytes';

/** The definition jsonBytes follows, written plainly (recursive, Object.entries). */
function reference(v: unknown): number {
  if (typeof v === 'string') return utf8Length(v) + 2;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return 8;
  if (Array.isArray(v)) return 2 + v.length + v.reduce((n: number, x) => n + reference(x), 0);
  if (typeof v === 'object') return 2 + Object.entries(v as Record<string, unknown>).reduce((n, [k, x]) => n + utf8Length(k) + 4 + reference(x), 0);
  return 0;
}

describe('jsonBytes', () => {
  it('counts own enumerable members only, as Object.entries does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        assert.equal(jsonBytes(v), reference(v));
      }),
      { numRuns: 500 },
    );
    const inherited = Object.create({ inheritedKey: 'not counted' }) as Record<string, unknown>;
    inherited['own'] = 'ü';
    const bare = Object.create(null) as Record<string, unknown>;
    bare['k'] = [1, { x: null }];
    for (const v of [inherited, bare, { a: inherited, b: [bare] }]) assert.equal(jsonBytes(v), reference(v));
    assert.equal(jsonBytes(inherited), 2 + 3 + 4 + 4);
  });

  it('with a limit, is over it exactly when the whole count is (flat objects and nested ones)', () => {
    const flat = fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)));
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), flat), fc.nat(400), (v, stopAt) => {
        assert.equal(jsonBytes(v, stopAt) > stopAt, reference(v) > stopAt);
      }),
      { numRuns: 1000 },
    );
  });
});
