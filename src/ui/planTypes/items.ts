// The tree side of `items` plans: one row per entry (its status icon, priority, the id and note
// the agent sent in `_meta`), "No steps yet." for an empty plan; past `foldDoneStepsAfter` steps
// the oldest done ones fold into one "+N done steps" row (collapsed, expands on demand). Opened as
// its Markdown checklist in the preview.
import { foldedSteps } from '../../state/planFold';
import type { PlanEntry } from '../../protocol/domain';
import type { PlanTreeNode } from '../tree/nodes';
import { entryItem, foldItem, icon, infoItem, planItem } from '../tree/treeItems';
import { refOf } from '../planPick';
import type { PlanRowContext, PlanTypeView } from './planTypeView';

function folded(ctx: PlanRowContext, entries: readonly PlanEntry[]): number[] {
  return foldedSteps(
    entries.map((e) => e.status),
    ctx.foldDoneStepsAfter?.() ?? 0,
  );
}

export const itemsView: PlanTypeView<'items'> = {
  planItem: (_ctx, node, p) => planItem(node, p, { typeLabel: 'items', icon: icon('checklist'), facet: 'items' }),
  children(ctx, node, _p, v) {
    const ref = node.ref;
    const fold = folded(ctx, v.plan.entries);
    if (node.kind === 'fold') return fold.map((i) => ctx.nodes.step(ref, i));
    if (node.kind !== 'plan') return [];
    ctx.nodes.forgetStepsFrom(ref, v.plan.entries.length);
    if (!v.plan.entries.length) return [ctx.nodes.info(ref)];
    if (!fold.length) return v.plan.entries.map((_, i): PlanTreeNode => ctx.nodes.step(ref, i));
    const hidden = new Set(fold);
    const out: PlanTreeNode[] = [];
    v.plan.entries.forEach((_, i) => {
      if (i === fold[0]) out.push(ctx.nodes.fold(ref));
      if (!hidden.has(i)) out.push(ctx.nodes.step(ref, i));
    });
    return out;
  },
  rowItem(ctx, node, _p, v) {
    if (node.kind === 'info') return infoItem(node, 'No steps yet.', false);
    if (node.kind === 'fold') return foldItem(node, folded(ctx, v.plan.entries).length);
    const e = node.kind === 'step' ? v.plan.entries[node.index] : undefined;
    return e && node.kind === 'step' ? entryItem(node, e, node.index) : infoItem(node, '(gone)', false);
  },
  parent: (ctx, node, _p, v) =>
    node.kind === 'step' && folded(ctx, v.plan.entries).includes(node.index) ? ctx.nodes.fold(node.ref) : ctx.nodes.plan(node.ref),
  currentStep(ctx, p) {
    const cur = p.summary.current;
    return cur ? ctx.nodes.step(refOf(p), cur.index) : undefined;
  },
  open: (ctx, p) => ctx.previewMarkdown(p),
};
