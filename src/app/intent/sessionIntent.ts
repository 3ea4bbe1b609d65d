// The intent plan of one session as the extension follows it: the tracker (plan, token, counts),
// the verdict of every tool call, the update the tracker refused, and the required steps that had
// not run when the last turn ended. No `vscode` (unit tested in plain Node).
//
// A plan is applied at once, with its token marked "checking"; the check itself is async (keys
// may have to be loaded) and follows. Tool calls and permission requests that arrive meanwhile are
// judged against the plan already, but never as backed by a verified token. A refresh of the plan
// shown (same plan id, same token id, same plan hash) keeps the verification it had until the new
// token has been checked: the plan it describes has not changed.
import { planHash } from '../../intent/canonical';
import type { CallVerdict } from '../../intent/checkCall';
import type { Jwks } from '../../intent/keys';
import { parseIntentPlan, type IntentPayload } from '../../intent/schema';
import { IntentTracker, unverifiedClaims, unverifiedJti, type IntentTrackerOptions, type StepUsage, type ToolCallObservation } from '../../intent/tracker';
import type { IntentVerification } from '../../intent/verify';
import { isUlid } from '../../intent/ulid';
import { english, type L10n } from '../../common/l10n';
import {
  claimLines,
  describeConstraints,
  stateText,
  stepUse,
  type ActiveIntentView,
  type IntentNodeView,
  type KeysStatus,
  type OutsideCallView,
  type ShownState,
  type UncheckedCallView,
} from './intentView';

/** The provisional verification of a plan whose token is being checked (its detail as the tree shows it: `checkingDetail`). */
export const CHECKING: IntentVerification = Object.freeze({ state: 'unverified', detail: 'The intent token is being checked.' });
const checkingDetail = (l10n: L10n): string => l10n.t('The intent token is being checked.');

/** Loads the keys tokens are checked against. */
export interface KeyLoader {
  get(): Promise<{ jwks: Jwks | null; status: KeysStatus }>;
  /** Loads again, bypassing the cache; undefined when a reload is not allowed now (cooldown). */
  reload(): Promise<{ jwks: Jwks | null; status: KeysStatus }> | undefined;
}

interface CallRecord {
  verdict: CallVerdict;
  title?: string;
}

export interface IntentSessionSnapshot {
  agentId: string;
  sessionId: string;
  /** The enforced intent plan, if any. */
  planId?: string;
  plan?: unknown;
  jti?: string;
  verification?: { state: ShownState; detail: string; kid?: string; expiresAt?: string; secondsLeft?: number };
  keys: KeysStatus;
  steps: StepUsage[];
  verdicts: ({ toolCallId: string; title?: string } & CallVerdict)[];
  /** Required steps that had not run at the end of the last turn; undefined until a turn ended. */
  missingRequired?: StepUsage[];
  /** The last `_intent` update that was refused (invalid, or a refresh that changes the plan). */
  refused?: { planId: string; kind: 'invalid' | 'conflict'; detail: string };
}

export class SessionIntent {
  readonly tracker: IntentTracker;
  private readonly calls = new Map<string, CallRecord>();
  private refused: IntentSessionSnapshot['refused'];
  private missing: number[] | undefined;
  private checking = false;
  private generation = 0;
  private keys: KeysStatus = { state: 'not_loaded' };
  /** The plan shown came from a declare_plan tool call (src/intent/declarePlan.ts): which one. */
  private source: string | undefined;
  /** The unverified claims of the last token read (decoded once per token). */
  private decoded: { token: string; claims: Record<string, unknown> | undefined } | undefined;

  constructor(
    readonly agentId: string,
    readonly sessionId: string,
    options: IntentTrackerOptions = {},
    /** The user's language for the tree's texts (vscode.l10n in the product). */
    private readonly l10n: L10n = english,
  ) {
    this.tracker = new IntentTracker({ l10n, ...options });
  }

  /** Whether a token check is running for the plan shown. */
  get isChecking(): boolean {
    return this.checking;
  }

  /**
   * Applies an `_intent` payload (the raw plan of a plan update). Returns true when the token must
   * now be checked (`verify`), false when nothing was applied.
   */
  receive(raw: Record<string, unknown>): boolean {
    const planId = typeof raw.planId === 'string' ? raw.planId : '';
    const parsed = parseIntentPlan(raw);
    if (!parsed.ok) {
      this.refused = { planId, kind: 'invalid', detail: parsed.error };
      return false;
    }
    const payload = parsed.value;
    const cur = this.tracker.intent;
    let hash: string | undefined;
    try {
      hash = planHash(payload.plan);
    } catch {
      hash = undefined;
    }
    const samePlan = cur !== undefined && hash !== undefined && cur.planId === payload.planId && cur.hash === hash;
    if (samePlan && cur.token === payload.token) {
      if (this.refused?.planId === planId) this.refused = undefined;
      return false; // the same plan and token again (a replay)
    }
    const isRefresh = samePlan && cur.jti !== undefined && cur.jti === unverifiedJti(payload.token);
    const provisional = isRefresh ? cur.verification : CHECKING;
    const result = this.tracker.apply(payload, provisional);
    if (result.kind !== 'accepted') {
      this.refused = { planId, kind: result.kind, detail: result.kind === 'conflict' ? result.detail : result.error };
      return false;
    }
    this.refused = undefined;
    this.source = sourceOf(raw.declaredBy, this.l10n);
    if (result.change === 'new_plan') {
      this.calls.clear();
      this.missing = undefined;
    }
    this.generation++;
    this.checking = provisional === CHECKING;
    return true;
  }

  /** Marks the plan shown as being checked again (the key setting changed). False: no plan. */
  recheck(): boolean {
    const cur = this.tracker.intent;
    if (!cur) return false;
    const payload: IntentPayload = { planId: cur.planId, plan: cur.plan, rawPlan: cur.rawPlan };
    if (cur.token !== undefined) payload.token = cur.token;
    this.tracker.apply(payload, CHECKING); // same token: a refresh, the counts stay
    this.generation++;
    this.checking = true;
    return true;
  }

  /**
   * Checks the current token. When the token names a key that is not in the set, or no key of the
   * set verifies it, or the keys failed to load, the keys are loaded once more (they may have been
   * rotated) if the loader allows it.
   */
  async verify(loader: KeyLoader): Promise<void> {
    const generation = this.generation;
    try {
      let keys = await loader.get();
      const v = await this.tracker.reverify(keys.jwks);
      if (v && (v.state === 'unknown_key' || v.state === 'bad_signature' || keys.status.state === 'error')) {
        const again = loader.reload();
        if (again) {
          keys = await again;
          await this.tracker.reverify(keys.jwks);
        }
      }
      this.keys = keys.status;
    } finally {
      // On a failure the provisional state stays: unverified.
      if (generation === this.generation) this.checking = false;
    }
  }

  /** Records a tool-call event (or a permission request's tool call); true when what is shown changed. */
  observe(obs: ToolCallObservation, title?: string | null): { verdict: CallVerdict; changed: boolean } {
    const verdict = this.tracker.checkCall(obs);
    const prev = this.calls.get(obs.toolCallId);
    const next: CallRecord = { verdict };
    const t = title === undefined ? prev?.title : (title ?? undefined);
    if (t !== undefined) next.title = t;
    this.calls.set(obs.toolCallId, next);
    return { verdict, changed: !prev || verdictKey(prev.verdict) !== verdictKey(verdict) || prev.title !== next.title };
  }

  /** The turn ended: remembers the required steps that have not run. True when a plan is shown. */
  turnEnded(): boolean {
    if (!this.tracker.intent) return false;
    this.missing = this.tracker.turnEnded().map((s) => s.stepIndex);
    return true;
  }

  /** The agent removed the plan (or replaced it with one of another type). True when something changed. */
  remove(planId: string): boolean {
    let changed = false;
    if (this.refused?.planId === planId) {
      this.refused = undefined;
      changed = true;
    }
    if (this.tracker.intent?.planId !== planId) return changed;
    this.tracker.remove(planId);
    this.calls.clear();
    this.missing = undefined;
    this.checking = false;
    this.generation++;
    return true;
  }

  /** The view of the `_intent` plan `planId` for the tree. */
  view(planId: string): IntentNodeView {
    const cur = this.tracker.intent;
    const l10n = this.l10n;
    if (!cur || cur.planId !== planId) {
      if (this.refused?.planId === planId) {
        const stateText = this.refused.kind === 'invalid' ? l10n.t('invalid plan') : l10n.t('refused refresh');
        return { kind: 'inactive', planId, stateText, detail: this.refused.detail };
      }
      const detail = cur ? l10n.t('Replaced by the intent plan "{0}".', cur.planId) : l10n.t('This intent plan is not in force.');
      return { kind: 'inactive', planId, stateText: cur ? l10n.t('replaced') : l10n.t('not in force'), detail };
    }
    const v = cur.verification;
    const state: ShownState = this.checking ? 'checking' : v.state;
    const usage = this.tracker.stepUsage();
    const view: ActiveIntentView = {
      kind: 'active',
      planId,
      state,
      stateText: stateText(state, v, this.keys, l10n),
      detail: this.checking ? checkingDetail(l10n) : v.detail,
      verified: state === 'verified',
      goal: cur.plan.goal,
      user: cur.plan.user,
      ...(this.source ? { source: this.source } : {}),
      steps: usage.map((u) => ({
        ...u,
        index: u.stepIndex,
        use: stepUse(u.callsUsed, u.maxCalls),
        constraints: describeConstraints(cur.plan.steps[u.stepIndex]?.args, l10n),
      })),
      outside: this.outside(),
      unchecked: this.unchecked(),
      warnings: this.warnings(planId),
      keys: this.keys,
    };
    if ('kid' in v) view.kid = v.kid;
    if ('expiresAt' in v) view.expiresAt = v.expiresAt;
    const claims = 'claims' in v ? v.claims : this.claimsAsWritten(cur.token);
    if (claims) {
      view.claims = claimLines(claims, l10n);
      view.claimsVerified = 'claims' in v;
    }
    const jti = 'jti' in v ? v.jti : cur.jti;
    // ULIDs are case-insensitive (Crockford base32); the canonical form is upper case.
    if (jti !== undefined && !isUlid(jti.toUpperCase())) {
      view.warnings.push(
        l10n.t(
          "The token id (jti) {0} is not a ULID, as intent tokens require. Ask the agent's guard to issue a proper token.",
          JSON.stringify(jti.length > 60 ? `${jti.slice(0, 59)}…` : jti),
        ),
      );
    }
    if (this.missing)
      view.missingRequired = this.missing.filter((i) => (usage[i]?.callsUsed ?? 0) === 0).map((i) => usage[i]?.tool ?? l10n.t('step {0}', i + 1));
    return view;
  }

  snapshot(): IntentSessionSnapshot {
    const cur = this.tracker.intent;
    const out: IntentSessionSnapshot = {
      agentId: this.agentId,
      sessionId: this.sessionId,
      keys: this.keys,
      steps: this.tracker.stepUsage(),
      verdicts: [...this.calls].map(([toolCallId, r]) => ({ toolCallId, ...(r.title !== undefined ? { title: r.title } : {}), ...r.verdict })),
    };
    if (cur) {
      const v = cur.verification;
      out.planId = cur.planId;
      out.plan = cur.plan;
      if (cur.jti !== undefined) out.jti = cur.jti;
      out.verification = { state: this.checking ? 'checking' : v.state, detail: this.checking ? CHECKING.detail : v.detail };
      if ('kid' in v) out.verification.kid = v.kid;
      if ('expiresAt' in v) out.verification.expiresAt = v.expiresAt.toISOString();
      if (v.state === 'verified') out.verification.secondsLeft = v.secondsLeft;
      if (this.missing) out.missingRequired = this.missing.map((i) => out.steps[i]).filter((s): s is StepUsage => !!s && s.callsUsed === 0);
    }
    if (this.refused) out.refused = { ...this.refused };
    return out;
  }

  /** When the token shown stops being valid (undefined: it is not verified). */
  get verifiedUntil(): Date | undefined {
    const v = this.tracker.intent?.verification;
    return !this.checking && v?.state === 'verified' ? v.expiresAt : undefined;
  }

  private claimsAsWritten(token: string | undefined): Record<string, unknown> | undefined {
    if (!token) return undefined;
    if (this.decoded?.token !== token) this.decoded = { token, claims: unverifiedClaims(token) };
    return this.decoded.claims;
  }

  private outside(): OutsideCallView[] {
    const out: OutsideCallView[] = [];
    for (const [toolCallId, r] of this.calls) {
      const v = r.verdict;
      if (v.verdict !== 'not_in_plan') continue;
      const c: OutsideCallView = { toolCallId, toolName: v.toolName, reason: v.reason, detail: v.detail };
      if (r.title !== undefined) c.title = r.title;
      out.push(c);
    }
    return out;
  }

  private unchecked(): UncheckedCallView[] {
    const out: UncheckedCallView[] = [];
    for (const [toolCallId, r] of this.calls) {
      const v = r.verdict;
      // "no input yet" passes as soon as the input arrives: not worth a row.
      if (v.verdict !== 'cannot_check' || (v.reason !== 'no_tool_name' && v.reason !== 'unchecked_constraint')) continue;
      out.push({ toolCallId, detail: v.detail, ...(r.title !== undefined ? { title: r.title } : {}) });
    }
    return out;
  }

  private warnings(planId: string): string[] {
    const out: string[] = [];
    const l10n = this.l10n;
    if (this.keys.state === 'error') out.push(l10n.t('Intent keys could not be loaded: {0}', this.keys.error));
    if (this.refused?.planId === planId) {
      out.push(
        this.refused.kind === 'conflict'
          ? this.refused.detail
          : l10n.t('The latest update of this plan was refused; the earlier plan is still in force. {0}', this.refused.detail),
      );
    }
    return out;
  }
}

/** "the declare_plan tool call c1 (completed)" from a payload's `declaredBy`. */
function sourceOf(by: unknown, l10n: L10n): string | undefined {
  if (typeof by !== 'object' || by === null) return undefined;
  const { toolCallId, status } = by as { toolCallId?: unknown; status?: unknown };
  if (typeof toolCallId !== 'string') return undefined;
  const id = toolCallId.slice(0, 80);
  return typeof status === 'string' ? l10n.t('the declare_plan tool call {0} ({1})', id, status.slice(0, 20)) : l10n.t('the declare_plan tool call {0}', id);
}

function verdictKey(v: CallVerdict): string {
  const step = 'stepIndex' in v ? v.stepIndex : '';
  const used = v.verdict === 'in_plan' ? v.callsUsed : '';
  const reason = 'reason' in v ? v.reason : '';
  return `${v.verdict}|${reason}|${step}|${used}|${v.planState ?? ''}|${v.detail}`;
}
