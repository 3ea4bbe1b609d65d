// The tree side of every plan type, in one table keyed by the kinds of src/state/planTypes/: a
// kind registered there without a view here does not compile. The Plans tree, Reveal Current Step
// and Open Plan go through `planTypeView(p)` and never switch on a plan's type.
import type { PlanKind } from '../../state/planTypes';
import type { PlanRecord } from '../../state/planStore';
import { fileView } from './file';
import { intentView } from './intent';
import { itemsView } from './items';
import { markdownView } from './markdown';
import type { PlanOpenContext, PlanRowContext, PlanRowNode, PlanTypeView } from './planTypeView';
import { unknownView } from './unknown';
import type * as vscode from 'vscode';
import type { PlanNode, PlanTreeNode, StepNode } from '../tree/nodes';

export const PLAN_VIEWS: { readonly [K in PlanKind]: PlanTypeView<K> } = {
  items: itemsView,
  markdown: markdownView,
  file: fileView,
  intent: intentView,
  unknown: unknownView,
};

/** The views of one plan, bound to it and to its derived data. */
export interface BoundPlanView {
  planItem(ctx: PlanRowContext, node: PlanNode): vscode.TreeItem;
  children(ctx: PlanRowContext, node: PlanNode | PlanRowNode): PlanTreeNode[];
  rowItem(ctx: PlanRowContext, node: PlanRowNode): vscode.TreeItem;
  parent(ctx: PlanRowContext, node: PlanRowNode): PlanTreeNode;
  currentStep(ctx: PlanRowContext): StepNode | undefined;
  open(ctx: PlanOpenContext): Promise<vscode.Uri | undefined>;
}

export function planTypeView(p: PlanRecord): BoundPlanView {
  const v = p.view;
  // The one join of a record's kind to its view: `v.kind` names the entry `v` was derived for.
  const t = PLAN_VIEWS[v.kind] as unknown as PlanTypeView<typeof v.kind>;
  const data = v as never;
  return {
    planItem: (ctx, node) => t.planItem(ctx, node, p, data),
    children: (ctx, node) => t.children(ctx, node, p, data),
    rowItem: (ctx, node) => t.rowItem(ctx, node, p, data),
    parent: (ctx, node) => t.parent(ctx, node, p, data),
    currentStep: (ctx) => t.currentStep(ctx, p, data),
    open: (ctx) => t.open(ctx, p, data),
  };
}
