// The stores' JSON helpers at any depth: a value nested a million deep is copied and compared,
// never a stack overflow; at ordinary depths they agree with JSON.stringify / JSON.parse.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { deepJsonClone, jsonClone, sameJson, stableStringify } from '../../../src/state/json';

const MILLION = 1_000_000;

function nestedArrays(n: number): unknown {
  let v: unknown = [];
  for (let i = 1; i < n; i++) v = [v];
  return v;
}

function nestedObjects(n: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { a: v, z: undefined };
  return v;
}

function depthOf(v: unknown): number {
  let d = 0;
  let x = v;
  while (x !== null && typeof x === 'object') {
    d++;
    x = Array.isArray(x) ? x[0] : (x as { a: unknown }).a;
  }
  return d;
}

/** Values JSON.stringify treats specially: undefined members, NaN, Dates, functions, __proto__ keys. */
const awkward = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 1 }),
    fc.constant(undefined),
    fc.constant(Number.NaN),
    fc.constant(-0),
    fc.constant(new Date(0)),
    fc.constant(() => 1),
    fc.constant(Symbol('s')),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 3 }), fc.constant('__proto__')), tie('v'), { maxKeys: 3 }),
  ),
})).v;

describe('state/json at any depth', function () {
  // Correctness at a million levels, not speed: a few seconds alone, far more on a loaded machine.
  this.timeout(180_000);
  it('stableStringify and sameJson handle 1,000,000 levels of arrays and of objects', () => {
    assert.throws(() => JSON.stringify(nestedArrays(MILLION)), RangeError, 'the engine cannot');
    assert.equal(stableStringify(nestedArrays(MILLION)), '['.repeat(MILLION) + ']'.repeat(MILLION));
    assert.equal(stableStringify(nestedObjects(MILLION)), '{"a":'.repeat(MILLION) + '1' + '}'.repeat(MILLION));
    assert.equal(sameJson(nestedArrays(MILLION), nestedArrays(MILLION - 1)), false);
    assert.equal(sameJson(nestedArrays(600), nestedArrays(600)), true, 'past the recursion limit');
  });

  it('jsonClone copies 1,000,000 levels (a private copy, undefined members left out)', () => {
    const src = nestedObjects(MILLION);
    const copy = jsonClone(src);
    assert.notEqual(copy, src);
    assert.equal(depthOf(copy), MILLION);
    assert.ok(!Object.prototype.hasOwnProperty.call(copy, 'z'), 'undefined members are left out, as JSON does');
  });

  it("jsonClone still throws JSON's errors for cycles and BigInt, deep or not", () => {
    const cyc: { a?: unknown } = {};
    cyc.a = cyc;
    assert.throws(() => jsonClone(cyc), TypeError);
    assert.throws(() => deepJsonClone(cyc), TypeError);
    assert.throws(() => deepJsonClone({ n: 1n }), TypeError);
    const shared = { x: 1 };
    assert.deepEqual(deepJsonClone({ a: shared, b: shared }), { a: { x: 1 }, b: { x: 1 } }, 'a shared part is no cycle');
  });

  it('the stack-free copy equals the JSON round trip (property)', () => {
    fc.assert(
      fc.property(awkward, (v) => {
        const viaText = JSON.stringify(v) === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown);
        assert.deepEqual(deepJsonClone(v), viaText);
        assert.equal(JSON.stringify(deepJsonClone(v)), JSON.stringify(v), 'same key order too');
      }),
      { numRuns: 500 },
    );
  });

  it('stableStringify is JSON with sorted keys (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        const s = stableStringify(v);
        assert.deepEqual(JSON.parse(s), JSON.parse(JSON.stringify(v)));
        const reversed = JSON.parse(
          JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).reverse()) : x)),
        ) as unknown;
        assert.equal(stableStringify(reversed), s, 'key order does not matter');
      }),
      { numRuns: 300 },
    );
  });
});
