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
// Agent text can't inject icons: `$(` in it is escaped.
import { truncate, type PlanSummary } from '../state/planSummary';

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

export function statusBarView(session: StatusBarSession | undefined, plans: readonly StatusBarPlan[]): StatusBarView {
  if (!session) return { visible: false, text: '', tooltip: '', attention: false };
  const attention = session.pendingPermissions > 0 || (session.pendingElicitations ?? 0) > 0 || session.turnState === 'requires_action';
  const running = session.turnState === 'running';
  const icon = attention ? '$(bell)' : running ? '$(loading~spin)' : '$(checklist)';
  const focus = focusPlan(plans);

  let progress: string;
  let step: string | undefined;
  if (!focus) progress = running ? 'Working' : 'No plan';
  else if (focus.summary.total === 0) progress = escapeIcons(truncate(focus.planId, 24));
  else {
    progress = `${focus.summary.done}/${focus.summary.total}`;
    if (focus.summary.current) step = escapeIcons(truncate(focus.summary.current.content, STEP_MAX));
  }
  const parts = [`${icon} ${progress}`];
  if (attention) parts.push('waiting for you');
  else if (step) parts.push(step);
  if (session.background) parts.push(`$(sync) ${session.background} background`);

  return {
    visible: true,
    text: parts.join(' · '),
    tooltip: tooltip(session, plans, focus),
    attention,
    accessibilityLabel: spoken(session, focus, attention),
    ...(focus ? { focusPlanId: focus.planId } : {}),
  };
}

/** "ACP plan impl: 3 of 7 steps done, now: Run tests. The agent is waiting for you." */
function spoken(session: StatusBarSession, focus: StatusBarPlan | undefined, attention: boolean): string {
  const running = session.turnState === 'running';
  let first: string;
  if (!focus) first = running ? 'ACP: the agent is working, no plan yet' : 'ACP: no plan';
  else if (focus.summary.total === 0) first = `ACP plan ${truncate(focus.planId, 40)}`;
  else {
    const { done, total, current } = focus.summary;
    const now = current && !attention ? `, now: ${truncate(current.content, 80)}` : '';
    first = `ACP plan ${truncate(focus.planId, 40)}: ${done} of ${total} step${total === 1 ? '' : 's'} done${now}`;
  }
  const parts = [first];
  if (attention) parts.push('The agent is waiting for you');
  else if (running && focus) parts.push('The agent is working');
  if (session.background) parts.push(`${session.background} background item${session.background === 1 ? '' : 's'} running`);
  return `${parts.join('. ')}.`;
}

function tooltip(session: StatusBarSession, plans: readonly StatusBarPlan[], focus: StatusBarPlan | undefined): string {
  const name = session.title ? `${truncate(session.title, 80)} (${session.sessionId})` : session.sessionId;
  const lines = [`${session.agentName ? `${truncate(session.agentName, 40)} — ` : ''}session ${name}`, `Turn: ${turnLabel(session.turnState)}`];
  if (session.pendingPermissions > 0) {
    lines.push(`${session.pendingPermissions} permission request${session.pendingPermissions === 1 ? '' : 's'} waiting for you`);
  }
  const asked = session.pendingElicitations ?? 0;
  if (asked > 0) lines.push(`${asked} question${asked === 1 ? '' : 's'} from the agent waiting for you (in the conversation)`);
  if (session.background)
    lines.push(
      `${session.background} background item${session.background === 1 ? '' : 's'} running on after the turn (listed under the session in the Plans view)`,
    );
  if (plans.length === 0) lines.push('No plan yet.');
  for (const p of plans) {
    const cur = p.summary.current ? ` — now: ${truncate(p.summary.current.content, 80)}` : '';
    lines.push(`${p === focus ? '▸ ' : '  '}${truncate(p.planId, 40)}: ${p.summary.header}${cur}`);
  }
  lines.push('Click to show the plans.');
  return lines.join('\n');
}

export function turnLabel(state: string): string {
  if (state === 'requires_action') return 'waiting for you';
  return state.replace(/_/g, ' ');
}

/** `$(name)` in agent text would render as an icon; `\$(` renders literally. */
export function escapeIcons(s: string): string {
  return s.replace(/\$\(/g, '\\$(');
}
