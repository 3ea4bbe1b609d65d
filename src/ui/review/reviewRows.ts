// The review in the Plans tree: below a session with comments, "Review: 3 open" (its threads below
// it, each opening its file at its lines), and on a step row the count of its open comments.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReviewComment, ReviewModel } from '../../app/review/reviewModel';
import type { PlanRef } from '../../state/planStore';
import type { ExtraRowSource } from '../tree/extraRows';
import { threadLabel } from './reviewThreads';

export const REVIEW_ROWS = 'review';
const MAX_ROWS = 500;

export function reviewRows(
  model: ReviewModel,
  sendable: (agentId: string, sessionId: string) => boolean,
  keyAt: (ref: PlanRef, index: number) => number | undefined,
): ExtraRowSource {
  return {
    name: REVIEW_ROWS,
    onDidChange: (l) => model.onDidChange(l),
    children(agentId, sessionId, parent) {
      const list = model.comments(agentId, sessionId);
      if (parent === undefined) return list.length ? ['review'] : [];
      if (parent !== 'review') return [];
      return list.slice(0, MAX_ROWS).map((c) => `review/${c.id}`);
    },
    item(agentId, sessionId, p) {
      const list = model.comments(agentId, sessionId);
      if (p === 'review') {
        const open = list.filter((c) => c.state === 'open').length;
        const t = new vscode.TreeItem(vscode.l10n.t('Review: {0} open', open), vscode.TreeItemCollapsibleState.Collapsed);
        t.description = list.length > open ? vscode.l10n.t('{0} resolved', list.length - open) : '';
        t.iconPath = new vscode.ThemeIcon('comment-discussion');
        t.contextValue = `review${open && sendable(agentId, sessionId) ? ':sendable' : ''}`;
        return t;
      }
      const c = list.find((x) => `review/${x.id}` === p);
      return c ? commentItem(c) : new vscode.TreeItem(vscode.l10n.t('(gone)'));
    },
    decorateStep(t: vscode.TreeItem, ref: PlanRef, index: number) {
      if (ref.archiveId !== undefined) return;
      const key = keyAt(ref, index);
      const open = model.comments(ref.agentId, ref.sessionId).filter((c) => c.state === 'open' && c.step?.planId === ref.planId && c.step.key === key);
      if (!open.length) return;
      t.description = [t.description, vscode.l10n.t('{0} review comments', open.length)].filter(Boolean).join(' · ');
      t.contextValue = `${t.contextValue ?? 'entry'}:review`;
    },
  };
}

function commentItem(c: ReviewComment): vscode.TreeItem {
  const where = c.start === c.end ? `${path.basename(c.path)}:${c.start + 1}` : `${path.basename(c.path)}:${c.start + 1}-${c.end + 1}`;
  const first = c.text.split('\n')[0] ?? '';
  const t = new vscode.TreeItem(first.length > 80 ? `${first.slice(0, 79)}…` : first);
  t.description = `${where} · ${threadLabel(c)}`;
  t.tooltip = `${c.path}\n${c.text.slice(0, 2000)}`;
  t.iconPath = new vscode.ThemeIcon(c.state === 'resolved' ? 'pass' : c.gone ? 'warning' : 'comment');
  t.contextValue = `reviewThread:${c.state}`;
  t.command = {
    command: 'vscode.open',
    title: vscode.l10n.t('Open'),
    arguments: [vscode.Uri.file(c.path), { selection: new vscode.Range(c.start, 0, c.end, 0) } satisfies vscode.TextDocumentShowOptions],
  };
  return t;
}
