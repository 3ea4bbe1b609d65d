// Rows that several plan types share: an info row, a refPlan helper, and the rows of a Markdown
// outline (markdown plans and loaded file plans).
import * as vscode from 'vscode';
import { outlineParent, outlineTasks, type MarkdownOutline } from '../../state/markdownOutline';
import type { PlanRef } from '../../state/planStore';
import type { PlanNode, PlanTreeNode, StepNode } from '../tree/nodes';
import { infoItem, mdItem } from '../tree/treeItems';
import type { PlanRowContext, PlanRowNode } from './planTypeView';

export interface InfoText {
  readonly text: string;
  readonly warning: boolean;
  readonly command?: vscode.Command;
}

export function planRef(node: PlanNode | PlanRowNode): PlanRef {
  return node.ref;
}

/** Children of an outline's plan node (the info row first when there is one) or of one of its rows. */
export function outlineChildren(ctx: PlanRowContext, node: PlanNode | PlanRowNode, o: MarkdownOutline | undefined, info: InfoText | undefined): PlanTreeNode[] {
  const ref = node.ref;
  if (node.kind === 'step') {
    const md = o?.flat[node.index];
    return md ? md.children.map((c) => ctx.nodes.step(ref, c.index)) : [];
  }
  if (node.kind !== 'plan') return [];
  if (o) ctx.nodes.forgetStepsFrom(ref, o.flat.length);
  const out: PlanTreeNode[] = info ? [ctx.nodes.info(ref)] : [];
  return out.concat((o?.roots ?? []).map((r) => ctx.nodes.step(ref, r.index)));
}

export function outlineRowItem(node: PlanRowNode, o: MarkdownOutline | undefined, info: InfoText | undefined): vscode.TreeItem {
  if (node.kind === 'info') return infoRow(node, info);
  const md = node.kind === 'step' ? o?.flat[node.index] : undefined;
  return md ? mdItem(node, md) : infoItem(node, vscode.l10n.t('(gone)'), false);
}

export function outlineParentNode(ctx: PlanRowContext, node: PlanRowNode, o: MarkdownOutline | undefined): PlanTreeNode {
  const parent = node.kind === 'step' && o ? outlineParent(o, node.index) : undefined;
  return parent ? ctx.nodes.step(node.ref, parent.index) : ctx.nodes.plan(node.ref);
}

/** The task row of the current step (the first unchecked task), when it is kept in the outline. */
export function outlineCurrentStep(ctx: PlanRowContext, ref: PlanRef, o: MarkdownOutline | undefined, taskIndex: number | undefined): StepNode | undefined {
  if (!o || taskIndex === undefined) return undefined;
  const task = outlineTasks(o)[taskIndex];
  return task ? ctx.nodes.step(ref, task.index) : undefined;
}

/** What an outline with nothing to show, or with rows left out, says. */
export function outlineInfo(o: MarkdownOutline | undefined, empty: string): InfoText | undefined {
  if (!o) return undefined;
  if (o.flat.length === 0) return { text: empty, warning: false };
  if (o.omitted) return { text: vscode.l10n.t('{0} more headings and checkboxes are not shown. Use "Open Plan" to read it all.', o.omitted), warning: false };
  return undefined;
}

export function infoRow(node: PlanRowNode, info: InfoText | undefined): vscode.TreeItem {
  const t = infoItem(node, info?.text ?? '', info?.warning ?? false);
  if (info?.command) t.command = info.command;
  return t;
}
