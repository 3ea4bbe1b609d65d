// The tree side of `items` plans: one row per entry (its status icon, priority), "No steps yet."
// for an empty plan; opened as its Markdown checklist in the preview.
import type { PlanTreeNode } from '../tree/nodes';
import { entryItem, icon, infoItem, planItem } from '../tree/treeItems';
import { refOf } from '../planPick';
import type { PlanTypeView } from './planTypeView';

export const itemsView: PlanTypeView<'items'> = {
  planItem: (_ctx, node, p) => planItem(node, p, { typeLabel: 'items', icon: icon('checklist'), facet: 'items' }),
  children(ctx, node, _p, v) {
    if (node.kind !== 'plan') return [];
    const ref = node.ref;
    ctx.nodes.forgetStepsFrom(ref, v.plan.entries.length);
    return v.plan.entries.length ? v.plan.entries.map((_, i): PlanTreeNode => ctx.nodes.step(ref, i)) : [ctx.nodes.info(ref)];
  },
  rowItem(_ctx, node, _p, v) {
    if (node.kind === 'info') return infoItem(node, 'No steps yet.', false);
    const e = node.kind === 'step' ? v.plan.entries[node.index] : undefined;
    return e && node.kind === 'step' ? entryItem(node, e, node.index) : infoItem(node, '(gone)', false);
  },
  parent: (ctx, node) => ctx.nodes.plan(node.ref),
  currentStep(ctx, p) {
    const cur = p.summary.current;
    return cur ? ctx.nodes.step(refOf(p), cur.index) : undefined;
  },
  open: (ctx, p) => ctx.previewMarkdown(p),
};
