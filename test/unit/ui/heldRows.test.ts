// The mirror of the rows VS Code holds (src/ui/tree/heldRows.ts): which rows a change fires.
import * as assert from 'node:assert/strict';
import { HeldRows, type RowSource, type ShownItem } from '../../../src/ui/tree/heldRows';

interface N {
  id: string;
}
/** A tree of rows by id: `labels` gives each row's label, `kids` its children. */
function source(labels: Record<string, string>, kids: Record<string, string[]>): RowSource<N> {
  return { item: (n) => ({ label: labels[n.id] }) satisfies ShownItem, children: (n) => (kids[n.id] ?? []).map((id) => ({ id })) };
}

function hold(rows: HeldRows, labels: Record<string, string>, kids: Record<string, string[]>): void {
  for (const [id, label] of Object.entries(labels)) rows.handedOut(id, { label });
  for (const [id, ids] of Object.entries(kids))
    rows.childrenFetched(
      id,
      ids.map((k) => ({ id: k })),
    );
}

describe('HeldRows (which Plans rows a change fires)', () => {
  const kids = { p: ['p/0', 'p/1'] };
  it('fires only the changed child when the row and its list of children are unchanged', () => {
    const rows = new HeldRows();
    hold(rows, { p: 'plan', 'p/0': 'tick 1', 'p/1': 'two' }, kids);
    const now = source({ p: 'plan', 'p/0': 'tick 2', 'p/1': 'two' }, kids);
    assert.deepEqual(rows.narrow({ id: 'p' }, now), [{ id: 'p/0' }]);
    assert.deepEqual(rows.narrow({ id: 'p' }, source({ p: 'plan', 'p/0': 'tick 1', 'p/1': 'two' }, kids)), [], 'nothing changed: nothing fired');
  });
  it('fires the row itself when it changed, its children changed in number, or it is not held', () => {
    const rows = new HeldRows();
    hold(rows, { p: 'plan', 'p/0': 'a', 'p/1': 'b' }, kids);
    assert.deepEqual(rows.narrow({ id: 'p' }, source({ p: 'plan 1/2', 'p/0': 'a', 'p/1': 'b' }, kids)), [{ id: 'p' }]);
    assert.deepEqual(rows.narrow({ id: 'p' }, source({ p: 'plan', 'p/0': 'a' }, { p: ['p/0'] })), [{ id: 'p' }]);
    assert.deepEqual(rows.narrow({ id: 'q' }, source({}, {})), [{ id: 'q' }]);
  });
  it('expects a fetch only for rows held, and drops what is below a fired row', () => {
    const rows = new HeldRows();
    assert.equal(rows.fired(undefined), false, 'nothing held yet');
    hold(rows, { a: 'A', 'a/p': 'plan', 'a/p/0': 'x' }, { a: ['a/p'], 'a/p': ['a/p/0'] });
    assert.equal(rows.fired(['a/p']), true);
    assert.equal(rows.fired(['a/p/0']), false, 'refreshing the plan dropped its steps');
    rows.handedOut('a/p', { label: 'plan' });
    assert.deepEqual(rows.narrow({ id: 'a/p' }, source({ 'a/p': 'plan' }, { 'a/p': ['a/p/0'] })), [], 'VS Code holds none of its children');
    rows.childrenFetching(undefined);
    assert.equal(rows.size, 0);
  });
});
