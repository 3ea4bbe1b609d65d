// Tree rows for subagents and background work: a background row per terminal, tool call or
// unknown item a session lists in its `background` snapshot, and what a child session row adds
// (subagent, background, cancellable). Agent text goes into labels, descriptions and plain-string
// tooltips only. `contextValue`: `background:<terminal|tool_call|unknown>[:cancellable]`; a child
// session row appends `:subagent[:background][:cancellable]` to its session facets.
import * as vscode from 'vscode';
import type { BackgroundWork } from '../../protocol/domain';
import { truncate } from '../../state/planSummary';
import { sessionKey, type SessionState } from '../../state/sessionStore';
import type { Transcript } from '../../state/transcript';
import { toolCallItemId } from '../../state/transcript/ids';
import { canCancel } from '../../state/subagentState';
import type { PlanTreeNode } from './nodes';
import { icon, LABEL_MAX } from './treeItems';

/** Where background rows find a readable name. */
export type BackgroundNameSource = Pick<Transcript, 'session'>;

/** A terminal's command or a tool call's title, as the transcript has it. */
export function backgroundName(source: BackgroundNameSource | undefined, agentId: string, sessionId: string, item: BackgroundWork): string | undefined {
  const t = source?.session(sessionKey(agentId, sessionId));
  if (!t) return undefined;
  if (item.type === 'terminal') return t.terminal(item.terminalId)?.command ?? undefined;
  if (item.type !== 'tool_call') return undefined;
  const call = t.item(toolCallItemId(item.toolCallId));
  return call?.kind === 'tool_call' ? (call.title ?? call.name ?? undefined) : undefined;
}

/** What a background row shows: the item's kind and id, and a readable name when the caller knows one. */
export function backgroundItem(node: PlanTreeNode, item: BackgroundWork, s: SessionState | undefined, name?: string): vscode.TreeItem {
  const cancellable = !!s?.live && canCancel(s.controls, item);
  const [what, id, kind] =
    item.type === 'terminal'
      ? [vscode.l10n.t('Terminal'), item.terminalId, vscode.l10n.t('background terminal')]
      : item.type === 'tool_call'
        ? [vscode.l10n.t('Tool call'), item.toolCallId, vscode.l10n.t('background tool call')]
        : item.type === 'subagent'
          ? [vscode.l10n.t('Subagent'), item.sessionId, vscode.l10n.t('background subagent')]
          : [vscode.l10n.t('Background work ({0})', item.rawType), '', vscode.l10n.t('background work ({0})', item.rawType)];
  const t = new vscode.TreeItem(truncate(name || `${what} ${id}`.trim(), LABEL_MAX), vscode.TreeItemCollapsibleState.None);
  t.id = node.id;
  t.description = `${kind}${cancellable ? ` · ${vscode.l10n.t('can be cancelled')}` : ''}`;
  t.iconPath = icon(item.type === 'terminal' ? 'terminal' : item.type === 'tool_call' ? 'tools' : 'sync', 'charts.blue');
  t.tooltip = [
    id ? vscode.l10n.t('{0} running on after the turn: {1}', what, id) : vscode.l10n.t('{0} running on after the turn', what),
    name ? vscode.l10n.t('Name: {0}', name) : undefined,
    item.type === 'unknown' ? vscode.l10n.t('Reported as "{0}", a kind this client does not know.', item.rawType) : undefined,
    cancellable ? vscode.l10n.t('The agent lets you cancel it (Cancel Background Work).') : vscode.l10n.t('The agent does not offer to cancel it.'),
  ]
    .filter(Boolean)
    .join('\n');
  t.contextValue = `background:${item.type === 'unknown' ? 'unknown' : item.type}${cancellable ? ':cancellable' : ''}`;
  return t;
}

/** Whether the parent lists this child as background work. */
export function isBackgroundChild(parent: SessionState | undefined, childId: string): boolean {
  return parent?.background?.some((b) => b.type === 'subagent' && b.sessionId === childId) === true;
}

/** Decorates a child session's row: description, tooltip and facets. */
export function decorateChild(t: vscode.TreeItem, s: SessionState, background: boolean): void {
  const cancellable = s.live && s.subagent?.cancellable === true;
  const kind = background ? vscode.l10n.t('background subagent') : vscode.l10n.t('subagent');
  t.description = `${kind} · ${typeof t.description === 'string' ? t.description : ''}`;
  if (s.turnState !== 'running') t.iconPath = icon(background ? 'sync' : 'hubot');
  const desc = s.subagent?.description;
  t.tooltip = [
    typeof t.tooltip === 'string' ? t.tooltip : undefined,
    background
      ? vscode.l10n.t('A background subagent of session {0}.', s.parentSessionId ?? '')
      : vscode.l10n.t('A subagent of session {0}.', s.parentSessionId ?? ''),
    desc ? vscode.l10n.t('Role: {0}', truncate(desc, 200)) : undefined,
    cancellable ? vscode.l10n.t('Its work can be cancelled (Cancel Subagent).') : undefined,
  ]
    .filter(Boolean)
    .join('\n');
  t.contextValue = `${t.contextValue ?? 'session'}:subagent${background ? ':background' : ''}${cancellable ? ':cancellable' : ''}`;
}
