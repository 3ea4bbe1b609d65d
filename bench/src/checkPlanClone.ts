// Checks PlanStore's copy-with-reuse (cloneReusing in src/state/planStore/content.ts) against the plain
// JSON round trip it replaces, on random JSON values (fast-check): the copy has the same JSON
// text (key order included) as JSON.parse(JSON.stringify(next)); it is the previous copy itself
// exactly when the two have the same stable JSON; and it shares no object with the input.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { stableStringify } from '../../src/state/json';
import { cloneReusing } from '../../src/state/planStore';
import { report } from './common';

function objectsOf(v: unknown, out = new Set<object>()): Set<object> {
  if (typeof v === 'object' && v !== null) {
    out.add(v);
    for (const x of Object.values(v)) objectsOf(x, out);
  }
  return out;
}

const value = fc.jsonValue({ maxDepth: 4 });
// Pairs that are often equal or nearly so, as successive plan revisions are.
const pair = fc.oneof(
  fc.tuple(value, value),
  value.map((v) => [v, JSON.parse(JSON.stringify(v)) as unknown] as const),
  fc
    .record({
      type: fc.constant('items'),
      planId: fc.constantFrom('a', 'b'),
      entries: fc.array(fc.record({ content: fc.constantFrom('x', 'y'), priority: fc.constant('high'), status: fc.constantFrom('pending', 'completed') }), {
        maxLength: 6,
      }),
    })
    .chain((p) => fc.tuple(fc.constant(p), fc.record({ type: fc.constant('items'), planId: fc.constant(p.planId), entries: fc.shuffledSubarray(p.entries) }))),
);
let runs = 0;
fc.assert(
  fc.property(pair, ([a, b]) => {
    runs++;
    const prev = JSON.parse(JSON.stringify(a)) as unknown;
    const copy = cloneReusing(b, prev);
    assert.equal(JSON.stringify(copy), JSON.stringify(b));
    assert.equal(copy === prev, typeof prev === 'object' && prev !== null ? stableStringify(a) === stableStringify(b) : copy === prev);
    const inputs = objectsOf(b);
    for (const o of objectsOf(copy)) assert.ok(!inputs.has(o), 'the copy shares an object with the input');
  }),
  { numRuns: 20_000 },
);
report({ section: 'planCloneCheck', ok: true, runs });
