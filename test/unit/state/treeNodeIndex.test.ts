// NodeIndex (src/ui/tree/nodes.ts, vscode-free): forgetting nodes follows the id structure, so
// it costs the size of the subtree. Checked against the plain definition ("every interned id equal
// to the node's or starting with it and a slash") on random sequences of interning and forgetting.
import * as assert from 'assert';
import fc from 'fast-check';
import { NodeIndex, planNodeId, type PlanTreeNode } from '../../../src/ui/tree/nodes';
import type { PlanRef } from '../../../src/state/planStore';

type Op =
  | { op: 'plan' | 'info'; ref: PlanRef }
  | { op: 'step'; ref: PlanRef; index: number }
  | { op: 'intent'; ref: PlanRef; part: 'goal' | 'outside' | 'call' | 'step'; key: string }
  | { op: 'archive' | 'session'; agentId: string; sessionId: string }
  | { op: 'forget'; pick: number }
  | { op: 'forgetIntent'; ref: PlanRef; keepEvery: number }
  | { op: 'forgetSteps'; ref: PlanRef; count: number };

const ref = fc
  .record({
    agentId: fc.constantFrom('a', 'b/c'),
    sessionId: fc.constantFrom('s1', 's 2'),
    planId: fc.constantFrom('p', 'q/r', 'p%2F'),
  })
  .chain((r) => fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }).map((archiveId): PlanRef => (archiveId === undefined ? r : { ...r, archiveId })));

const op: fc.Arbitrary<Op> = fc.oneof(
  ref.map((r) => ({ op: 'plan' as const, ref: r })),
  ref.map((r) => ({ op: 'info' as const, ref: r })),
  fc.tuple(ref, fc.integer({ min: 0, max: 6 })).map(([r, index]) => ({ op: 'step' as const, ref: r, index })),
  fc
    .tuple(ref, fc.constantFrom('goal', 'outside', 'call', 'step') as fc.Arbitrary<'goal' | 'outside' | 'call' | 'step'>, fc.constantFrom('', '1', 'call/x'))
    .map(([r, part, key]) => ({ op: 'intent' as const, ref: r, part, key })),
  fc
    .tuple(fc.constantFrom('archive', 'session') as fc.Arbitrary<'archive' | 'session'>, fc.constantFrom('a', 'b/c'), fc.constantFrom('s1', 's 2'))
    .map(([o, agentId, sessionId]) => ({ op: o, agentId, sessionId })),
  fc.nat(1000).map((pick) => ({ op: 'forget' as const, pick })),
  fc.tuple(ref, fc.integer({ min: 1, max: 3 })).map(([r, keepEvery]) => ({ op: 'forgetIntent' as const, ref: r, keepEvery })),
  fc.tuple(ref, fc.integer({ min: 0, max: 7 })).map(([r, count]) => ({ op: 'forgetSteps' as const, ref: r, count })),
);

/** The plain definition, by scanning every id (what NodeIndex must agree with). */
class Model {
  readonly ids = new Map<string, PlanTreeNode>();
  add(n: PlanTreeNode): void {
    if (this.ids.get(n.id)?.kind !== n.kind) this.ids.set(n.id, n);
  }
  forget(id: string): void {
    for (const k of [...this.ids.keys()]) if (k === id || k.startsWith(id + '/')) this.ids.delete(k);
  }
  forgetIntent(ref: PlanRef, keep: ReadonlySet<string>): void {
    const prefix = planNodeId(ref) + '/';
    for (const [k, n] of [...this.ids]) if (n.kind === 'intent' && k.startsWith(prefix) && !keep.has(k)) this.ids.delete(k);
  }
  forgetSteps(ref: PlanRef, count: number): void {
    const prefix = planNodeId(ref) + '/';
    for (const [k, n] of [...this.ids]) if (n.kind === 'step' && k.startsWith(prefix) && n.index >= count) this.ids.delete(k);
  }
}

function apply(ix: NodeIndex, m: Model, o: Op): void {
  switch (o.op) {
    case 'plan':
      m.add(ix.plan(o.ref));
      break;
    case 'info':
      m.add(ix.info(o.ref));
      break;
    case 'step':
      m.add(ix.step(o.ref, o.index));
      break;
    case 'intent':
      m.add(ix.intent(o.ref, o.part, o.key));
      break;
    case 'archive':
      m.add(ix.archive(o.agentId, o.sessionId));
      break;
    case 'session':
      m.add(ix.session(o.agentId, o.sessionId));
      break;
    case 'forget': {
      const ids = [...m.ids.keys()];
      const id = ids.length ? ids[o.pick % ids.length]! : 'nothing';
      ix.forget(id);
      m.forget(id);
      break;
    }
    case 'forgetIntent': {
      const keep = new Set([...m.ids.keys()].filter((_, i) => i % o.keepEvery === 0));
      ix.forgetIntentRowsExcept(o.ref, keep);
      m.forgetIntent(o.ref, keep);
      break;
    }
    case 'forgetSteps':
      ix.forgetStepsFrom(o.ref, o.count);
      m.forgetSteps(o.ref, o.count);
      break;
    default:
      o satisfies never;
  }
}

describe('NodeIndex (Plans tree nodes)', () => {
  it('forgets exactly what the prefix definition forgets, whatever the order of operations', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const ix = new NodeIndex();
        const m = new Model();
        for (const o of ops) {
          apply(ix, m, o);
          assert.strictEqual(ix.size, m.ids.size);
          for (const [id, n] of m.ids) assert.strictEqual(ix.get(id), n, id);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps no trace of forgotten plans: interning and archiving 10,000 plans leaves the index as small as the tree', () => {
    const ix = new NodeIndex();
    ix.session('a', 's');
    for (let i = 0; i < 10_000; i++) {
      const live = { agentId: 'a', sessionId: 's', planId: `p${i}` };
      ix.plan(live);
      ix.step(live, 0);
      ix.forget(planNodeId(live));
      ix.plan({ ...live, archiveId: i });
      if (i >= 100) ix.forget(planNodeId({ ...live, archiveId: i - 100 })); // the archive keeps 100
    }
    assert.strictEqual(ix.size, 1 + 100);
    const internals = ix as unknown as { children: Map<string, Set<string>> };
    const links = [...internals.children.values()].reduce((n, s) => n + s.size, 0);
    assert.ok(links <= 1 + 100 + 1, `${links} links kept`);
  });
});
