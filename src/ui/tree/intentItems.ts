// TreeItems of intent plans. The goal, the user, tool names and call titles come from the agent:
// they go into labels, descriptions and plain-string tooltips only. A plan is shown as verified
// only when its token is (`view.verified`). Facets: `plan:unknown:intent:<state>`,
// `intent:<part>`, `intent:step:<unused|used|exhausted>[:required]`.
import * as vscode from 'vscode';
import type { PlanRecord } from '../../state/planStore';
import { truncate } from '../../state/planSummary';
import {
  outsideDescription,
  stepDescription,
  stepTooltip,
  type ActiveIntentView,
  type IntentNodeView,
  type IntentStepView,
  type OutsideCallView,
  type UncheckedCallView,
} from '../../app/intent/intentView';
import type { IntentNode, PlanTreeNode } from './nodes';
import { LABEL_MAX, icon, planItem } from './treeItems';

const C = vscode.TreeItemCollapsibleState;

function row(node: PlanTreeNode, label: string, collapsible = C.None): vscode.TreeItem {
  const t = new vscode.TreeItem(label || ' ', collapsible);
  t.id = node.id;
  return t;
}

/** The plan node of an `_intent` plan: `intent · verified (kid demo-1, 54 min left)`. */
export function intentPlanItem(node: PlanTreeNode, p: PlanRecord, view: IntentNodeView): vscode.TreeItem {
  const rawType = p.plan.type === 'unknown' ? p.plan.rawType : p.plan.type;
  const t = planItem(node, p, { typeLabel: truncate(rawType, 30), icon: icon('json'), collapsed: true, stableId: true, facet: 'unknown' });
  if (view.kind === 'inactive') {
    t.description = `intent · ${view.stateText}`;
    t.iconPath = icon('circle-slash', 'disabledForeground');
    t.tooltip = `${vscode.l10n.t('Intent plan {0}', p.planId)}\n${view.detail}`;
    t.contextValue = 'plan:unknown:intent:inactive';
    return t;
  }
  const outside = view.outside.length;
  const outsideText = outside === 1 ? vscode.l10n.t('1 call outside the plan') : vscode.l10n.t('{0} calls outside the plan', outside);
  t.description = `intent · ${view.stateText}${outside ? ` · ${outsideText}` : ''}`;
  t.collapsibleState = C.Expanded;
  t.iconPath = stateIcon(view);
  t.tooltip = [
    vscode.l10n.t('Intent plan {0}', p.planId),
    view.source ? vscode.l10n.t('Declared by {0}', view.source) : undefined,
    vscode.l10n.t('Token: {0}. {1}', view.stateText, view.detail),
    view.expiresAt ? vscode.l10n.t('Expires: {0}', view.expiresAt.toLocaleString()) : undefined,
    view.verified ? undefined : vscode.l10n.t('The goal, the user and the steps are as the agent declared them: no verified token backs them.'),
    vscode.l10n.t('Goal: {0}', view.goal),
    vscode.l10n.t('For: {0}', view.user),
    ...(view.claims?.length
      ? [view.claimsVerified ? vscode.l10n.t('Signed claims:') : vscode.l10n.t('Token claims (as written, not verified):'), ...view.claims.map((c) => `  ${c}`)]
      : []),
    keysLine(view),
    ...view.warnings,
  ]
    .filter(Boolean)
    .join('\n');
  t.contextValue = `plan:unknown:intent:${view.state}`;
  return t;
}

function stateIcon(view: ActiveIntentView): vscode.ThemeIcon {
  switch (view.state) {
    case 'verified':
      return icon('verified-filled', 'testing.iconPassed');
    case 'checking':
      return icon('loading~spin');
    case 'expired':
      return icon('history', 'list.warningForeground');
    case 'unverified':
    case 'unknown_key':
      return icon('unverified', 'list.warningForeground');
    default:
      return icon('error', 'errorForeground');
  }
}

function keysLine(view: ActiveIntentView): string | undefined {
  switch (view.keys.state) {
    case 'loaded':
      return vscode.l10n.t('Keys: {0} from {1}', view.keys.keyCount, view.keys.from);
    case 'error':
      return vscode.l10n.t('Keys: {0}', view.keys.error);
    case 'none':
      return vscode.l10n.t('Keys: none configured (setting acp.intent.jwks)');
    default:
      return undefined;
  }
}

/** The rows under an active intent plan, in order. */
export function intentRows(view: ActiveIntentView): { part: IntentNode['part']; key: string }[] {
  const out: { part: IntentNode['part']; key: string }[] = [
    { part: 'goal', key: '' },
    { part: 'user', key: '' },
  ];
  view.warnings.forEach((_, i) => out.push({ part: 'warning', key: String(i) }));
  view.steps.forEach((s) => out.push({ part: 'step', key: String(s.index) }));
  out.push({ part: 'outside', key: '' });
  if (view.unchecked.length) out.push({ part: 'unchecked', key: '' });
  if (view.missingRequired?.length) out.push({ part: 'missing', key: '' });
  return out;
}

export function intentRowItem(node: IntentNode, view: IntentNodeView | undefined): vscode.TreeItem {
  if (!view || view.kind !== 'active') return gone(node);
  switch (node.part) {
    case 'goal': {
      const t = row(node, vscode.l10n.t('Goal: {0}', truncate(view.goal, LABEL_MAX)));
      t.tooltip = vscode.l10n.t('Goal: {0}', view.goal);
      t.iconPath = icon('target');
      t.contextValue = 'intent:goal';
      return t;
    }
    case 'user':
      return userItem(node, view);
    case 'warning': {
      const text = view.warnings[Number(node.key)];
      return text === undefined ? gone(node) : warningItem(node, text);
    }
    case 'step': {
      const s = view.steps.find((x) => String(x.index) === node.key);
      return s ? stepItem(node, s) : gone(node);
    }
    case 'outside':
      return outsideItem(node, view);
    case 'call': {
      const c = view.outside.find((x) => x.toolCallId === node.key);
      return c ? callItem(node, c) : gone(node);
    }
    case 'unchecked':
      return uncheckedItem(node, view);
    case 'ucall': {
      const c = view.unchecked.find((x) => x.toolCallId === node.key);
      return c ? uncheckedCallItem(node, c) : gone(node);
    }
    case 'missing':
      return missingItem(node, view);
  }
}

function userItem(node: IntentNode, view: ActiveIntentView): vscode.TreeItem {
  const t = row(node, vscode.l10n.t('For: {0}', truncate(view.user, LABEL_MAX)));
  if (!view.verified) t.description = vscode.l10n.t('not confirmed by a verified token');
  t.tooltip = view.verified
    ? vscode.l10n.t('The person the agent acts for: {0} (the token was issued for this person)', view.user)
    : vscode.l10n.t('The person the agent acts for: {0} (as the agent says; no verified token confirms it)', view.user);
  t.iconPath = icon('person');
  t.contextValue = 'intent:user';
  return t;
}

function warningItem(node: IntentNode, text: string): vscode.TreeItem {
  const t = row(node, truncate(text, 120));
  t.tooltip = text;
  t.iconPath = icon('warning', 'list.warningForeground');
  t.contextValue = 'intent:warning';
  return t;
}

function outsideItem(node: IntentNode, view: ActiveIntentView): vscode.TreeItem {
  const n = view.outside.length;
  const t = row(node, vscode.l10n.t('Calls outside the plan'), n ? C.Expanded : C.None);
  t.description = n ? String(n) : vscode.l10n.t('none');
  t.tooltip = !n
    ? vscode.l10n.t('Every tool call so far was covered by the plan or could not be checked.')
    : n === 1
      ? vscode.l10n.t('1 tool call this plan does not cover (not_in_plan).')
      : vscode.l10n.t('{0} tool calls this plan does not cover (not_in_plan).', n);
  t.iconPath = n ? icon('warning', 'list.warningForeground') : icon('shield');
  t.contextValue = 'intent:outside';
  return t;
}

function uncheckedItem(node: IntentNode, view: ActiveIntentView): vscode.TreeItem {
  const n = view.unchecked.length;
  const t = row(node, vscode.l10n.t('Calls not checked'), n ? C.Expanded : C.None);
  t.description = String(n);
  t.tooltip =
    n === 1
      ? vscode.l10n.t('1 tool call the plan could not judge (each says why).')
      : vscode.l10n.t('{0} tool calls the plan could not judge (each says why).', n);
  t.iconPath = icon('question', 'list.warningForeground');
  t.contextValue = 'intent:unchecked';
  return t;
}

function uncheckedCallItem(node: IntentNode, c: UncheckedCallView): vscode.TreeItem {
  const t = row(node, truncate(c.title || vscode.l10n.t('Tool call {0}', c.toolCallId), LABEL_MAX));
  t.description = truncate(c.detail, LABEL_MAX);
  t.tooltip = [c.title, vscode.l10n.t('Not checked: {0}', c.detail), vscode.l10n.t('Tool call {0}', c.toolCallId)].filter(Boolean).join('\n');
  t.iconPath = icon('question');
  t.contextValue = 'intent:call:cannot_check';
  return t;
}

function missingItem(node: IntentNode, view: ActiveIntentView): vscode.TreeItem {
  const tools = view.missingRequired ?? [];
  const t = row(node, truncate(vscode.l10n.t('Required steps not run: {0}', tools.join(', ')), 120));
  t.tooltip = `${vscode.l10n.t('When the turn ended, these required steps had not run:')}\n${tools.map((x) => `  • ${x}`).join('\n')}`;
  t.iconPath = icon('warning', 'list.warningForeground');
  t.contextValue = 'intent:missing';
  return t;
}

function stepItem(node: IntentNode, s: IntentStepView): vscode.TreeItem {
  const t = row(node, truncate(s.tool, LABEL_MAX));
  t.description = stepDescription(s, vscode.l10n);
  t.tooltip = stepTooltip(s, vscode.l10n);
  t.iconPath = s.use === 'unused' ? icon('circle-outline') : s.use === 'used' ? icon('pass', 'testing.iconPassed') : icon('warning', 'list.warningForeground');
  t.contextValue = `intent:step:${s.use}${s.required ? ':required' : ''}`;
  t.accessibilityInformation = { label: `${s.tool}, ${stepDescription(s, vscode.l10n)}` };
  return t;
}

function callItem(node: IntentNode, c: OutsideCallView): vscode.TreeItem {
  const t = row(node, truncate(c.toolName, LABEL_MAX));
  t.description = outsideDescription(c, vscode.l10n);
  t.tooltip = [
    c.title ? `${c.title}` : undefined,
    vscode.l10n.t('Tool: {0}', c.toolName),
    vscode.l10n.t('Not in the plan: {0}', c.detail),
    vscode.l10n.t('Tool call {0}', c.toolCallId),
  ]
    .filter(Boolean)
    .join('\n');
  t.iconPath = icon('circle-slash', 'list.warningForeground');
  t.contextValue = 'intent:call:not_in_plan';
  return t;
}

function gone(node: IntentNode): vscode.TreeItem {
  const t = row(node, vscode.l10n.t('(gone)'));
  t.iconPath = icon('info');
  t.contextValue = 'info';
  return t;
}
