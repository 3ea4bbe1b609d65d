// Intent plans in the running extension: one tracker per (agent, session), fed with plan updates,
// tool calls and turn ends; permission requests are checked against the declared plan before the
// user sees them. Tokens are checked against the keys of `acp.intent.jwks` (loaded when a plan
// needs them, again when the setting changes).
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { Config } from '../platform/config';
import { SETTINGS } from '../platform/config';
import type { Logs } from '../agents/logs';
import type { PermissionInspection } from './permissionBroker';
import { DeclaredPlans, DEFAULT_CLOCK_SKEW_SECONDS, intentPayloadOf, JwksSource, type Jwks, type JwksLoad } from '../intent';
import { declaredKey as key, declaredPlanUpdate } from '../intent/declarePlan';
import type { PermissionRequest, SessionEvent } from '../protocol/domain';
import type { PlanRef, PlanStore } from '../state/planStore';
import type { IntentNodeView, IntentSource, KeysStatus } from './intent/intentView';
import { SessionIntent, type IntentSessionSnapshot, type KeyLoader } from './intent/sessionIntent';

export type { IntentSessionSnapshot } from './intent/sessionIntent';

/** Keys are loaded again on an unknown key or a bad signature at most this often. */
const RELOAD_COOLDOWN_MS = 30_000;

export interface IntentChange {
  agentId: string;
  sessionId: string;
}

export class IntentChecks extends Disposable implements IntentSource {
  private readonly sessions = new Map<string, SessionIntent>();
  private readonly expiryTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Token checks running now. */
  private readonly pending = new Set<Promise<void>>();
  private readonly jwks: JwksSource;
  private readonly changed = this._register(new vscode.EventEmitter<IntentChange>());
  private lastReload = -Infinity;
  private lastKeyError: string | undefined;
  private disposed = false;

  /** Fires when what an intent plan node shows may have changed. */
  readonly onDidChange = this.changed.event;

  /** `declared`: the declare_plan calls seen so far (shared with IntentFeature, which sees them before this loads). */
  constructor(
    readonly config: Config,
    readonly logs: Logs,
    readonly plans: PlanStore,
    private readonly declared = new DeclaredPlans(),
  ) {
    super();
    this.jwks = new JwksSource(config.intentJwks(), { l10n: vscode.l10n });
    this._register(
      toDisposable(() => {
        this.disposed = true;
        for (const t of this.expiryTimers.values()) clearTimeout(t);
        this.expiryTimers.clear();
        this.sessions.clear();
      }),
    );
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`acp.${SETTINGS.intentJwks}`)) this.keysChanged();
      }),
    );
    this._register(
      plans.onDidChange((c) => {
        if (c.kind === 'cleared') this.forget(c.agentId, c.sessionId);
      }),
    );
  }

  /**
   * Every SessionEvent of every agent, in arrival order. Returns the `_intent` plan update that a
   * `declare_plan` tool call declares (src/intent/declarePlan.ts), for the caller to apply like any
   * event the agent sent.
   */
  apply(agentId: string, e: SessionEvent): SessionEvent | undefined {
    switch (e.kind) {
      case 'plan_update': {
        const raw = intentPayloadOf(e.plan);
        if (raw) this.receive(agentId, e.sessionId, raw);
        else this.changeIf(this.session(agentId, e.sessionId), (s) => s.remove(e.plan.planId));
        return;
      }
      case 'plan_removed':
        this.changeIf(this.session(agentId, e.sessionId), (s) => s.remove(e.planId));
        return;
      case 'tool_call': {
        const f = e.fields;
        // A declare_plan call declares the plan: it is not judged against one.
        const declared = this.declared.observe(key(agentId, e.sessionId), e.toolCallId, f);
        if (declared) return declared.payload && declaredPlanUpdate(e.sessionId, declared.payload);
        this.changeIf(
          this.session(agentId, e.sessionId),
          (s) => s.observe({ toolCallId: e.toolCallId, name: f.name, rawInput: f.rawInput, _meta: f._meta, title: f.title, kind: f.kind }, f.title).changed,
        );
        return;
      }
      case 'state':
        if (e.state === 'idle' && e.stopReason) this.changeIf(this.session(agentId, e.sessionId), (s) => s.turnEnded());
        return;
      // Nothing an intent plan checks.
      case 'message_chunk':
      case 'message':
      case 'tool_call_content_chunk':
      case 'terminal_update':
      case 'terminal_output_chunk':
      case 'commands':
      case 'config_options':
      case 'session_info':
      case 'usage':
      case 'notice':
      case 'compaction':
      case 'compaction_chunk':
      case 'unknown':
      case 'replay_complete':
      case 'subagent':
      case 'session_message':
      case 'session_message_chunk':
        return;
      default:
        return e satisfies never;
    }
  }

  /**
   * Checks the tool call a permission request is about. Flags `not_in_plan` when the declared plan
   * does not cover it; asks for an automatic reject only when the setting is on and the plan is
   * backed by a verified token. With the setting on, a flagged request waits for a token check
   * that is still running (the plan may turn out verified).
   */
  inspectPermission(agentId: string, req: PermissionRequest): PermissionInspection | Promise<PermissionInspection> {
    const now = this.inspectNow(agentId, req);
    if (!now.waitForCheck) return now.result;
    return this.whenChecked().then(() => this.inspectNow(agentId, req).result);
  }

  /** The view of an `_intent` plan for the Plans tree. */
  view(ref: PlanRef): IntentNodeView | undefined {
    if (ref.archiveId !== undefined) return undefined;
    return this.session(ref.agentId, ref.sessionId)?.view(ref.planId);
  }

  /** Per session: the intent plan, its verification, step usage, verdicts and missing required steps. */
  snapshot(filter: { agentId?: string; sessionId?: string } = {}): IntentSessionSnapshot[] {
    return [...this.sessions.values()]
      .filter((s) => (filter.agentId === undefined || s.agentId === filter.agentId) && (filter.sessionId === undefined || s.sessionId === filter.sessionId))
      .map((s) => s.snapshot());
  }

  /** Resolves when the token checks running now have finished. */
  whenChecked(): Promise<void> {
    return Promise.all(this.pending).then(() => undefined);
  }

  // ------------------------------------------------------------------ internals

  private inspectNow(agentId: string, req: PermissionRequest): { result: PermissionInspection; waitForCheck: boolean } {
    const none = { result: { flags: [] }, waitForCheck: false };
    const s = this.session(agentId, req.sessionId);
    if (!s) return none;
    // While a plan is in force, a request that can't be matched to a step fails closed: it is
    // marked `cannot_check`, so no "always allow" rule answers it for the user.
    const cannotCheck = { result: { flags: s.tracker.intent ? ['cannot_check'] : [] }, waitForCheck: false };
    const subject = req.subject;
    if (!subject) return cannotCheck;
    let seen: ReturnType<SessionIntent['observe']>;
    if (subject.type === 'tool_call') {
      const f = subject.fields;
      seen = s.observe({ toolCallId: subject.toolCallId, name: f.name, rawInput: f.rawInput, _meta: f._meta, title: f.title, kind: f.kind }, f.title);
    } else if (subject.type === 'command' && subject.toolCallId) {
      seen = s.observe({ toolCallId: subject.toolCallId });
    } else {
      return cannotCheck;
    }
    if (seen.changed) this.fire(s);
    if (seen.verdict.verdict === 'cannot_check') return cannotCheck;
    // A tool inferred from a title or kind is a guess: it neither clears the call for a rule nor rejects it.
    const inferred = seen.verdict.inferredFrom !== undefined;
    if (seen.verdict.verdict !== 'not_in_plan') return inferred ? cannotCheck : none;
    const autoRejectOn = this.config.intentAutoReject() && !inferred;
    const verified = seen.verdict.planState === 'verified' && !s.isChecking;
    return {
      result: autoRejectOn && verified ? { flags: ['not_in_plan'], autoReject: true } : { flags: ['not_in_plan'] },
      waitForCheck: autoRejectOn && s.isChecking,
    };
  }

  private receive(agentId: string, sessionId: string, raw: Record<string, unknown>): void {
    let s = this.session(agentId, sessionId);
    if (!s) {
      s = new SessionIntent(agentId, sessionId, {}, vscode.l10n);
      this.sessions.set(key(agentId, sessionId), s);
    }
    const check = s.receive(raw);
    this.fire(s);
    if (check) this.verify(s);
  }

  private verify(s: SessionIntent): void {
    const run = s
      .verify(this.keyLoader)
      .catch((err: unknown) => {
        this.logs.main.error(`intent: checking the token of session ${s.sessionId} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      })
      .then(() => {
        this.pending.delete(run);
        if (this.disposed || this.sessions.get(key(s.agentId, s.sessionId)) !== s) return;
        this.scheduleExpiry(s);
        this.fire(s);
      });
    this.pending.add(run);
  }

  private readonly keyLoader: KeyLoader = {
    get: () => this.jwks.get().then((l) => this.keysLoaded(l)),
    reload: () => {
      const now = Date.now();
      if (now - this.lastReload < RELOAD_COOLDOWN_MS) return undefined;
      this.lastReload = now;
      return this.jwks.reload().then((l) => this.keysLoaded(l));
    },
  };

  private keysLoaded(load: JwksLoad): { jwks: Jwks | null; status: KeysStatus } {
    switch (load.state) {
      case 'none':
        return { jwks: null, status: { state: 'none' } };
      case 'loaded':
        if (this.lastKeyError !== undefined) this.logs.main.info(`intent: loaded ${load.jwks.keys.length} key(s) from ${load.from}`);
        this.lastKeyError = undefined;
        return { jwks: load.jwks, status: { state: 'loaded', from: load.from, keyCount: load.jwks.keys.length } };
      case 'error':
        if (this.lastKeyError !== load.error) this.logs.main.warn(`intent: ${load.error}`);
        this.lastKeyError = load.error;
        return { jwks: null, status: { state: 'error', from: load.from, error: load.error } };
    }
  }

  /** `acp.intent.jwks` changed: new key source, every plan shown is checked again. */
  private keysChanged(): void {
    this.jwks.setLocation(this.config.intentJwks());
    this.lastReload = -Infinity;
    this.lastKeyError = undefined;
    for (const s of this.sessions.values()) {
      if (!s.recheck()) continue;
      this.fire(s);
      this.verify(s);
    }
  }

  /** Refreshes the nodes when a verified token runs out (the state is computed when shown). */
  private scheduleExpiry(s: SessionIntent): void {
    const k = key(s.agentId, s.sessionId);
    const old = this.expiryTimers.get(k);
    if (old) clearTimeout(old);
    this.expiryTimers.delete(k);
    const until = s.verifiedUntil;
    if (!until) return;
    const ms = Math.max(0, until.getTime() + DEFAULT_CLOCK_SKEW_SECONDS * 1000 + 1000 - Date.now());
    this.expiryTimers.set(
      k,
      setTimeout(() => {
        this.expiryTimers.delete(k);
        if (this.sessions.get(k) === s) this.fire(s);
      }, ms),
    );
  }

  private forget(agentId: string, sessionId: string | undefined): void {
    if (sessionId === undefined) this.declared.forget(`${agentId}\u0000`, true);
    else this.declared.forget(key(agentId, sessionId));
    for (const [k, s] of this.sessions) {
      if (s.agentId !== agentId || (sessionId !== undefined && s.sessionId !== sessionId)) continue;
      this.sessions.delete(k);
      const t = this.expiryTimers.get(k);
      if (t) clearTimeout(t);
      this.expiryTimers.delete(k);
      this.fire(s);
    }
  }

  private session(agentId: string, sessionId: string): SessionIntent | undefined {
    return this.sessions.get(key(agentId, sessionId));
  }

  private changeIf(s: SessionIntent | undefined, change: (s: SessionIntent) => boolean): void {
    if (s && change(s)) this.fire(s);
  }

  private fire(s: SessionIntent): void {
    if (!this.disposed) this.changed.fire({ agentId: s.agentId, sessionId: s.sessionId });
  }
}
