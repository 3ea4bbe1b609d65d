// The tree side of `file` plans: the file's outline once FilePlanSync (tree/filePlans.ts) has read
// it, or a row that says why it is not shown (loading, not found, refused; a file outside the
// workspace is not read, and its row offers to open it). Open Plan opens the file itself, wherever
// it is (the user asked), but only a regular file and never a system file.
import * as vscode from 'vscode';
import { decidePlanFile } from '../../state/planFileUri';
import type { PlanRecord } from '../../state/planStore';
import { fileName, truncate } from '../../state/planSummary';
import { refOf } from '../planPick';
import { checkOpenable } from '../tree/planFileRead';
import { icon, planItem } from '../tree/treeItems';
import type { PlanRowContext, PlanTypeView } from './planTypeView';
import { outlineChildren, outlineCurrentStep, outlineInfo, outlineParentNode, outlineRowItem, type InfoText } from './rows';

function info(ctx: PlanRowContext, p: PlanRecord, uri: string): InfoText | undefined {
  const f = p.file;
  if (f?.error !== undefined) {
    if (f.offerOpen) {
      return {
        text: vscode.l10n.t('{0}. Click to open it anyway.', `${f.error.charAt(0).toUpperCase()}${f.error.slice(1)}`),
        warning: true,
        command: { title: vscode.l10n.t('Open Plan'), command: ctx.openPlanCommand, arguments: [refOf(p)] },
      };
    }
    return { text: vscode.l10n.t("Can't show {0}: {1}", uri, f.error), warning: true };
  }
  if (f?.text === undefined)
    return p.archived
      ? { text: vscode.l10n.t('{0} (not read for removed plans)', uri), warning: false }
      : { text: vscode.l10n.t('Loading {0}…', uri), warning: false };
  return outlineInfo(p.view.kind === 'file' ? p.view.data : undefined, vscode.l10n.t('No headings or checkboxes. Use "Open Plan" to read the file.'));
}

export const fileView: PlanTypeView<'file'> = {
  planItem(_ctx, node, p, v) {
    const error = p.file?.error;
    return planItem(node, p, {
      typeLabel: `file ${fileName(v.plan.uri)}`,
      icon: error ? icon('warning', 'list.warningForeground') : icon('file'),
      ...(error ? { detail: truncate(error, 40) } : {}),
      tooltip: [vscode.l10n.t('File: {0}', v.plan.uri)],
      facet: 'file',
    });
  },
  children: (ctx, node, p, v) => outlineChildren(ctx, node, v.data, info(ctx, p, v.plan.uri)),
  rowItem: (ctx, node, p, v) => outlineRowItem(node, v.data, info(ctx, p, v.plan.uri)),
  parent: (ctx, node, _p, v) => outlineParentNode(ctx, node, v.data),
  currentStep: (ctx, p, v) => outlineCurrentStep(ctx, refOf(p), v.data, p.summary.current?.index),
  open: (_ctx, p, v) => openFile(v.plan.uri, p.planId),
};

async function openFile(raw: string, planId: string): Promise<vscode.Uri | undefined> {
  // Any folder: the user asked for this file. The system trees and odd URIs stay refused.
  const decision = decidePlanFile(raw, 'anywhere', undefined, vscode.l10n);
  if (!decision.ok) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Plan {0} points to {1}, which is not opened: {2}.', planId, truncate(raw, 200), decision.reason.replace(/^(refused|not read): /, '')),
    );
    return undefined;
  }
  const check = await checkOpenable(decision.path, vscode.l10n);
  if (!check.ok) {
    const text = vscode.l10n.t('The file of plan {0} ({1}) cannot be opened: {2}.', planId, decision.path, check.reason);
    void vscode.window.showErrorMessage(check.reason === 'not found' ? `${text} ${vscode.l10n.t('The agent may not have written it yet.')}` : text);
    return undefined;
  }
  const target = vscode.Uri.file(check.path);
  await vscode.window.showTextDocument(target, { preview: true });
  return target;
}
