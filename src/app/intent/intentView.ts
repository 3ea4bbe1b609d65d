// What the Plans tree shows for an intent plan: plain data and texts, no `vscode` (unit tested in
// plain Node). Everything here that comes from the agent (goal, user, tool names, titles) is
// plain text: callers put it into labels, descriptions and plain-string tooltips only.
import type { Event } from '../../protocol/api';
import type { ArgConstraint } from '../../intent/schema';
import type { NotInPlanReason } from '../../intent/checkCall';
import type { IntentVerification, VerificationState } from '../../intent/verify';
import type { PlanRef } from '../../state/planStore';

/** The verification as shown: a state of `verifyIntentToken`, or `checking` while it runs. */
export type ShownState = VerificationState | 'checking';

/** Where the keys tokens are checked against stand. */
export type KeysStatus =
  { state: 'not_loaded' } | { state: 'none' } | { state: 'loaded'; from: string; keyCount: number } | { state: 'error'; from: string; error: string };

export type StepUse = 'unused' | 'used' | 'exhausted';

export interface IntentStepView {
  index: number;
  tool: string;
  callsUsed: number;
  maxCalls: number;
  required: boolean;
  use: StepUse;
  /** One line per pinned argument, e.g. `path matches the glob "src/**"`. */
  constraints: string[];
}

export interface OutsideCallView {
  toolCallId: string;
  toolName: string;
  title?: string;
  reason: NotInPlanReason;
  detail: string;
}

/** A call the plan could not judge: it names no tool that could be inferred, or a constraint could not be run. */
export interface UncheckedCallView {
  toolCallId: string;
  title?: string;
  detail: string;
}

export interface ActiveIntentView {
  kind: 'active';
  planId: string;
  state: ShownState;
  /** One line for the plan's description, e.g. `verified (kid demo-1, 54 min left)`. */
  stateText: string;
  /** The verification's own explanation. */
  detail: string;
  verified: boolean;
  kid?: string;
  expiresAt?: Date;
  goal: string;
  user: string;
  /** Where the plan came from when not an `_intent` plan update: "the declare_plan tool call c1 (completed)". */
  source?: string;
  steps: IntentStepView[];
  outside: OutsideCallView[];
  unchecked: UncheckedCallView[];
  /** Tools of the required steps that had not run when the last turn ended (undefined: no turn ended yet). */
  missingRequired?: string[];
  /** The token's agent, policy, role and groups claims, one line each (see claimLines). */
  claims?: string[];
  /** The claims come from a token whose signature checked out (verified or expired). */
  claimsVerified?: boolean;
  /** Problems to show on the node: key loading failures, refused updates, a `jti` that is not a ULID. */
  warnings: string[];
  keys: KeysStatus;
}

/** An `_intent` plan that is not the one enforced (refused, or replaced by another plan). */
export interface InactiveIntentView {
  kind: 'inactive';
  planId: string;
  stateText: string;
  detail: string;
}

export type IntentNodeView = ActiveIntentView | InactiveIntentView;

/** What the tree reads intent plans from. */
export interface IntentSource {
  /** Fires when what a session's intent plan nodes show may have changed. */
  readonly onDidChange: Event<{ agentId: string; sessionId: string }>;
  /** The view of an `_intent` plan, or undefined to render it as a plan of an unknown type. */
  view(ref: PlanRef): IntentNodeView | undefined;
}

/** The short text of a verification, e.g. `verified (kid demo-1, 54 min left)` or `bad signature`. */
export function stateText(state: ShownState, v: IntentVerification | undefined, keys: KeysStatus): string {
  switch (state) {
    case 'checking':
      return 'checking token…';
    case 'verified': {
      const left = v?.state === 'verified' ? v.secondsLeft : 0;
      return `verified (kid ${v?.state === 'verified' ? v.kid : '?'}, ${timeLeft(left)})`;
    }
    case 'expired':
      return 'expired';
    case 'bad_signature':
      return 'bad signature';
    case 'plan_hash_mismatch':
      return 'plan hash mismatch';
    case 'unknown_key':
      return 'unknown key';
    case 'malformed':
      return 'malformed token';
    case 'unverified':
      return keys.state === 'error' ? 'unverified (keys failed to load)' : 'unverified (no keys configured)';
  }
}

/**
 * The token claims that say who asked and under which rules: `agent`, `pol`/`polv`/`polh` (the
 * agent's policy at signing time, its version and hash), `role` and `groups` (the person's). One
 * plain line each, values flattened and cut at 200 characters; claims the token lacks are left out.
 */
export function claimLines(c: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  if (c.agent !== undefined) out.push(`Agent: ${claimText(c.agent)}`);
  if (c.pol !== undefined || c.polv !== undefined || c.polh !== undefined) {
    const extra = [c.polv !== undefined ? `version ${claimText(c.polv)}` : undefined, c.polh !== undefined ? `hash ${claimText(c.polh)}` : undefined].filter(
      Boolean,
    );
    out.push(`Policy: ${c.pol !== undefined ? claimText(c.pol) : '(not named)'}${extra.length ? ` (${extra.join(', ')})` : ''}`);
  }
  if (c.role !== undefined) out.push(`Role: ${claimText(c.role)}`);
  if (c.groups !== undefined) out.push(`Groups: ${Array.isArray(c.groups) ? c.groups.map(claimText).join(', ') || '(none)' : claimText(c.groups)}`);
  return out;
}

function claimText(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  const one = s.slice(0, 1000).replace(/\s+/g, ' ').trim();
  return one.length > 200 ? `${one.slice(0, 199)}…` : one;
}

/** `54 min left`, `40 s left`. */
export function timeLeft(seconds: number): string {
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min left` : `${Math.max(0, seconds)} s left`;
}

export function stepUse(callsUsed: number, maxCalls: number): StepUse {
  if (callsUsed === 0) return 'unused';
  return callsUsed >= maxCalls ? 'exhausted' : 'used';
}

/** `2/20 calls · required` */
export function stepDescription(s: Pick<IntentStepView, 'callsUsed' | 'maxCalls' | 'required'>): string {
  return `${s.callsUsed}/${s.maxCalls} call${s.maxCalls === 1 ? '' : 's'}${s.required ? ' · required' : ''}`;
}

/** One readable line per pinned argument. */
export function describeConstraints(args: Record<string, ArgConstraint> | undefined): string[] {
  return Object.entries(args ?? {}).map(([name, c]) => `${name} ${describeConstraint(c)}`);
}

function describeConstraint(c: ArgConstraint): string {
  if ('eq' in c) return `equals ${preview(c.eq)}`;
  if ('in' in c) return `is one of ${preview(c.in)}`;
  if ('glob' in c) return `matches the glob ${preview(c.glob)}`;
  if ('regex' in c) return `matches the pattern ${preview(c.regex)}`;
  if ('lte' in c) return `is at most ${c.lte}`;
  return `is at least ${c.gte}`;
}

function preview(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 200 ? `${s.slice(0, 199)}…` : s;
}

/** The tooltip of a step: what it allows, in plain text. */
export function stepTooltip(s: IntentStepView): string {
  return [
    `Step ${s.index + 1}: ${s.tool}`,
    `Calls: ${s.callsUsed} of at most ${s.maxCalls}`,
    s.required ? 'Required: this step must run for the plan to complete.' : 'Optional',
    s.constraints.length ? `Pinned arguments:\n${s.constraints.map((c) => `  • ${c}`).join('\n')}` : 'No pinned arguments: any input.',
  ].join('\n');
}

const REASON_TEXT: Record<NotInPlanReason, string> = {
  no_such_tool: 'no step for this tool',
  missing_argument: 'a pinned argument is missing',
  argument_fails_constraint: 'an argument is outside its constraint',
  max_calls_exceeded: 'the step has no calls left',
};

/** `not_in_plan: no step for this tool` */
export function outsideDescription(c: OutsideCallView): string {
  return `not_in_plan: ${REASON_TEXT[c.reason]}`;
}
