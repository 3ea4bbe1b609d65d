// The Plans tree's rows of attributed work (src/state/attribution): under each entry of an items
// plan, its tool calls (status icons) and changed files, counted in the entry's description; a
// plan without entries gets one "Work" row for the plan as a whole; a session gets an
// "Unplanned" row for work outside any step. Each entry's tooltip carries its timeline. Agent
// text goes into labels, descriptions and plain tooltips only.
import * as path from 'path';
import * as vscode from 'vscode';
import type { PlanRef } from '../../state/planStore';
import { truncate } from '../../state/planSummary';
import { callsText, filesText, stepTimeline } from '../timelineText';
import { WHOLE_PLAN, type Step, type WorkChange, type WorkStore } from '../../state/attribution/workStore';
import { planNodeId, sessionNodeId, UNPLANNED_OWNER, type NodeIndex, type PlanTreeNode, type WorkNode } from './nodes';
import { icon } from './treeItems';
import { callSentence, fileSentence, rowSentence, stepSentence } from './rowSentences';
import type { PlanEntry } from '../../protocol/domain';

const C = vscode.TreeItemCollapsibleState;
const MAX_ROWS = 500;

export class WorkRows {
  constructor(
    private readonly work: WorkStore,
    private readonly nodes: NodeIndex,
  ) {}

  /** The step a step row or work row stands for. */
  stepOf(n: { agentId: string; sessionId: string; planId: string | undefined; owner: number }): Step | undefined {
    return n.planId === undefined ? this.work.unplanned(n.agentId, n.sessionId) : this.work.stepAt(n.agentId, n.sessionId, n.planId, n.owner);
  }

  /** Calls and files below an entry of an items plan. */
  stepChildren(ref: PlanRef, index: number): PlanTreeNode[] {
    if (ref.archiveId !== undefined) return [];
    return this.rows(`${planNodeId(ref)}/${index}`, { agentId: ref.agentId, sessionId: ref.sessionId, planId: ref.planId, owner: index });
  }

  /** The counts, timeline, facets and spoken sentence of an entry row; expandable when it has work. */
  decorateStep(t: vscode.TreeItem, ref: PlanRef, index: number, entries: readonly PlanEntry[]): void {
    const s = ref.archiveId === undefined ? this.work.stepAt(ref.agentId, ref.sessionId, ref.planId, index) : undefined;
    const e = entries[index];
    if (e) {
      const facts = { index, total: entries.length, content: e.content, status: e.status, priority: e.priority };
      t.accessibilityInformation = { label: stepSentence({ ...facts, calls: s?.calls.length ?? 0, files: s?.files.length ?? 0 }, vscode.l10n) };
    }
    if (!s) return;
    const counts = countText(s);
    if (counts) {
      t.description = [t.description, counts].filter(Boolean).join(' · ');
      t.collapsibleState = C.Collapsed;
      t.contextValue = `${t.contextValue ?? 'entry'}:work${s.files.length ? ':files' : ''}`;
    }
    if (s.before?.length) t.contextValue = `${t.contextValue ?? 'entry'}:ckpt`;
    const line = stepTimeline(s, (ms) => new Date(ms).toLocaleTimeString());
    if (line) t.tooltip = `${typeof t.tooltip === 'string' ? t.tooltip : ''}\n${vscode.l10n.t('Timeline: {0}', line)}`;
  }

  /** The "Work" row of a plan without entries (its work as a whole), when it has some. */
  planChildren(ref: PlanRef, itemsPlan: boolean): PlanTreeNode[] {
    if (itemsPlan || ref.archiveId !== undefined) return [];
    const s = this.work.stepAt(ref.agentId, ref.sessionId, ref.planId, WHOLE_PLAN);
    if (!s || !countText(s)) return [];
    return [
      this.nodes.work(`${planNodeId(ref)}/#work`, {
        agentId: ref.agentId,
        sessionId: ref.sessionId,
        planId: ref.planId,
        owner: WHOLE_PLAN,
        part: 'group',
        key: '',
      }),
    ];
  }

  /** The session's "Unplanned" row, when there is unplanned work. */
  sessionChildren(agentId: string, sessionId: string): PlanTreeNode[] {
    const s = this.work.unplanned(agentId, sessionId);
    if (!s || !countText(s)) return [];
    return [
      this.nodes.work(`${sessionNodeId(agentId, sessionId)}/#unplanned`, {
        agentId,
        sessionId,
        planId: undefined,
        owner: UNPLANNED_OWNER,
        part: 'group',
        key: '',
      }),
    ];
  }

  children(n: WorkNode): PlanTreeNode[] {
    return n.part === 'group' ? this.rows(n.id, n) : [];
  }

  parent(n: WorkNode): PlanTreeNode {
    const ref = { agentId: n.agentId, sessionId: n.sessionId, planId: n.planId ?? '' };
    if (n.part === 'group') return n.planId === undefined ? this.nodes.session(n.agentId, n.sessionId) : this.nodes.plan(ref);
    if (n.owner >= 0) return this.nodes.step(ref, n.owner);
    const groupId = n.planId === undefined ? `${sessionNodeId(n.agentId, n.sessionId)}/#unplanned` : `${planNodeId(ref)}/#work`;
    return this.nodes.work(groupId, { ...n, part: 'group', key: '' });
  }

  item(n: WorkNode): vscode.TreeItem {
    const s = this.stepOf(n);
    if (n.part === 'group') {
      const t = new vscode.TreeItem(n.planId === undefined ? vscode.l10n.t('Unplanned') : vscode.l10n.t('Work'), C.Collapsed);
      t.id = n.id;
      t.description = s ? countText(s) : '';
      t.iconPath = icon(n.planId === undefined ? 'question' : 'tools');
      t.tooltip =
        n.planId === undefined
          ? vscode.l10n.t('Work the agent did while no plan step was in progress (and no plan of the session took it as a whole).')
          : vscode.l10n.t('Work done for plan {0} as a whole (it has no entries, or the agent linked the work to the plan).', n.planId);
      t.contextValue = `work:group${s?.files.length ? ':files' : ''}`;
      t.accessibilityInformation = {
        label: rowSentence(String(t.label), s ? countText(s) : '', undefined, vscode.l10n).replace(/\bcalls?\b/, (w) => `tool ${w}`),
      };
      return t;
    }
    if (n.part === 'file') {
      const t = new vscode.TreeItem(path.basename(n.key) || n.key, C.None);
      t.id = n.id;
      t.resourceUri = vscode.Uri.file(n.key);
      t.iconPath = vscode.ThemeIcon.File;
      const counted = s ? this.lineCounts(n, s) : undefined;
      const lines = counted && `+${counted.added} −${counted.removed}`;
      // The folder as the workspace names it ('' at a folder's top), never the absolute path of a workspace file.
      const rel = path.posix.dirname(vscode.workspace.asRelativePath(n.key).split(path.sep).join('/'));
      const dir = rel === '.' ? '' : truncate(rel, 80);
      t.description = [lines, dir].filter(Boolean).join(' · ');
      t.tooltip = `${n.key}\n${lines ? vscode.l10n.t('Changed in this step ({0} lines). Click to review the change.', lines) : vscode.l10n.t('Changed in this step. Click to review the change.')}`;
      t.contextValue = 'work:file';
      t.accessibilityInformation = { label: fileSentence(vscode.workspace.asRelativePath(n.key), counted, vscode.l10n) };
      t.command = { command: 'acp.reviewStepChanges', title: vscode.l10n.t('Review Change'), arguments: [n] };
      return t;
    }
    const c = this.work.call(n.agentId, n.sessionId, n.key);
    const t = new vscode.TreeItem(truncate(c?.title || n.key, 80), C.None);
    t.id = n.id;
    t.description = c ? [c.kind, c.status].filter((x) => x && x !== 'other').join(' · ') : vscode.l10n.t('no longer kept');
    t.iconPath = callIcon(c?.status ?? '');
    t.tooltip = c
      ? `${c.title}\n${vscode.l10n.t('Tool call {0}', c.toolCallId)} · ${c.kind} · ${c.status}\n${vscode.l10n.t('Started {0}', new Date(c.time).toLocaleTimeString())}`
      : vscode.l10n.t('Tool call {0}', n.key);
    t.contextValue = 'work:call';
    t.accessibilityInformation = { label: c ? callSentence(c.title, c.kind, c.status, vscode.l10n) : vscode.l10n.t('Tool call {0}, no longer kept', n.key) };
    return t;
  }

  /** Per step, the lines added and removed per file: built once per batch of rows (cleared at the next task). */
  private counts: Map<Step, Map<string, { added: number; removed: number }>> | undefined;

  /** Lines added and removed, from the checkpoints that saw the file change in this step. */
  private lineCounts(n: WorkNode, s: Step): { added: number; removed: number } | undefined {
    if (!this.counts) {
      this.counts = new Map();
      setTimeout(() => (this.counts = undefined), 0);
    }
    let perFile = this.counts.get(s);
    if (!perFile) {
      perFile = new Map();
      for (const c of this.work.stepChanges(n.agentId, n.sessionId, s))
        for (const x of c.all) {
          if (!x.checkpoint) continue;
          const f = perFile.get(c.path) ?? { added: 0, removed: 0 };
          f.added += x.checkpoint.added;
          f.removed += x.checkpoint.removed;
          perFile.set(c.path, f);
        }
      this.counts.set(s, perFile);
    }
    return perFile.get(n.key);
  }

  private rows(ownerId: string, n: { agentId: string; sessionId: string; planId: string | undefined; owner: number }): PlanTreeNode[] {
    const s = this.stepOf(n);
    if (!s) return [];
    const base = { agentId: n.agentId, sessionId: n.sessionId, planId: n.planId, owner: n.owner };
    return [
      ...s.calls.slice(-MAX_ROWS).map((id) => this.nodes.work(ownerId, { ...base, part: 'call', key: id })),
      ...s.files.slice(-MAX_ROWS).map((p) => this.nodes.work(ownerId, { ...base, part: 'file', key: p })),
    ];
  }
}

export function countText(s: Step): string {
  const parts: string[] = [];
  if (s.calls.length) parts.push(callsText(s.calls.length));
  if (s.files.length) parts.push(filesText(s.files.length));
  return parts.join(' · ');
}

function callIcon(status: string): vscode.ThemeIcon {
  switch (status) {
    case 'pending':
      return icon('circle-outline');
    case 'in_progress':
      return icon('loading~spin');
    case 'completed':
      return icon('pass', 'testing.iconPassed');
    case 'failed':
      return icon('error', 'errorForeground');
    default:
      return icon('primitive-dot');
  }
}

/** The ids of the rows whose work changed: the entry, the plan's Work row, the Unplanned row. */
export function changedWorkRows(c: WorkChange): string[] {
  const ids = c.unplanned ? [`${sessionNodeId(c.agentId, c.sessionId)}/#unplanned`] : [];
  for (const s of c.steps) {
    const plan = planNodeId({ agentId: c.agentId, sessionId: c.sessionId, planId: s.planId });
    if (s.index >= 0) ids.push(`${plan}/${s.index}`);
    else if (s.index === WHOLE_PLAN) ids.push(`${plan}/#work`);
  }
  return ids;
}
