// TreeItems of the Plans tree. Agent text goes into labels, descriptions and plain-string
// tooltips only (never trusted Markdown, never a command link). `contextValue` carries facets
// that menus match with `=~`: `agent:<status>`, `session[:active][:attention][:closed]`,
// `plan:<items|markdown|file|unknown>[:done][:archived]`, `archive`, `entry:<status|custom>[:md]`,
// `heading`, `field`, `info`.
import * as vscode from 'vscode';
import { isImportedAgent } from '../../common/pseudoAgents';
import type { PlanEntry } from '../../protocol/domain';
import type { MdNode } from '../../state/markdownOutline';
import { taskProgress } from '../../state/markdownOutline';
import type { PlanRecord } from '../../state/planStore';
import { stepMeta } from '../../state/stepMeta';
import { blockedCount, KNOWN_STATUSES, statusLabel, truncate } from '../../state/planSummary';
import type { AgentState, SessionState } from '../../state/sessionStore';
import type { PlanTreeNode, ProblemNode } from './nodes';
import { planLabel } from './planLabel';
import { agentStatusWords } from './rowSentences';
import { sessionEndedWords } from '../sessionEndWords';

export const LABEL_MAX = 80;

const C = vscode.TreeItemCollapsibleState;

function item(node: PlanTreeNode, label: string, collapsible: vscode.TreeItemCollapsibleState): vscode.TreeItem {
  const t = new vscode.TreeItem(label || ' ', collapsible);
  t.id = node.id;
  return t;
}

export function icon(id: string, color?: string): vscode.ThemeIcon {
  return new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
}

/** What the tree shows besides an agent's state: traffic recording, replayed recordings (src/recording). */
export interface AgentMarks {
  isRecording(agentId: string): boolean;
  isReplay(agentId: string): boolean;
  /** An agent's marks changed (its id). */
  readonly onDidChangeMarks: vscode.Event<string>;
}

export function agentItem(node: PlanTreeNode, a: AgentState | undefined, fallbackId: string, marks?: AgentMarks): vscode.TreeItem {
  const status = a?.status ?? 'gone';
  const recording = marks?.isRecording(fallbackId) === true;
  const replay = marks?.isReplay(fallbackId) === true;
  const imported = isImportedAgent(fallbackId);
  // Always Expanded (a leaf while empty): VS Code keeps an item collapsed once it was shown as None.
  const t = item(node, truncate(a?.name ?? fallbackId, LABEL_MAX), C.Expanded);
  const version = a?.protocolVersion ? `v${a.protocolVersion}` : undefined;
  t.description = [
    version,
    replay ? undefined : imported ? vscode.l10n.t('read-only') : agentStatusWords(status, vscode.l10n),
    a?.detail ? truncate(a.detail, 60) : undefined,
    recording ? vscode.l10n.t('recording') : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
  t.iconPath = replay || imported ? icon('history') : agentIcon(status);
  t.tooltip = [
    vscode.l10n.t('Agent {0} ({1})', a?.name ?? fallbackId, fallbackId),
    vscode.l10n.t('Protocol: {0}', version ?? vscode.l10n.t('not negotiated yet')),
    vscode.l10n.t('Status: {0}', agentStatusWords(status, vscode.l10n)),
    a?.detail ? vscode.l10n.t('Detail: {0}', a.detail) : undefined,
    recording ? vscode.l10n.t('Recording its traffic (ACP: Record Agent Traffic stops it).') : undefined,
    replay ? vscode.l10n.t('A recording played back: read-only, nothing is sent to any agent.') : undefined,
    imported ? vscode.l10n.t('Sessions imported from a file: read-only, never resumed on an agent, never reverted.') : undefined,
  ]
    .filter(Boolean)
    .join('\n');
  // A replay or an import is no agent: none of the agent menus apply.
  t.contextValue = replay ? 'replay' : imported ? 'imported' : `agent:${facet(status)}${recording ? ':recording' : ''}`;
  return t;
}

function agentIcon(status: string): vscode.ThemeIcon {
  switch (status) {
    case 'starting':
    case 'stopping':
      return icon('loading~spin');
    case 'restarting':
      return icon('sync~spin', 'list.warningForeground');
    case 'running':
      return icon('vm-running', 'testing.iconPassed');
    case 'crashed':
    case 'failed':
      return icon('error', 'errorForeground');
    case 'stopped':
    case 'gone':
      return icon('debug-stop', 'disabledForeground');
    default:
      return icon('vm');
  }
}

/** A rejected `acp.agents` entry: the reason in the label and tooltip; a click opens the setting. */
export function problemItem(node: ProblemNode): vscode.TreeItem {
  const t = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
  t.id = node.id;
  t.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
  t.tooltip = node.text;
  t.contextValue = 'configProblem';
  t.command = { command: 'workbench.action.openSettings', title: vscode.l10n.t('Open Settings'), arguments: ['acp.agents'] };
  return t;
}

export function sessionItem(node: PlanTreeNode, s: SessionState | undefined, sessionId: string, active: boolean, hasPlans: boolean): vscode.TreeItem {
  // Untitled sessions: a short, readable label (the full id is in the tooltip). A stored session
  // (from an earlier window) starts folded unless it is the active one: after a reload the tree
  // lists the history without unfolding every old plan.
  const t = item(
    node,
    truncate(s?.title || vscode.l10n.t('Session {0}', sessionId.replace(/^sess_/, '').slice(0, 8)), LABEL_MAX),
    s && !s.live && !active ? C.Collapsed : C.Expanded,
  );
  const pending = (s?.pendingPermissions.length ?? 0) + (s?.pendingElicitations ?? 0);
  const attention = !!s && (pending > 0 || s.turnState === 'requires_action');
  const state = !s
    ? vscode.l10n.t('closed')
    : s.ended
      ? vscode.l10n.t('ended (read-only)')
      : attention
        ? pending > 1
          ? vscode.l10n.t('waiting for you ({0})', pending)
          : vscode.l10n.t('waiting for you')
        : s.turnState === 'idle' && s.stopReason
          ? vscode.l10n.t('idle ({0})', truncate(s.stopReason, 30))
          : truncate(turnWords(s.turnState), 30);
  t.description = active ? `${state} · ${vscode.l10n.t('active')}` : state;
  t.iconPath = !s
    ? icon('circle-slash', 'disabledForeground')
    : s.ended
      ? icon('debug-disconnect', 'disabledForeground')
      : attention
        ? icon('bell', 'list.warningForeground')
        : s.turnState === 'running'
          ? icon('loading~spin')
          : icon('comment-discussion');
  t.tooltip = [
    vscode.l10n.t('Session {0}', sessionId),
    s?.title ? vscode.l10n.t('Title: {0}', s.title) : undefined,
    s?.cwd ? vscode.l10n.t('Folder: {0}', s.cwd) : undefined,
    vscode.l10n.t('Turn: {0}', state),
    s?.error ? vscode.l10n.t('Error: {0} ({1})', s.error.message, s.error.code) : undefined,
    s?.ended ? sessionEndedWords(s.ended, vscode.l10n) : undefined,
    hasPlans ? undefined : vscode.l10n.t('No plan yet.'),
  ]
    .filter(Boolean)
    .join('\n');
  t.contextValue = ['session', active ? 'active' : '', attention ? 'attention' : '', s ? '' : 'closed', s && !s.live ? 'detached' : '', s?.ended ? 'ended' : '']
    .filter(Boolean)
    .join(':');
  return t;
}

export function archiveItem(node: PlanTreeNode, count: number, dropped = 0): vscode.TreeItem {
  const t = item(node, vscode.l10n.t('Archived'), C.Collapsed);
  const removed = count === 1 ? vscode.l10n.t('1 removed plan') : vscode.l10n.t('{0} removed plans', count);
  t.description = dropped ? `${removed} · ${vscode.l10n.t('{0} older dropped', dropped)}` : removed;
  t.iconPath = icon('archive');
  const kept = vscode.l10n.t('Plans the agent removed (plan_removed). They are kept here with their history.');
  t.tooltip = dropped
    ? `${kept}\n${
        dropped === 1
          ? vscode.l10n.t('1 older removed plan was dropped to keep the archive within its size and count limits.')
          : vscode.l10n.t('{0} older removed plans were dropped to keep the archive within its size and count limits.', dropped)
      }`
    : kept;
  t.contextValue = 'archive';
  return t;
}

/** How a plan type shows its plan row (see src/ui/planTypes/). */
export interface PlanLook {
  /** First part of the description: the type's name (`items`, `file plan.md`, `_intent`). */
  readonly typeLabel: string;
  /** The icon while the plan is not all done. */
  readonly icon: vscode.ThemeIcon;
  /** Starts collapsed even while in progress (a plan without steps). */
  readonly collapsed?: boolean;
  /** Keeps its id when resolved (the `#done` id collapses a finished plan once). */
  readonly stableId?: boolean;
  /** Added to the description after the step counts (a file error). */
  readonly detail?: string;
  /** Added to the tooltip after the type line. */
  readonly tooltip?: readonly (string | undefined)[];
  /** A title from the plan's content (a Markdown plan's first heading), used when the planId is a machine id. */
  readonly title?: string;
  /** The type facet of `contextValue` (`plan:<facet>`). */
  readonly facet: string;
}

export function planItem(node: PlanTreeNode, p: PlanRecord, look: PlanLook): vscode.TreeItem {
  const s = p.summary;
  const typeName = p.plan.type === 'unknown' ? p.plan.rawType : p.plan.type;
  const collapsed = s.resolved || p.archived !== undefined || look.collapsed === true;
  const t = item(node, truncate(planLabel(p.planId, look.title), LABEL_MAX), collapsed ? C.Collapsed : C.Expanded);
  // VS Code keeps the expansion a node had under the same id; a finished plan gets its own id
  // so it collapses when it completes (the element, its children and getParent are unchanged).
  if (s.resolved && !look.stableId) t.id = `${node.id}#done`;
  const parts = [look.typeLabel];
  if (s.total > 0) parts.push(`${s.done}/${s.total}`);
  // The blocked count is always there while steps are open ("0 blocked" included).
  if (s.total > 0 && !s.allDone) parts.push(vscode.l10n.t('{0} blocked', blockedCount(s.counts)));
  if (look.detail) parts.push(look.detail);
  if (s.current && !p.archived) parts.push(truncate(s.current.content, 50));
  if (p.archived) parts.push(vscode.l10n.t('removed {0}', new Date(p.archived.removedAt).toLocaleTimeString()));
  t.description = parts.join(' · ');
  t.iconPath = s.allDone ? icon('pass', 'testing.iconPassed') : look.icon;
  const truncated = p.revisions.at(-1)?.truncated;
  t.tooltip = [
    vscode.l10n.t('Plan {0}', p.planId),
    s.header,
    vscode.l10n.t('Type: {0}', typeName),
    ...(look.tooltip ?? []),
    s.current ? vscode.l10n.t('Now: {0}', truncate(s.current.content, 300)) : undefined,
    truncated ? vscode.l10n.t('Truncated: {0} left out (over the size cap)', truncated) : undefined,
    vscode.l10n.t('Updated: {0}', new Date(p.updatedAt).toLocaleString()),
    p.droppedRevisions
      ? vscode.l10n.t('Revisions kept: {0} ({1} older dropped)', p.revisions.length, p.droppedRevisions)
      : vscode.l10n.t('Revisions kept: {0}', p.revisions.length),
    p.archived ? vscode.l10n.t('Removed by the agent: {0}', new Date(p.archived.removedAt).toLocaleString()) : undefined,
  ]
    .filter(Boolean)
    .join('\n');
  t.contextValue = `plan:${look.facet}${s.resolved ? ':done' : ''}${p.archived ? ':archived' : ''}`;
  return t;
}

export function entryItem(node: PlanTreeNode, e: PlanEntry, index: number): vscode.TreeItem {
  const t = item(node, truncate(e.content, LABEL_MAX) || vscode.l10n.t('(empty step)'), C.None);
  const known = KNOWN_STATUSES.includes(e.status);
  const m = stepMeta(e._meta);
  t.description = [m.id, known ? undefined : truncate(e.status, 30), truncate(e.priority, 20), m.note && truncate(m.note, 60)].filter(Boolean).join(' · ');
  t.iconPath = statusIcon(e.status);
  const said = statusName(e.status);
  t.tooltip = [
    `${e.content}\n`,
    [
      m.id ? vscode.l10n.t('Step {0} (id {1})', index + 1, m.id) : vscode.l10n.t('Step {0}', index + 1),
      vscode.l10n.t('Status: {0}', known ? said : `${said} (${e.status})`),
      vscode.l10n.t('Priority: {0}', e.priority),
    ].join(' · '),
    ...(m.note ? [vscode.l10n.t('Note: {0}', m.note)] : []),
  ].join('\n');
  t.contextValue = `entry:${known ? e.status : 'custom'}`;
  t.accessibilityInformation = { label: `${truncate(e.content, 200)}, ${said}, ${vscode.l10n.t('priority {0}', e.priority)}` };
  return t;
}

/** The "+N done steps" row of a long plan: collapsed, its children are the folded steps. */
export function foldItem(node: PlanTreeNode, count: number): vscode.TreeItem {
  const t = item(node, count === 1 ? vscode.l10n.t('+1 done step') : vscode.l10n.t('+{0} done steps', count), C.Collapsed);
  t.iconPath = icon('fold', 'testing.iconPassed');
  t.tooltip = vscode.l10n.t(
    'The {0} oldest done steps, folded so this long plan stays readable (setting acp.plans.foldDoneStepsAfter). Expand to see them.',
    count,
  );
  t.contextValue = 'fold';
  return t;
}

export function statusIcon(status: string): vscode.ThemeIcon {
  switch (status) {
    case 'pending':
      return icon('circle-outline');
    case 'in_progress':
      return icon('sync~spin', 'charts.blue');
    case 'completed':
      return icon('pass', 'testing.iconPassed');
    case 'cancelled':
      return icon('circle-slash', 'disabledForeground');
    default:
      return icon('primitive-dot');
  }
}

export function mdItem(node: PlanTreeNode, n: MdNode): vscode.TreeItem {
  if (n.kind === 'heading') {
    const t = item(node, truncate(n.text, LABEL_MAX) || vscode.l10n.t('(untitled section)'), n.children.length ? C.Expanded : C.None);
    const pr = taskProgress(n);
    if (pr.total) t.description = `${pr.done}/${pr.total}`;
    t.iconPath = icon('list-unordered');
    t.tooltip = `${'#'.repeat(n.level)} ${n.text}`;
    t.contextValue = 'heading';
    return t;
  }
  const status = n.checked ? 'completed' : 'pending';
  const t = item(node, truncate(n.text, LABEL_MAX) || vscode.l10n.t('(empty item)'), n.children.length ? C.Expanded : C.None);
  t.iconPath = statusIcon(status);
  t.tooltip = `${n.text}\n\n${n.checked ? vscode.l10n.t('Checked (line {0})', n.line + 1) : vscode.l10n.t('Not checked (line {0})', n.line + 1)}`;
  t.contextValue = `entry:${status}:md`;
  const text = truncate(n.text, 200) || vscode.l10n.t('empty');
  t.accessibilityInformation = {
    label: n.checked ? vscode.l10n.t('Checklist item {0}, checked', text) : vscode.l10n.t('Checklist item {0}, not checked', text),
  };
  return t;
}

export function fieldItem(node: PlanTreeNode, key: string, value: unknown): vscode.TreeItem {
  const t = item(node, truncate(key, LABEL_MAX), C.None);
  const json = JSON.stringify(value) ?? 'undefined';
  t.description = truncate(json, LABEL_MAX);
  const pretty = JSON.stringify(value, null, 2) ?? 'undefined';
  t.tooltip = `${key}:\n${pretty.length > 2000 ? pretty.slice(0, 2000) + '\n…' : pretty}`;
  t.iconPath = icon('symbol-field');
  t.contextValue = 'field';
  return t;
}

export function infoItem(node: PlanTreeNode, text: string, warning: boolean): vscode.TreeItem {
  const t = item(node, truncate(text, 120), C.None);
  t.tooltip = text;
  t.iconPath = warning ? icon('warning', 'list.warningForeground') : icon('info');
  t.contextValue = 'info';
  return t;
}

/** A step's status as the tooltip names it (statusLabel; the known ones translated). */
function statusName(status: string): string {
  switch (status) {
    case 'pending':
      return vscode.l10n.t('pending');
    case 'in_progress':
      return vscode.l10n.t('in progress');
    case 'completed':
      return vscode.l10n.t('completed');
    case 'cancelled':
      return vscode.l10n.t('cancelled');
    default:
      return statusLabel(status);
  }
}

/** A turn state in words (an unknown one as sent, its underscores as spaces). */
function turnWords(state: string): string {
  switch (state) {
    case 'running':
      return vscode.l10n.t('running');
    case 'idle':
      return vscode.l10n.t('idle');
    case 'requires_action':
      return vscode.l10n.t('requires action');
    default:
      return state.replace(/_/g, ' ');
  }
}

function facet(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, '_') || 'unknown';
}
