// Feature: the review loop. Comments on the lines a session changed (the Comments API on the review
// diffs and the files, src/ui/review), kept per session in its history (`review` records, replayed
// with the session: reload, restart, export and import keep them), sent to the agent as one prompt
// of links to their lines (src/app/review/reviewPrompt.ts), following their lines through the
// agent's later changes and offering Resolve when one touches them; Explain This Change and
// Summarize This Step's Changes ask about exactly those lines. Rows below the session in the Plans tree.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { lineMap, splitLines } from '../../app/review/anchor';
import { ReviewModel } from '../../app/review/reviewModel';
import { sessionOfFile, stepOfRange, stepRef } from '../../app/review/reviewTarget';
import { DisposableStore, toDisposable } from '../../common/lifecycle';
import { isImportedAgent, isReplayAgent } from '../../common/pseudoAgents';
import { insideWorkspace, workspaceRoots } from '../../platform/workspace';
import type { SessionEvent } from '../../protocol/domain';
import { WHOLE_PLAN } from '../../state/attribution/workStore';
import type { SessionKey } from '../../state/sessionStore';
import { registerReviewCommands } from '../../ui/review/reviewCommands';
import { reviewRows } from '../../ui/review/reviewRows';
import { ReviewThreads } from '../../ui/review/reviewThreads';
import type { PlanTreeNode } from '../../ui/tree/nodes';
import type { Feature, FeatureHost } from '../host';
import { CONVERSATION, HISTORY, PLANS_VIEW, REVIEW } from '../ports';

/** What the review offers (REVIEW): the comments and their threads in the editors. */
export interface ReviewParts {
  readonly model: ReviewModel;
  readonly threads: ReviewThreads;
}

export const reviewFeature: Feature = {
  name: 'review',
  activate(host) {
    const owned = new DisposableStore();
    const model = new ReviewModel((agentId, sessionId, review, t) => host.port(HISTORY)?.history.record(agentId, sessionId, { t, review }));
    owned.add(toDisposable(() => model.dispose()));
    const history = host.port(HISTORY)?.history;
    if (history) owned.add(history.onDidReplayReview((r) => model.restore(r.agentId, r.sessionId, r.review)));
    follow(host, model, owned);
    const canSend = (ref: SessionKey): boolean =>
      !isImportedAgent(ref.agentId) && !isReplayAgent(ref.agentId) && host.store.session(ref.agentId, ref.sessionId)?.live === true;
    const unplanned = vscode.l10n.t('Unplanned');
    const threads = owned.add(
      new ReviewThreads(model, {
        commentable: (file) => !!sessionOfFile(host.work, host.store, file),
        readOnly: (c) => !insideWorkspace(c.path) || !canSend(c),
        sendable: (c) => c.state === 'open' && insideWorkspace(c.path) && canSend(c),
      }),
    );
    const tree = host.port(PLANS_VIEW)?.tree;
    if (tree)
      owned.add(
        tree.extras.add(
          reviewRows(
            model,
            (agentId, sessionId) => canSend({ agentId, sessionId }),
            (ref, index) => host.work.stepAt(ref.agentId, ref.sessionId, ref.planId, index)?.key,
          ),
        ),
      );
    owned.add(
      registerReviewCommands({
        model,
        threads,
        actions: host.actions,
        target: (file, start, end) => {
          const key = sessionOfFile(host.work, host.store, file, host.store.activeSession);
          const step = key && stepOfRange(host.work, key, file, { start, end }, unplanned);
          return key && { ...key, ...(step ? { step } : {}) };
        },
        liveText: (file) => (insideWorkspace(file) ? fs.promises.readFile(file, 'utf8').catch(() => undefined) : Promise.resolve(undefined)),
        inside: insideWorkspace,
        rel: (file) => relative(file),
        canSend,
        busy: (ref) => (host.store.session(ref.agentId, ref.sessionId)?.turnState ?? 'idle') !== 'idle',
        stepFiles: (arg) => stepFiles(host, arg, unplanned),
        show: async (ref) => {
          host.store.setActiveSession(ref);
          await host.port(CONVERSATION)?.reveal();
        },
      }),
    );
    host.offer(REVIEW, { model, threads });
    return owned;
  },
};

/** Comments follow the agent's changes of their files (client writes, diffs with texts), and learn when the turn that took them ended. */
function follow(host: FeatureHost, model: ReviewModel, owned: DisposableStore): void {
  // A change reported twice (a diff, then the write that made it) moves comments once.
  const last = new Map<string, string>();
  const changed = (file: string, before: string | null, after: string | null, t: number): void => {
    if (after !== null && last.get(file) === after) return;
    if (after === null) last.delete(file);
    else last.set(file, after);
    if (last.size > 1000) last.delete(last.keys().next().value!);
    model.fileChanged(file, before, after, t);
  };
  owned.add(host.events.onDidWrite((w) => changed(w.path, w.before, w.after, w.t)));
  owned.add(host.events.onDidApply(({ event, t }) => diffTexts(event).forEach((d) => changed(d.path, d.oldText, d.newText, t))));
  // A file the checkpoints saw deleted (the agent's own tools, not the client's writes).
  owned.add(
    host.work.onDidChange((w) => {
      const files = new Set(
        model.sessions().flatMap((k) =>
          model
            .comments(k.agentId, k.sessionId)
            .filter((c) => c.gone !== 'file')
            .map((c) => c.path),
        ),
      );
      if (!files.size) return;
      for (const f of host.work.sessionChanges(w.agentId, w.sessionId))
        if (files.has(f.path) && f.last.checkpoint?.status === 'deleted') changed(f.path, null, null, f.last.time);
    }),
  );
  const busy = new Set<string>();
  owned.add(
    host.store.onDidChange((c) => {
      if (c.scope !== 'session') return;
      if (c.kind === 'removed') return model.forget(c.agentId, c.sessionId);
      const k = `${c.agentId}\u0000${c.sessionId}`;
      const s = host.store.session(c.agentId, c.sessionId);
      if (s && s.turnState !== 'idle') busy.add(k);
      else if (busy.delete(k)) model.answered(c.agentId, c.sessionId, Date.now());
    }),
  );
}

function diffTexts(e: SessionEvent): { path: string; oldText: string | null; newText: string }[] {
  if (e.kind !== 'tool_call' && e.kind !== 'tool_call_content_chunk') return [];
  const content = e.kind === 'tool_call' ? (e.fields.content ?? []) : [e.content];
  return content.flatMap((c) => (c.type === 'diff' ? (c.texts ?? []) : []));
}

function relative(file: string): string {
  const root = workspaceRoots().find((r) => !path.relative(r, file).startsWith('..'));
  return root ? path.relative(root, file).split(path.sep).join('/') : file;
}

/** A step row's session, label and changed files: each file's lines the step changed (else the whole file). */
function stepFiles(host: FeatureHost, arg: unknown, unplanned: string) {
  const n = arg as PlanTreeNode | undefined;
  if (!n || n.kind !== 'step' || n.ref.archiveId !== undefined) return undefined;
  const ref = { agentId: n.ref.agentId, sessionId: n.ref.sessionId };
  const step = host.work.stepAt(ref.agentId, ref.sessionId, n.ref.planId, n.index ?? WHOLE_PLAN);
  if (!step) return undefined;
  const files = host.work.stepChanges(ref.agentId, ref.sessionId, step).map((c) => {
    const b = c.last.after === undefined ? [] : splitLines(c.last.after);
    const a = c.first.before ? splitLines(c.first.before) : [];
    const made = new Uint8Array(b.length).fill(1);
    for (const j of lineMap(a, b)) if (j >= 0) made[j] = 0;
    const first = made.indexOf(1);
    const lastLine = made.lastIndexOf(1);
    return first < 0 ? { path: c.path, start: 0, end: Math.max(0, b.length - 1) } : { path: c.path, start: first, end: lastLine };
  });
  return { ref, label: stepRef(step, unplanned).label, files };
}
