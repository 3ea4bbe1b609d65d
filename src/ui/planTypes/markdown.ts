// The tree side of `markdown` plans: the outline (headings with their progress, task checkboxes,
// nested as written), parsed once per revision by the store; opened in the Markdown preview.
import * as vscode from 'vscode';
import { icon, planItem } from '../tree/treeItems';
import type { PlanTypeView } from './planTypeView';
import { outlineChildren, outlineCurrentStep, outlineInfo, outlineParentNode, outlineRowItem } from './rows';
import { refOf } from '../planPick';
import type { MarkdownOutline } from '../../state/markdownOutline';

const empty = (): string => vscode.l10n.t('No headings or checkboxes. Use "Open Plan" to read it.');

export const markdownView: PlanTypeView<'markdown'> = {
  planItem: (_ctx, node, p, v) =>
    planItem(node, p, {
      typeLabel: 'markdown',
      icon: icon('markdown'),
      facet: p.plan.type === 'markdown' && p.plan.path ? 'markdown:file' : 'markdown',
      title: firstHeading(v.data),
      tooltip:
        p.plan.type === 'markdown' && p.plan.path
          ? [vscode.l10n.t('File: {0} ("Open Plan File" when it is in the workspace)', p.plan.path.slice(0, 500))]
          : undefined,
    }),
  children: (ctx, node, _p, v) => outlineChildren(ctx, node, v.data, outlineInfo(v.data, empty())),
  rowItem: (_ctx, node, _p, v) => outlineRowItem(node, v.data, outlineInfo(v.data, empty())),
  parent: (ctx, node, _p, v) => outlineParentNode(ctx, node, v.data),
  currentStep: (ctx, p, v) => outlineCurrentStep(ctx, refOf(p), v.data, p.summary.current?.index),
  open: (ctx, p) => ctx.previewMarkdown(p),
};

function firstHeading(outline: MarkdownOutline): string | undefined {
  for (const n of outline.flat) if (n.kind === 'heading' && n.text.trim()) return n.text;
  return undefined;
}
