// What the Plans tree shows for an intent plan: plain data and texts, no `vscode` (unit tested in
// plain Node). Everything here that comes from the agent (goal, user, tool names, titles) is
// plain text: callers put it into labels, descriptions and plain-string tooltips only.
import type { Event } from '../../protocol/api';
import type { ArgConstraint } from '../../intent/schema';
import type { NotInPlanReason } from '../../intent/checkCall';
import type { IntentVerification, VerificationState } from '../../intent/verify';
import type { PlanRef } from '../../state/planStore';
import { english, type L10n } from '../../common/l10n';

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
export function stateText(state: ShownState, v: IntentVerification | undefined, keys: KeysStatus, l10n: L10n = english): string {
  switch (state) {
    case 'checking':
      return l10n.t('checking token…');
    case 'verified': {
      const left = v?.state === 'verified' ? v.secondsLeft : 0;
      return l10n.t('verified (kid {0}, {1})', v?.state === 'verified' ? v.kid : '?', timeLeft(left, l10n));
    }
    case 'expired':
      return l10n.t('expired');
    case 'bad_signature':
      return l10n.t('bad signature');
    case 'plan_hash_mismatch':
      return l10n.t('plan hash mismatch');
    case 'unknown_key':
      return l10n.t('unknown key');
    case 'malformed':
      return l10n.t('malformed token');
    case 'unverified':
      return keys.state === 'error' ? l10n.t('unverified (keys failed to load)') : l10n.t('unverified (no keys configured)');
  }
}

/**
 * The token claims that say who asked and under which rules: `agent`, `pol`/`polv`/`polh` (the
 * agent's policy at signing time, its version and hash), `role` and `groups` (the person's). One
 * plain line each, values flattened and cut at 200 characters; claims the token lacks are left out.
 */
export function claimLines(c: Readonly<Record<string, unknown>>, l10n: L10n = english): string[] {
  const out: string[] = [];
  if (c.agent !== undefined) out.push(l10n.t('Agent: {0}', claimText(c.agent)));
  if (c.pol !== undefined || c.polv !== undefined || c.polh !== undefined) out.push(policyLine(c, l10n));
  if (c.role !== undefined) out.push(l10n.t('Role: {0}', claimText(c.role)));
  if (c.groups !== undefined) {
    const groups = Array.isArray(c.groups) ? c.groups.map(claimText).join(', ') || l10n.t('(none)') : claimText(c.groups);
    out.push(l10n.t('Groups: {0}', groups));
  }
  return out;
}

/** `Policy: read-only (version 7, hash ab12)`: one whole sentence per case. */
function policyLine(c: Readonly<Record<string, unknown>>, l10n: L10n): string {
  const name = c.pol !== undefined ? claimText(c.pol) : l10n.t('(not named)');
  const version = c.polv !== undefined ? claimText(c.polv) : undefined;
  const hash = c.polh !== undefined ? claimText(c.polh) : undefined;
  if (version !== undefined && hash !== undefined) return l10n.t('Policy: {0} (version {1}, hash {2})', name, version, hash);
  if (version !== undefined) return l10n.t('Policy: {0} (version {1})', name, version);
  if (hash !== undefined) return l10n.t('Policy: {0} (hash {1})', name, hash);
  return l10n.t('Policy: {0}', name);
}

function claimText(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  const one = s.slice(0, 1000).replace(/\s+/g, ' ').trim();
  return one.length > 200 ? `${one.slice(0, 199)}…` : one;
}

/** `54 min left`, `40 s left`. */
export function timeLeft(seconds: number, l10n: L10n = english): string {
  return seconds >= 60 ? l10n.t('{0} min left', Math.floor(seconds / 60)) : l10n.t('{0} s left', Math.max(0, seconds));
}

export function stepUse(callsUsed: number, maxCalls: number): StepUse {
  if (callsUsed === 0) return 'unused';
  return callsUsed >= maxCalls ? 'exhausted' : 'used';
}

/** `2/20 calls · required` */
export function stepDescription(s: Pick<IntentStepView, 'callsUsed' | 'maxCalls' | 'required'>, l10n: L10n = english): string {
  if (s.maxCalls === 1) return s.required ? l10n.t('{0}/1 call · required', s.callsUsed) : l10n.t('{0}/1 call', s.callsUsed);
  return s.required ? l10n.t('{0}/{1} calls · required', s.callsUsed, s.maxCalls) : l10n.t('{0}/{1} calls', s.callsUsed, s.maxCalls);
}

/** One readable line per pinned argument. */
export function describeConstraints(args: Record<string, ArgConstraint> | undefined, l10n: L10n = english): string[] {
  return Object.entries(args ?? {}).map(([name, c]) => describeConstraint(name, c, l10n));
}

function describeConstraint(name: string, c: ArgConstraint, l10n: L10n): string {
  if ('eq' in c) return l10n.t('{0} equals {1}', name, preview(c.eq));
  if ('in' in c) return l10n.t('{0} is one of {1}', name, preview(c.in));
  if ('glob' in c) return l10n.t('{0} matches the glob {1}', name, preview(c.glob));
  if ('regex' in c) return l10n.t('{0} matches the pattern {1}', name, preview(c.regex));
  if ('lte' in c) return l10n.t('{0} is at most {1}', name, c.lte);
  return l10n.t('{0} is at least {1}', name, c.gte);
}

function preview(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 200 ? `${s.slice(0, 199)}…` : s;
}

/** The tooltip of a step: what it allows, in plain text. */
export function stepTooltip(s: IntentStepView, l10n: L10n = english): string {
  return [
    l10n.t('Step {0}: {1}', s.index + 1, s.tool),
    l10n.t('Calls: {0} of at most {1}', s.callsUsed, s.maxCalls),
    s.required ? l10n.t('Required: this step must run for the plan to complete.') : l10n.t('Optional'),
    s.constraints.length ? l10n.t('Pinned arguments:\n{0}', s.constraints.map((c) => `  • ${c}`).join('\n')) : l10n.t('No pinned arguments: any input.'),
  ].join('\n');
}

/** `not_in_plan: no step for this tool` */
export function outsideDescription(c: OutsideCallView, l10n: L10n = english): string {
  switch (c.reason) {
    case 'no_such_tool':
      return l10n.t('not_in_plan: no step for this tool');
    case 'missing_argument':
      return l10n.t('not_in_plan: a pinned argument is missing');
    case 'argument_fails_constraint':
      return l10n.t('not_in_plan: an argument is outside its constraint');
    case 'max_calls_exceeded':
      return l10n.t('not_in_plan: the step has no calls left');
  }
}
