// The intent plan of one session: the current plan and its verification, and how the session's
// tool calls measure up against it.
//
// Rules:
// - A token with the same `jti` as the current one is a refresh. It replaces the current token
//   only if the plan hash is unchanged; otherwise the old plan stays and a conflict is reported
//   (a refresh never widens a plan).
// - Any other intent plan replaces the current one and starts counting afresh.
// - A tool call is counted once per toolCallId, against the first matching step with calls left.
//   Updates of the same id are re-checked with the merged fields (they may bring the name or the
//   input late) but never counted twice.
import type { Meta, Patch } from '../protocol/domain';
import { planHash } from './canonical';
import { describeMismatch, matchStep, stepsForTool, type CallVerdict, type StepMatch } from './checkCall';
import { DEFAULT_CLOCK_SKEW_SECONDS } from './claims';
import { loadJws } from './jwsLoader';
import type { Jwks } from './keys';
import { parseIntentPlan, type IntentPayload, type IntentPlan } from './schema';
import { inferToolName, resolveToolName } from './toolName';
import { verificationAt, verifyIntentToken, type IntentVerification } from './verify';
import { english, type L10n } from '../common/l10n';

export interface IntentSnapshot {
  planId: string;
  plan: IntentPlan;
  rawPlan: Record<string, unknown>;
  /** SHA-256 (hex) of the plan shown, defaults applied. */
  hash: string;
  jti?: string;
  token?: string;
  /** The verification as of now (a verified token turns expired when its time is up). */
  verification: IntentVerification;
}

export type IntentUpdateResult =
  { kind: 'accepted'; change: 'new_plan' | 'refresh' } | { kind: 'conflict'; detail: string } | { kind: 'invalid'; error: string };

export interface StepUsage {
  stepIndex: number;
  tool: string;
  callsUsed: number;
  maxCalls: number;
  required: boolean;
}

/** One tool-call event: the fields follow the patch semantics of `ToolCallFields`. */
export interface ToolCallObservation {
  toolCallId: string;
  name?: Patch<string>;
  rawInput?: unknown;
  _meta?: Meta | null;
  /** Read only when the call names no tool (inferToolName). */
  title?: Patch<string>;
  kind?: Patch<string>;
}

interface SeenCall {
  name?: string;
  rawInput?: unknown;
  meta?: Meta;
  title?: string;
  kind?: string;
  step?: number;
}

export interface IntentTrackerOptions {
  clockSkewSeconds?: number;
  now?: () => Date;
  /** The user's language for verdicts and verification details (vscode.l10n in the product). */
  l10n?: L10n;
}

export class IntentTracker {
  /** The current plan; its verification as computed when received (see `intent` for now). */
  private current: IntentSnapshot | undefined;
  private calls = new Map<string, SeenCall>();
  private used: number[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly skew: number;
  private readonly now: () => Date;
  private readonly l10n: L10n;

  constructor(options: IntentTrackerOptions = {}) {
    this.skew = options.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
    this.now = options.now ?? (() => new Date());
    this.l10n = options.l10n ?? english;
  }

  /** Parses, verifies and applies an `_intent` payload. Calls are applied in the order made. */
  receive(raw: unknown, keys: Jwks | null | undefined): Promise<IntentUpdateResult> {
    const run = async (): Promise<IntentUpdateResult> => {
      const parsed = parseIntentPlan(raw);
      if (!parsed.ok) return { kind: 'invalid', error: parsed.error };
      const v = await verifyIntentToken(parsed.value.token, parsed.value.rawPlan, keys, this.now(), this.verifyOptions());
      return this.apply(parsed.value, v);
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Applies an already parsed and verified payload. */
  apply(payload: IntentPayload, verification: IntentVerification): IntentUpdateResult {
    let hash: string;
    try {
      hash = planHash(payload.plan);
    } catch {
      return { kind: 'invalid', error: this.l10n.t('Invalid intent plan: it cannot be written as canonical JSON.') };
    }
    const jti = jtiOf(verification, payload.token);
    const cur = this.current;
    const sameJti = cur !== undefined && jti !== undefined && cur.jti === jti;
    if (sameJti && cur.hash !== hash) {
      return {
        kind: 'conflict',
        detail: this.l10n.t('A refreshed token for plan {0} changes the plan; the earlier plan is kept. A wider plan needs a new plan id.', jti),
      };
    }
    const refresh = sameJti || (cur !== undefined && jti === undefined && cur.jti === undefined && cur.planId === payload.planId && cur.hash === hash);
    const next: IntentSnapshot = { planId: payload.planId, plan: payload.plan, rawPlan: payload.rawPlan, hash, verification };
    if (jti !== undefined) next.jti = jti;
    if (payload.token !== undefined) next.token = payload.token;
    this.current = next;
    if (!refresh) {
      this.calls.clear();
      this.used = payload.plan.steps.map(() => 0);
    }
    return { kind: 'accepted', change: refresh ? 'refresh' : 'new_plan' };
  }

  /** Re-verifies the current token (e.g. after the key set changed). */
  async reverify(keys: Jwks | null | undefined): Promise<IntentVerification | undefined> {
    const cur = this.current;
    if (!cur) return undefined;
    const v = await verifyIntentToken(cur.token, cur.rawPlan, keys, this.now(), this.verifyOptions());
    if (this.current === cur) cur.verification = v;
    return v;
  }

  /** Forgets the plan when the agent removes it. */
  remove(planId: string): void {
    if (this.current?.planId !== planId) return;
    this.current = undefined;
    this.calls.clear();
    this.used = [];
  }

  get intent(): IntentSnapshot | undefined {
    const cur = this.current;
    return cur && { ...cur, verification: verificationAt(cur.verification, this.now(), this.skew, this.l10n) };
  }

  stepUsage(): StepUsage[] {
    const steps = this.current?.plan.steps ?? [];
    return steps.map((s, i) => ({ stepIndex: i, tool: s.tool, callsUsed: this.used[i] ?? 0, maxCalls: s.maxCalls, required: s.required }));
  }

  /** The required steps that have not run (call at the end of a turn). */
  turnEnded(): StepUsage[] {
    return this.stepUsage().filter((s) => s.required && s.callsUsed === 0);
  }

  /** Records a tool-call event and judges the call against the current plan. */
  checkCall(obs: ToolCallObservation): CallVerdict {
    const verdict = this.judgeCall(this.merge(obs));
    const cur = this.current;
    return cur ? { ...verdict, planState: verificationAt(cur.verification, this.now(), this.skew, this.l10n).state } : verdict;
  }

  private judgeCall(seen: SeenCall): CallVerdict {
    const cur = this.current;
    if (!cur) return this.uncount(seen, { verdict: 'cannot_check', reason: 'no_intent_plan', detail: this.l10n.t('No intent plan has been declared.') });
    let toolName = resolveToolName(seen.name, seen.meta);
    let inferredFrom: 'title' | 'kind' | undefined;
    if (toolName === undefined) {
      const inferred = inferToolName(
        cur.plan.steps.map((s) => s.tool),
        seen.title,
        seen.kind,
        this.l10n,
      );
      if (!inferred.ok) return this.uncount(seen, { verdict: 'cannot_check', reason: 'no_tool_name', detail: inferred.why });
      toolName = inferred.toolName;
      inferredFrom = inferred.from;
    }
    const verdict = this.judgeNamed(cur, seen, toolName);
    if (!inferredFrom) return verdict;
    const note =
      inferredFrom === 'title'
        ? this.l10n.t('{0} (The call names no tool: "{1}" was inferred from its title.)', verdict.detail, toolName)
        : this.l10n.t('{0} (The call names no tool: "{1}" was inferred from its kind.)', verdict.detail, toolName);
    return { ...verdict, inferredFrom, detail: note };
  }

  private judgeNamed(cur: IntentSnapshot, seen: SeenCall, toolName: string): CallVerdict {
    const candidates = stepsForTool(cur.plan, toolName);
    if (candidates.length === 0) {
      return this.uncount(seen, {
        verdict: 'not_in_plan',
        toolName,
        reason: 'no_such_tool',
        detail: this.l10n.t('The plan has no step for the tool "{0}".', toolName),
      });
    }
    if (seen.rawInput === undefined && candidates.some((i) => Object.keys(cur.plan.steps[i].args ?? {}).length > 0)) {
      return this.uncount(seen, { verdict: 'cannot_check', toolName, reason: 'input_unknown', detail: this.l10n.t('The call has no input yet.') });
    }
    return this.judge(cur.plan, seen, toolName, candidates);
  }

  private judge(plan: IntentPlan, seen: SeenCall, toolName: string, candidates: number[]): CallVerdict {
    const results = candidates.map((i) => ({ i, m: matchStep(plan.steps[i], seen.rawInput, this.l10n) }));
    const matching = results.filter((r) => r.m.kind === 'match').map((r) => r.i);
    // Keep the step this call already counts against, if it still matches.
    const order = seen.step !== undefined && matching.includes(seen.step) ? [seen.step, ...matching.filter((i) => i !== seen.step)] : matching;
    for (const i of order) {
      const usedByOthers = (this.used[i] ?? 0) - (seen.step === i ? 1 : 0);
      if (usedByOthers < plan.steps[i].maxCalls) {
        this.count(seen, i);
        const callsUsed = this.used[i];
        return {
          verdict: 'in_plan',
          toolName,
          stepIndex: i,
          callsUsed,
          maxCalls: plan.steps[i].maxCalls,
          detail: this.l10n.t('Step {0} ({1}), call {2} of {3}.', i + 1, toolName, callsUsed, plan.steps[i].maxCalls),
        };
      }
    }
    if (matching.length > 0) {
      const i = matching[0];
      return this.uncount(seen, {
        verdict: 'not_in_plan',
        toolName,
        stepIndex: i,
        reason: 'max_calls_exceeded',
        detail:
          plan.steps[i].maxCalls === 1
            ? this.l10n.t('Step {0} ({1}) may run only once.', i + 1, toolName)
            : this.l10n.t('Step {0} ({1}) may run at most {2} times.', i + 1, toolName, plan.steps[i].maxCalls),
      });
    }
    const unchecked = results.find((r) => r.m.kind === 'unchecked');
    const first = unchecked ?? results[0];
    return this.uncount(seen, describeMismatch(toolName, first.i, first.m as Exclude<StepMatch, { kind: 'match' }>, this.l10n));
  }

  private verifyOptions(): { clockSkewSeconds: number; l10n: L10n } {
    return { clockSkewSeconds: this.skew, l10n: this.l10n };
  }

  private merge(obs: ToolCallObservation): SeenCall {
    let seen = this.calls.get(obs.toolCallId);
    if (!seen) {
      seen = {};
      this.calls.set(obs.toolCallId, seen);
    }
    if (obs.name !== undefined) seen.name = obs.name ?? undefined;
    if (obs.rawInput !== undefined) seen.rawInput = obs.rawInput ?? undefined;
    if (obs._meta !== undefined) seen.meta = obs._meta ?? undefined;
    if (obs.title !== undefined) seen.title = obs.title ?? undefined;
    if (obs.kind !== undefined) seen.kind = obs.kind ?? undefined;
    return seen;
  }

  private count(seen: SeenCall, step: number): void {
    if (seen.step === step) return;
    this.uncount(seen, undefined);
    seen.step = step;
    this.used[step] = (this.used[step] ?? 0) + 1;
  }

  private uncount<T>(seen: SeenCall, verdict: T): T {
    if (seen.step !== undefined) {
      this.used[seen.step] = Math.max(0, (this.used[seen.step] ?? 0) - 1);
      seen.step = undefined;
    }
    return verdict;
  }
}

/** The token's `jti`: from the verified claims, else read (unverified) from the token. */
function jtiOf(v: IntentVerification, token: string | undefined): string | undefined {
  return 'jti' in v ? v.jti : unverifiedJti(token);
}

/** The token's claims as written (not verified): for display, marked as unverified. */
export function unverifiedClaims(token: string | undefined): Record<string, unknown> | undefined {
  if (!token) return undefined;
  try {
    return loadJws().unverifiedClaims(token);
  } catch {
    return undefined;
  }
}

/** The token's `jti` as written (not verified): only for recognising a refresh of the same token. */
export function unverifiedJti(token: string | undefined): string | undefined {
  if (!token) return undefined;
  try {
    return loadJws().unverifiedJti(token);
  } catch {
    return undefined;
  }
}
