// Plan mode: the plan the user approved is kept as a Markdown plan of its session (Plans tree,
// revisions, history), even when the agent only put it in the tool call's input and never sends
// it as a plan. Pure: decides which event to apply; the composition root applies it like any
// agent event (so it is stored, shown and recorded on the same path).
import type { PermissionOutcome, SessionEvent } from '../protocol/domain';
import type { PlanRecord } from '../state/planStore';
import { MODE_SWITCH_KIND, type TranscriptItem } from '../state/transcript';

/** The planId of an approved plan taken from a tool call's input (the one Claude's adapter uses for it). */
export const APPROVED_PLAN_ID = 'plan-mode';

/**
 * The plan_update to apply after a plan-mode approval was answered, or undefined: only when the
 * user chose an allow option, the plan came from the tool call's input, and no plan of the session
 * already holds the same text.
 */
export function approvedPlanEvent(
  item: TranscriptItem | undefined,
  outcome: PermissionOutcome,
  sessionId: string,
  plans: readonly PlanRecord[],
): SessionEvent | undefined {
  if (item?.kind !== 'permission' || item.toolKind !== MODE_SWITCH_KIND || item.plan?.source !== 'input') return undefined;
  if (outcome.outcome !== 'selected') return undefined;
  const chosen = item.options.find((o) => o.optionId === outcome.optionId);
  if (!chosen?.kind.startsWith('allow')) return undefined;
  const text = item.plan.text;
  if (plans.some((p) => p.plan.type === 'markdown' && p.plan.content === text)) return undefined;
  return { sessionId, kind: 'plan_update', plan: { type: 'markdown', planId: APPROVED_PLAN_ID, content: text } };
}
