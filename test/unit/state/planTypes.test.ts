import assert from 'node:assert/strict';
import type { PlanContent } from '../../../src/protocol/domain';
import { PLAN_TYPES, limitPlan, planKind, summarizePlan, viewPlan } from '../../../src/state/planTypes';

describe('plan types', () => {
  it('gives every plan exactly one type: by wire type, by the raw type of a custom plan, else unknown', () => {
    const kinds = (p: PlanContent) => planKind(p);
    assert.equal(kinds({ type: 'items', planId: 'p', entries: [] }), 'items');
    assert.equal(kinds({ type: 'markdown', planId: 'p', content: '' }), 'markdown');
    assert.equal(kinds({ type: 'file', planId: 'p', uri: 'file:///x' }), 'file');
    assert.equal(kinds({ type: 'unknown', planId: 'p', rawType: '_intent', raw: {} }), 'intent');
    assert.equal(kinds({ type: 'unknown', planId: 'p', rawType: '_other', raw: {} }), 'unknown');
    // A plan the adapter could not read as a wire type stays unknown (its content is `raw`).
    assert.equal(kinds({ type: 'unknown', planId: 'p', rawType: 'items', raw: {} }), 'unknown');
    assert.equal(summarizePlan(1, { type: 'unknown', planId: 'p', rawType: 'markdown', raw: {} }).header, 'v1 — markdown plan');
  });

  it('registers distinct wire types, and one fallback', () => {
    const wire = Object.values(PLAN_TYPES).map((t) => t.wireType);
    assert.equal(wire.filter((w) => w === undefined).length, 1);
    assert.equal(new Set(wire).size, wire.length);
  });

  it('derives the outline of a markdown plan once, with the view', () => {
    const v = viewPlan({ type: 'markdown', planId: 'm', content: '# H\n- [x] a\n- [ ] b' });
    assert.equal(v.kind, 'markdown');
    assert.equal(v.kind === 'markdown' && v.data.tasks, 2);
    assert.equal(summarizePlan(1, { type: 'unknown', planId: 'i', rawType: '_intent', raw: {} }).header, 'v1 — _intent plan');
  });

  it('cuts nothing that fits', () => {
    assert.equal(limitPlan({ type: 'markdown', planId: 'm', content: 'short' }, 1024), undefined);
    assert.equal(limitPlan({ type: 'file', planId: 'f', uri: 'file:///x' }, 1024), undefined);
    assert.deepEqual(limitPlan({ type: 'file', planId: 'f', uri: 'file:///' + 'x'.repeat(2000) }, 1024)?.plan, { type: 'file', planId: 'f', uri: '' });
  });
});
