// Matching one tool call against the steps of an intent plan (pure; counting lives in the tracker).
import { checkConstraint } from './constraints';
import type { IntentPlan, IntentStep } from './schema';
import type { VerificationState } from './verify';
import { english, type L10n } from '../common/l10n';

export type NotInPlanReason = 'no_such_tool' | 'missing_argument' | 'argument_fails_constraint' | 'max_calls_exceeded';
export type CannotCheckReason = 'no_intent_plan' | 'no_tool_name' | 'input_unknown' | 'unchecked_constraint';

/**
 * A verdict is about the plan as declared. `planState` says whether that plan is backed by a
 * verified token: an `in_plan` verdict against an unverified plan proves nothing.
 */
export type CallVerdict = {
  planState?: VerificationState;
  /** The call named no tool: its tool was inferred from its title or its ACP kind (toolName.ts). */
  inferredFrom?: 'title' | 'kind';
} & (
  | { verdict: 'in_plan'; toolName: string; stepIndex: number; callsUsed: number; maxCalls: number; detail: string }
  | { verdict: 'not_in_plan'; toolName: string; reason: NotInPlanReason; detail: string; stepIndex?: number; argument?: string }
  | { verdict: 'cannot_check'; reason: CannotCheckReason; detail: string; toolName?: string }
);

/** How one step judges a call's arguments. */
export type StepMatch =
  | { kind: 'match' }
  | { kind: 'missing'; argument: string }
  | { kind: 'fails'; argument: string; why: string }
  | { kind: 'unchecked'; argument: string; why: string };

/** Checks every pinned argument of `step` against `input` (the call's `rawInput`). */
export function matchStep(step: IntentStep, input: unknown, l10n: L10n = english): StepMatch {
  const args = step.args ?? {};
  const obj = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined;
  let unchecked: StepMatch | undefined;
  for (const [name, constraint] of Object.entries(args)) {
    if (!obj || !Object.hasOwn(obj, name) || obj[name] === undefined) return { kind: 'missing', argument: name };
    const r = checkConstraint(constraint, obj[name], l10n);
    if (r.ok === false) return { kind: 'fails', argument: name, why: r.why };
    if (r.ok === 'unchecked') unchecked ??= { kind: 'unchecked', argument: name, why: r.why };
  }
  return unchecked ?? { kind: 'match' };
}

/** The indices of the steps for this exact tool name. */
export function stepsForTool(plan: IntentPlan, toolName: string): number[] {
  const out: number[] = [];
  plan.steps.forEach((s, i) => {
    if (s.tool === toolName) out.push(i);
  });
  return out;
}

/** A readable reason for a step that did not match. */
export function describeMismatch(toolName: string, stepIndex: number, m: Exclude<StepMatch, { kind: 'match' }>, l10n: L10n = english): CallVerdict {
  const step = stepIndex + 1;
  switch (m.kind) {
    case 'missing':
      return {
        verdict: 'not_in_plan',
        toolName,
        stepIndex,
        reason: 'missing_argument',
        argument: m.argument,
        detail: l10n.t('Missing pinned argument "{0}" of step {1} ({2}).', m.argument, step, toolName),
      };
    case 'fails':
      return {
        verdict: 'not_in_plan',
        toolName,
        stepIndex,
        reason: 'argument_fails_constraint',
        argument: m.argument,
        detail: l10n.t('Argument "{0}" {1} (step {2}, {3}).', m.argument, m.why, step, toolName),
      };
    case 'unchecked':
      return {
        verdict: 'cannot_check',
        toolName,
        reason: 'unchecked_constraint',
        detail: l10n.t('Argument "{0}" could not be checked: {1}.', m.argument, m.why),
      };
  }
}
