// The tree side of `_intent` plans: the verification on the plan's row, then the goal, the user,
// warnings, the steps with their usage and the calls outside the plan (rows of intentItems.ts).
// Without an intent source, or for a plan the source does not know, it is shown as an unknown type;
// a plan that is not the one enforced (inactive) says so on its row and shows its fields.
import { lazyModule } from '../../common/lazy';
import type { PlanRecord } from '../../state/planStore';
import type { IntentNodeView } from '../../app/intent/intentView';
import { refOf } from '../planPick';
import type { IntentNode, PlanTreeNode } from '../tree/nodes';
import type * as IntentItems from '../tree/intentItems';
import type { PlanRowContext, PlanTypeView } from './planTypeView';
import { unknownView } from './unknown';

/**
 * The rows of an intent plan (intentItems.ts): in the extension bundle dist/intent-tree.js, loaded
 * the first time an intent plan is shown (an intent plan only has a view once the intent checker
 * is loaded, see src/app/intentFeature.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
const items = lazyModule('intent-tree.js', () => require('../tree/intentItems') as typeof IntentItems);

function viewOf(ctx: PlanRowContext, p: PlanRecord): IntentNodeView | undefined {
  return ctx.intent?.view(refOf(p));
}

export const intentView: PlanTypeView<'intent'> = {
  planItem(ctx, node, p, v) {
    const view = viewOf(ctx, p);
    if (!view) return unknownView.planItem(ctx, node, p, v);
    return items().intentPlanItem(node, p, view);
  },
  children(ctx, node, p, v) {
    const view = viewOf(ctx, p);
    // Not the enforced plan (or no intent source): its fields, as for any unknown type.
    if (view?.kind !== 'active') return node.kind === 'intent' ? [] : unknownView.children(ctx, node, p, v);
    const ref = node.ref;
    if (node.kind === 'intent') {
      if (node.part === 'outside') return view.outside.map((c) => ctx.nodes.intent(ref, 'call', c.toolCallId));
      return node.part === 'unchecked' ? view.unchecked.map((c) => ctx.nodes.intent(ref, 'ucall', c.toolCallId)) : [];
    }
    if (node.kind !== 'plan') return [];
    const rows = items()
      .intentRows(view)
      .map((r) => ctx.nodes.intent(ref, r.part, r.key));
    const calls = [
      ...view.outside.map((c) => ctx.nodes.intent(ref, 'call', c.toolCallId)),
      ...view.unchecked.map((c) => ctx.nodes.intent(ref, 'ucall', c.toolCallId)),
    ];
    ctx.nodes.forgetIntentRowsExcept(ref, new Set([...rows, ...calls].map((n) => n.id)));
    return rows satisfies IntentNode[] as PlanTreeNode[];
  },
  rowItem(ctx, node, p, v) {
    const view = viewOf(ctx, p);
    if (node.kind === 'intent') return items().intentRowItem(node, view);
    return unknownView.rowItem(ctx, node, p, v);
  },
  parent(ctx, node) {
    if (node.kind === 'intent' && node.part === 'call') return ctx.nodes.intent(node.ref, 'outside');
    return node.kind === 'intent' && node.part === 'ucall' ? ctx.nodes.intent(node.ref, 'unchecked') : ctx.nodes.plan(node.ref);
  },
  currentStep: () => undefined,
  open: (ctx, p) => ctx.showRaw(p),
};
