import { strict as assert } from 'node:assert';
import { fastUpdate } from '../../../src/protocol/v2/fastPath';
import { v2UpdateSchema } from '../../../src/protocol/v2/updates';

type Wire = Record<string, unknown>;
const plan = (entries: unknown[]): Wire => ({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries } });
const entriesOf = (e: unknown): unknown[] => (e as { plan: { entries: unknown[] } }).plan.entries;
/** The fast path's result is the schema's, key order included. */
function same(update: Wire): unknown {
  const fast = fastUpdate('plan_update', update);
  assert.ok(fast, 'taken by the fast path');
  assert.equal(JSON.stringify(fast), JSON.stringify(v2UpdateSchema('plan_update')!.parse(update)));
  return fast;
}

describe('v2 fast path: plan updates', () => {
  it('takes entries that are already what decoding makes of them as they are: no copy', () => {
    const wire = [
      { content: 'a', priority: 'high', status: 'pending' },
      { content: 'b', priority: 'low', status: 'completed', _meta: { x: 1 } },
    ];
    const update = plan(wire);
    const got = entriesOf(same(update));
    assert.equal(got, wire, 'the wire array itself');
    assert.equal(got[1], wire[1]);
  });

  it("copies, in the schema's key order and without unknown keys, the entries that are not", () => {
    const wire = [
      { content: 'a', priority: 'high', status: 'pending' },
      { status: 'pending', content: 'b', priority: 'low' }, // another key order
      { content: 'c', priority: 'low', status: 'pending', extra: true }, // an unknown key
      { content: 'd', priority: 'low', status: 'pending', _meta: 'not an object' },
      { content: 'e', priority: 'low', status: 'pending' },
    ];
    const got = entriesOf(same(plan(wire)));
    assert.notEqual(got, wire);
    assert.equal(got[0], wire[0], 'entries already decoded are kept as they are');
    assert.equal(got[4], wire[4]);
    assert.deepEqual(got[1], { content: 'b', priority: 'low', status: 'pending' });
    assert.ok(!('extra' in (got[2] as object)) && !('_meta' in (got[3] as object)));
  });
});
