// The tree side of plans of a type this extension does not know: one row per top-level field
// (besides type and planId), collapsed; opened as the raw JSON the agent sent.
import { truncate } from '../../state/planSummary';
import { fieldItem, icon, infoItem, planItem } from '../tree/treeItems';
import type { PlanTypeView } from './planTypeView';

export const unknownView: PlanTypeView<'unknown' | 'intent'> = {
  planItem: (_ctx, node, p, v) =>
    planItem(node, p, { typeLabel: truncate(v.plan.rawType, 30), icon: icon('json'), collapsed: true, stableId: true, facet: 'unknown' }),
  children(ctx, node, _p, v) {
    if (node.kind !== 'plan') return [];
    const keys = Object.keys(v.plan.raw).filter((k) => k !== 'type' && k !== 'planId');
    return keys.length ? keys.map((k) => ctx.nodes.field(node.ref, k)) : [ctx.nodes.info(node.ref)];
  },
  rowItem(_ctx, node, _p, v) {
    if (node.kind === 'field') return fieldItem(node, node.key, v.plan.raw[node.key]);
    return infoItem(node, node.kind === 'info' ? 'No fields besides type and planId.' : '(gone)', false);
  },
  parent: (ctx, node) => ctx.nodes.plan(node.ref),
  currentStep: () => undefined,
  open: (ctx, p) => ctx.showRaw(p),
};
