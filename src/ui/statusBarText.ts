// The status bar item's text as a pure function (no vscode import, unit tested).
//
// Definition. With no active session the item is hidden. Otherwise it shows the progress of the
// session's *focus plan*: among the live plans that have steps, the one updated most recently
// that is not yet resolved (a plan is resolved when every step is completed or cancelled); when
// all are resolved, the one updated most recently; plans without steps (plain Markdown, unknown
// types) only when no plan has steps. Text:
//   `<icon> <done>/<total> · <current step>`   e.g. `$(checklist) 3/7 · Run tests`
//   - icon: `$(bell)` when the session waits for the user (pending permission requests or turn
//     state `requires_action`), else `$(loading~spin)` while the turn runs, else `$(checklist)`;
//   - the current step (the first in-progress entry; for a Markdown checklist the first unchecked
//     item) is cut to 40 characters and left out when there is none;
//   - a focus plan without steps (plain Markdown, unknown type) shows its planId instead;
//   - no plan at all: `Working` while the turn runs, else `No plan`;
//   - waiting for the user: `$(bell) 3/7 · waiting for you` (the step is left out) and the
//     attention flag is set (warning background).
// Agent text can't inject icons: `$(` in it is escaped. Our words go through `l10n` (`vscode.l10n`
// in the product; a type-only import, erased, so the unit tests run this file without VS Code).
import type * as vscode from 'vscode';
import { english } from '../common/l10n';
import { truncate, type PlanSummary } from '../state/planSummary';

type L10n = Pick<typeof vscode.l10n, 't'>;

export interface StatusBarSession {
  readonly sessionId: string;
  readonly title?: string;
  readonly agentName?: string;
  readonly turnState: string;
  readonly pendingPermissions: number;
  /** Forms or links the agent asked the user to fill in or visit. */
  readonly pendingElicitations?: number;
  /** Work running on after the turn (its background snapshot and its children's); 0 or omitted: none. */
  readonly background?: number;
  /** The session cannot continue (why, a sentence): shown instead of its progress. */
  readonly ended?: string;
  /** What the session used so far and its agent's rate limits, worded (src/ui/usage/usageMeter.ts). */
  readonly usage?: readonly string[];
}

export interface StatusBarPlan {
  readonly planId: string;
  readonly type: string;
  readonly summary: PlanSummary;
  /** Store-wide change order (higher = more recent). */
  readonly seq: number;
}

export interface StatusBarView {
  readonly visible: boolean;
  readonly text: string;
  readonly tooltip: string;
  readonly attention: boolean;
  /** What a screen reader says: a sentence, without icons or symbols. */
  readonly accessibilityLabel?: string;
  readonly focusPlanId?: string;
}

export const STEP_MAX = 40;

export function focusPlan<P extends { readonly seq: number; readonly summary: { readonly resolved: boolean; readonly total: number } }>(
  plans: readonly P[],
): P | undefined {
  const byRecency = [...plans].sort((a, b) => b.seq - a.seq);
  // Plans with steps first (a plan without steps never "finishes", so it must not hold the
  // status bar once the others are done); among them unresolved first, most recent first.
  const withSteps = byRecency.filter((p) => p.summary.total > 0);
  return withSteps.find((p) => !p.summary.resolved) ?? withSteps[0] ?? byRecency[0];
}

export function statusBarView(session: StatusBarSession | undefined, plans: readonly StatusBarPlan[], l10n: L10n = english): StatusBarView {
  if (!session) return { visible: false, text: '', tooltip: '', attention: false };
  if (session.ended)
    return { visible: true, text: l10n.t('$(debug-disconnect) Session ended'), tooltip: session.ended, attention: false, accessibilityLabel: session.ended };
  const attention = session.pendingPermissions > 0 || (session.pendingElicitations ?? 0) > 0 || session.turnState === 'requires_action';
  const running = session.turnState === 'running';
  const icon = attention ? '$(bell)' : running ? '$(loading~spin)' : '$(checklist)';
  const focus = focusPlan(plans);

  let progress: string;
  let step: string | undefined;
  if (!focus) progress = running ? l10n.t('Working') : l10n.t('No plan');
  else if (focus.summary.total === 0) progress = escapeIcons(truncate(focus.planId, 24));
  else {
    progress = `${focus.summary.done}/${focus.summary.total}`;
    if (focus.summary.current) step = escapeIcons(truncate(focus.summary.current.content, STEP_MAX));
  }
  const parts = [`${icon} ${progress}`];
  if (attention) parts.push(l10n.t('waiting for you'));
  else if (step) parts.push(step);
  if (session.background) parts.push(l10n.t('$(sync) {0} background', session.background));

  return {
    visible: true,
    text: parts.join(' · '),
    tooltip: tooltip(session, plans, focus, l10n),
    attention,
    accessibilityLabel: spoken(session, focus, attention, l10n),
    ...(focus ? { focusPlanId: focus.planId } : {}),
  };
}

/** "ACP plan impl: 3 of 7 steps done, now: Run tests. The agent is waiting for you." */
function spoken(session: StatusBarSession, focus: StatusBarPlan | undefined, attention: boolean, l10n: L10n): string {
  const running = session.turnState === 'running';
  let first: string;
  if (!focus) first = running ? l10n.t('ACP: the agent is working, no plan yet') : l10n.t('ACP: no plan');
  else if (focus.summary.total === 0) first = l10n.t('ACP plan {0}', truncate(focus.planId, 40));
  else {
    const { done, total, current } = focus.summary;
    const id = truncate(focus.planId, 40);
    first = total === 1 ? l10n.t('ACP plan {0}: {1} of {2} step done', id, done, total) : l10n.t('ACP plan {0}: {1} of {2} steps done', id, done, total);
    if (current && !attention) first = l10n.t('{0}, now: {1}', first, truncate(current.content, 80));
  }
  const parts = [first];
  if (attention) parts.push(l10n.t('The agent is waiting for you'));
  else if (running && focus) parts.push(l10n.t('The agent is working'));
  const bg = session.background;
  if (bg) parts.push(bg === 1 ? l10n.t('{0} background item running', bg) : l10n.t('{0} background items running', bg));
  return `${parts.join('. ')}.`;
}

function tooltip(session: StatusBarSession, plans: readonly StatusBarPlan[], focus: StatusBarPlan | undefined, l10n: L10n): string {
  const name = session.title ? `${truncate(session.title, 80)} (${session.sessionId})` : session.sessionId;
  const lines = [
    session.agentName ? l10n.t('{0} — session {1}', truncate(session.agentName, 40), name) : l10n.t('session {0}', name),
    l10n.t('Turn: {0}', turnLabel(session.turnState, l10n)),
  ];
  const asking = session.pendingPermissions;
  if (asking > 0)
    lines.push(asking === 1 ? l10n.t('{0} permission request waiting for you', asking) : l10n.t('{0} permission requests waiting for you', asking));
  const asked = session.pendingElicitations ?? 0;
  if (asked > 0) {
    lines.push(
      asked === 1
        ? l10n.t('{0} question from the agent waiting for you (in the conversation)', asked)
        : l10n.t('{0} questions from the agent waiting for you (in the conversation)', asked),
    );
  }
  const bg = session.background;
  if (bg) {
    lines.push(
      bg === 1
        ? l10n.t('{0} background item running on after the turn (listed under the session in the Plans view)', bg)
        : l10n.t('{0} background items running on after the turn (listed under the session in the Plans view)', bg),
    );
  }
  if (plans.length === 0) lines.push(l10n.t('No plan yet.'));
  for (const p of plans) {
    const cur = p.summary.current ? l10n.t(' — now: {0}', truncate(p.summary.current.content, 80)) : '';
    lines.push(`${p === focus ? '▸ ' : '  '}${truncate(p.planId, 40)}: ${p.summary.header}${cur}`);
  }
  if (session.usage) lines.push(...session.usage);
  lines.push(l10n.t('Click to show the plans.'));
  return lines.join('\n');
}

export function turnLabel(state: string, l10n: L10n = english): string {
  if (state === 'requires_action') return l10n.t('waiting for you');
  return state.replace(/_/g, ' ');
}

/** `$(name)` in agent text would render as an icon; `\$(` renders literally. */
export function escapeIcons(s: string): string {
  return s.replace(/\$\(/g, '\\$(');
}
