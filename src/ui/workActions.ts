// What the commands on a plan step's work do (src/state/attribution); a bundle of its own,
// dist/work-actions.js, loaded on the first use (src/ui/workCommands.ts registers the commands and
// the `acp-step:` documents). Review Changes of This Step (VS
// Code's multi-file diff editor over read-only `acp-step:` documents holding the texts the work
// index kept, so the review shows what the step did even after the files changed again), Show
// Work of This Step (the conversation filtered to the step's items, until the user clears it),
// Revert Changes of This Step (workRevert.ts: undoes the client's own writes of the step where the
// file still holds what the step left; says per file why not otherwise; asks first). And the step timeline
// and drift document of Show Plan History. Each accepts a tree row or a plain target (tests).
import * as path from 'path';
import * as vscode from 'vscode';
import { timelineMarkdown } from './timelineText';
import { WHOLE_PLAN, type FileChange, type FileChanges, type Step, type WorkStore } from '../state/attribution/workStore';
import type { PlanRef } from '../state/planStore';
import { truncate } from '../state/planSummary';
import { sessionKey, type SessionStore } from '../state/sessionStore';
import { messageItemId, toolCallItemId } from '../state/transcript/ids';
import type { Checkpoints } from '../app/checkpoints/checkpoints';
import type { Conversation } from './conversation';
import { patchReviewTexts } from './reviewPatch';
import { checkpointSides } from './stepReview';
import { revertStep, type RevertResult } from './workRevert';
import { restoreWorkspace, type RestoreResult } from './workRewind';
import { isPlanTreeNode } from './tree/nodes';

/** The module's one export the loader uses. */
export function createWorkActions(host: WorkActionsHost): WorkActions {
  return new WorkActions(host);
}

/** What the actions get from the extension bundle. */
export interface WorkActionsHost {
  readonly work: WorkStore;
  readonly store: SessionStore;
  readonly conversation: Conversation;
  /** A read-only `acp-step:` document with this text (side: before, after, timeline). */
  doc(batch: number, side: string, file: string, name: string, text: string): vscode.Uri;
  /** A new batch number (documents of one review share it). */
  nextBatch(): number;
  /** The checkpoints of workspace folders (src/app/checkpoints), when they are on. */
  readonly checkpoints?: Pick<Checkpoints, 'read' | 'merge' | 'snapshot' | 'changes' | 'turnStart'>;
}

/** A step named without a tree row: `planId` absent = Unplanned, `index` absent = the plan as a whole. */
export interface StepTarget {
  agentId: string;
  sessionId: string;
  planId?: string;
  index?: number;
  path?: string;
}

interface Resolved {
  agentId: string;
  sessionId: string;
  step: Step;
  label: string;
  path?: string;
}

export class WorkActions {
  private lastRestore: { agentId: string; sessionId: string; undo: { folder: string; id: string }[] } | undefined;
  private readonly work: WorkStore;
  private readonly store: SessionStore;
  private readonly conversation: Conversation;

  constructor(private readonly host: WorkActionsHost) {
    this.work = host.work;
    this.store = host.store;
    this.conversation = host.conversation;
  }

  /** Opens the multi-file diff of the step's changed files; returns the files shown. */
  async review(arg: unknown): Promise<string[]> {
    const t = this.resolve(arg);
    if (!t) return [];
    const changes = this.work.stepChanges(t.agentId, t.sessionId, t.step).filter((c) => !t.path || c.path === t.path);
    if (!changes.length) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Step "{0}" changed no files that ACP Plans saw (no diffs in its tool calls, no writes through the editor).', t.label),
      );
      return [];
    }
    await this.openChanges(vscode.l10n.t('Changes of step: {0}', truncate(t.label, 60)), changes);
    return changes.map((c) => c.path);
  }

  /** Review Changes of This Session / of the Last Turn: every file the session (or its last turn) changed. */
  async reviewSession(arg: unknown, scope: 'session' | 'turn'): Promise<string[]> {
    const ref = sessionOf(arg) ?? this.store.activeSession;
    if (!ref) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Pick a session in the Plans view (right-click it) to review its changes.'));
      return [];
    }
    const since = scope === 'turn' ? (this.host.checkpoints?.turnStart(ref.agentId, ref.sessionId) ?? 0) : 0;
    const changes = this.work.sessionChanges(ref.agentId, ref.sessionId, since);
    if (!changes.length) {
      void vscode.window.showInformationMessage(
        scope === 'turn'
          ? vscode.l10n.t('No file changed in its last turn that ACP Plans saw.')
          : vscode.l10n.t('No file changed in this session that ACP Plans saw.'),
      );
      return [];
    }
    const title = this.store.session(ref.agentId, ref.sessionId)?.title ?? ref.sessionId;
    await this.openChanges(
      scope === 'turn' ? vscode.l10n.t('Changes of the last turn of: {0}', truncate(title, 60)) : vscode.l10n.t('Changes of session: {0}', truncate(title, 60)),
      changes,
    );
    return changes.map((c) => c.path);
  }

  private async openChanges(title: string, changes: readonly FileChanges[]): Promise<void> {
    const batch = this.host.nextBatch();
    const cps = this.host.checkpoints;
    const resources = await Promise.all(
      changes.map(async (c) => {
        const name = path.basename(c.path) || 'file';
        const seen = cps && (await checkpointSides(c.path, c.all, cps, (side, text) => this.host.doc(batch, side, c.path, name, text)));
        if (seen) return [vscode.Uri.file(c.path), seen.before, seen.after];
        const p = await patchReviewTexts(c); // a diff with only a patch: texts rebuilt from it
        return [
          vscode.Uri.file(c.path),
          this.doc(batch, 'before', c.path, name, p ? p.before : c.first.before, c.first),
          this.doc(batch, 'after', c.path, name, p ? p.after : c.last.after, c.last),
        ];
      }),
    );
    await vscode.commands.executeCommand('vscode.changes', title, resources);
  }

  /** Shows only the step's tool calls and messages in the conversation; returns the item ids. */
  async showWork(arg: unknown): Promise<string[]> {
    const t = this.resolve(arg);
    if (!t) return [];
    const ids = [...t.step.calls.map(toolCallItemId), ...t.step.messages.flatMap((m) => [messageItemId('agent', m), messageItemId('thought', m)])];
    if (this.store.session(t.agentId, t.sessionId)) this.store.setActiveSession({ agentId: t.agentId, sessionId: t.sessionId });
    this.conversation.setFilter({
      sessionId: sessionKey(t.agentId, t.sessionId),
      label: vscode.l10n.t('Work of step "{0}"', truncate(t.label, 80)),
      itemIds: ids,
    });
    await this.conversation.reveal();
    return ids;
  }

  /** Undoes the step's own writes after a confirmation; returns what was and was not reverted. */
  async revert(arg: unknown): Promise<RevertResult> {
    const t = this.resolve(arg);
    if (!t) return { reverted: [], skipped: [] };
    const changes = this.work.stepChanges(t.agentId, t.sessionId, t.step).filter((c) => !t.path || c.path === t.path);
    return revertStep(this.host.checkpoints, { agentId: t.agentId, sessionId: t.sessionId, label: t.label, changes });
  }

  /** Restore Workspace to Before This Step: every file back to the checkpoint taken as the step began (asks first; undoable). */
  async rewind(arg: unknown): Promise<RestoreResult> {
    const t = this.resolve(arg);
    if (!t) return { restored: [], skipped: [] };
    const cps = this.host.checkpoints;
    const targets = t.step.before ?? [];
    if (!cps || !targets.length) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'No checkpoint was taken before step "{0}": checkpoints are off (acp.checkpoints.enabled), git is not available, or the step began before they were taken.',
          truncate(t.label, 60),
        ),
      );
      return { restored: [], skipped: [] };
    }
    const r = await restoreWorkspace(cps, {
      agentId: t.agentId,
      sessionId: t.sessionId,
      targets,
      what: vscode.l10n.t('to before step "{0}"', truncate(t.label, 50)),
    });
    if (r.restored.length && r.undo) this.lastRestore = { agentId: t.agentId, sessionId: t.sessionId, undo: r.undo };
    return r;
  }

  /** Undo Restore: the workspace back as it was before the last restore (itself undoable). */
  async undoRestore(): Promise<RestoreResult> {
    const l = this.lastRestore;
    const cps = this.host.checkpoints;
    if (!l || !cps) {
      void vscode.window.showInformationMessage(vscode.l10n.t('There is no workspace restore to undo in this window.'));
      return { restored: [], skipped: [] };
    }
    const r = await restoreWorkspace(cps, { agentId: l.agentId, sessionId: l.sessionId, targets: l.undo, what: vscode.l10n.t('as it was before the restore') });
    if (r.restored.length && r.undo) this.lastRestore = { ...l, undo: r.undo };
    return r;
  }

  /** The step timeline and drift of a plan, as a read-only document; undefined when the plan has no work index. */
  async showTimeline(ref: PlanRef): Promise<vscode.Uri | undefined> {
    const track = ref.archiveId === undefined ? this.work.track(ref.agentId, ref.sessionId, ref.planId) : undefined;
    if (!track) return undefined;
    const uri = this.host.doc(
      this.host.nextBatch(),
      'timeline',
      ref.planId,
      `${ref.planId}-timeline.md`,
      timelineMarkdown(track, (ms) => new Date(ms).toLocaleTimeString()),
    );
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    return uri;
  }

  private doc(batch: number, side: string, file: string, name: string, text: string | null | undefined, c?: FileChange): vscode.Uri {
    const body =
      text === null
        ? ''
        : (text ??
          `(ACP Plans did not keep this text${c?.textDropped ? ': it was over the size kept per change' : ': the agent sent the change without full texts'}.)`);
    return this.host.doc(batch, side, file, name, body);
  }

  private resolve(arg: unknown): Resolved | undefined {
    let target: StepTarget | undefined;
    if (isPlanTreeNode(arg)) {
      if (arg.kind === 'step') target = { agentId: arg.ref.agentId, sessionId: arg.ref.sessionId, planId: arg.ref.planId, index: arg.index };
      else if (arg.kind === 'work') {
        target = {
          agentId: arg.agentId,
          sessionId: arg.sessionId,
          ...(arg.planId !== undefined ? { planId: arg.planId } : {}),
          ...(arg.owner >= 0 ? { index: arg.owner } : {}),
        };
        if (arg.part === 'file') target.path = arg.key;
      }
    } else if (arg && typeof arg === 'object' && typeof (arg as StepTarget).agentId === 'string' && typeof (arg as StepTarget).sessionId === 'string')
      target = arg as StepTarget;
    if (!target) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Pick a plan step in the Plans view (right-click it) to review, show or revert its work.'));
      return undefined;
    }
    const { agentId, sessionId, planId, index } = target;
    const step = planId === undefined ? this.work.unplanned(agentId, sessionId) : this.work.stepAt(agentId, sessionId, planId, index ?? WHOLE_PLAN);
    if (!step) {
      void vscode.window.showWarningMessage(vscode.l10n.t('This step has no recorded work (the session was cleared, or the plan changed since).'));
      return undefined;
    }
    const label = planId === undefined ? vscode.l10n.t('Unplanned') : index === undefined ? vscode.l10n.t('{0} (the plan as a whole)', planId) : step.content;
    return { agentId, sessionId, step, label, ...(target.path ? { path: target.path } : {}) };
  }
}

/** The session a tree row (agent session row) or a plain `{agentId, sessionId}` names. */
function sessionOf(arg: unknown): { agentId: string; sessionId: string } | undefined {
  if (isPlanTreeNode(arg)) return arg.kind === 'session' ? { agentId: arg.agentId, sessionId: arg.sessionId } : undefined;
  const x = arg as { agentId?: unknown; sessionId?: unknown } | undefined;
  return x && typeof x.agentId === 'string' && typeof x.sessionId === 'string' ? { agentId: x.agentId, sessionId: x.sessionId } : undefined;
}
