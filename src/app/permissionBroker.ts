// The one path of every permission request: inspected (intent checks), answered by a rule the user
// created, or put to the user — inline in the conversation and in a notification — and answered
// only with the option the user picked. Each option is shown with its kind next to the agent's
// name; an option whose name contradicts its kind is flagged and never creates a rule; before an
// "always allow" creates a rule the user sees exactly what it covers and picks its breadth.
// The pending requests are state of their session (SessionStore); the broker keeps the agent's
// waiting promise. `onDidAsk` / `onDidDecide` let the transcript render a request and its answer,
// once each. Cancelling the turn answers `cancelled`. Rules are kept in a KeyValueStore and the user
// is asked through ConsentUi: no `vscode` here (unit-tested in plain Node).
import type { L10n } from '../common/l10n';
import { randomUUID } from 'node:crypto';
import type { CancelToken } from '../protocol/api';
import type { PermissionOutcome, PermissionRequest } from '../protocol/domain';
import type { PendingPermission, SessionStore } from '../state/sessionStore';
import { Disposable, toDisposable } from '../common/lifecycle';
import { Emitter } from '../state/emitter';
import { isModeSwitch } from '../consent/modeSwitch';
import { consentRules } from '../consent/loader';
import type { OptionView, PermissionRule, RuleCandidate, RuleOffer } from '../consent/permissionRules';

const RULES_KEY = 'acp.permissionRules';
/** Requests of one agent waiting for the user at once; more are answered `cancelled` (and reported). */
export const MAX_PENDING_PER_AGENT = 64;

/** How the broker asks (a notification, a pick); tests and other hosts may supply their own. */
export interface ConsentUi {
  /** Words the option labels and warnings (`vscode.l10n` in the product; English without). */
  readonly l10n?: L10n;
  /** Shows the request; resolves with the option picked there (undefined: dismissed). */
  ask(entry: PendingPermission, views: readonly OptionView[]): Promise<OptionView | undefined>;
  /** The rule an "always allow" creates: a candidate, `null` for none, undefined if dismissed. */
  pickRule(offer: RuleOffer, agentName: string): Promise<RuleCandidate | null | undefined>;
  /** A rule now exists; offers Undo. */
  ruleCreated(description: string, undo: () => void): void;
  /** Something the user should know that needs no answer (requests answered `cancelled` in bulk). */
  warn(message: string): void;
  /** A button of a request's notification was clicked after the request was answered elsewhere. */
  alreadyAnswered(entry: PendingPermission): void;
}

/** Where the rules are kept (the extension's global state). */
export interface KeyValueStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface PermissionDecision {
  readonly id: string;
  readonly agentId: string;
  readonly sessionId: string;
  readonly request: PermissionRequest;
  readonly outcome: PermissionOutcome;
  /** Answered without asking: by a rule the user created, or rejected by the intent check. */
  readonly auto?: { byRule?: PermissionRule; rejected?: 'not_in_plan' };
}

export interface PermissionInspection {
  flags: string[];
  autoReject?: boolean;
}

/**
 * Lets other parts (intent checks) look at a request before the user sees it. A promise holds the
 * request back until it settles (e.g. while the intent token it depends on is being checked).
 */
export type PermissionInspector = (agentId: string, req: PermissionRequest) => PermissionInspection | Promise<PermissionInspection>;

/** Which rule an "always allow" creates: the narrow candidate (the default), the wider one, or none. */
export type RuleChoice = 'narrow' | 'wider' | 'none';

interface Waiting {
  entry: PendingPermission;
  views: OptionView[];
  resolve: (o: PermissionOutcome) => void;
  answered: Promise<void>;
}

/** What the broker reads of other services for each request. */
export interface BrokerSources {
  /** The intent check (flags a request the declared plan does not cover). */
  readonly inspector?: PermissionInspector;
  /** The kind the conversation knows for a request's tool call (a permission may omit it). */
  readonly toolKindOf?: (agentId: string, req: PermissionRequest) => string | null | undefined;
}

export class PermissionBroker extends Disposable {
  /** The agent's waiting promise of each pending request (the request itself is in the store). */
  private readonly waiting = new Map<string, Waiting>();
  private readonly _onDidAsk = this._register(new Emitter<PendingPermission>());
  private readonly _onDidDecide = this._register(new Emitter<PermissionDecision>());
  private seq = 0;
  /** Ids stay unique across reloads (restored conversations keep the earlier requests). */
  private readonly run = randomUUID().slice(0, 8);
  private disposed = false;
  /** The agents whose notification is on screen (one per agent; the next request's shows when it is answered). */
  private readonly notifying = new Set<string>();
  private readonly overflowReported = new Set<string>();
  /** Requests whose notification the user closed without answering (still answerable inline). */
  private readonly dismissed = new Set<string>();
  /** A request was put to the user. */
  readonly onDidAsk = this._onDidAsk.event;
  /** A request was answered (by the user, a rule, the intent check, or cancellation). */
  readonly onDidDecide = this._onDidDecide.event;

  /** `ui` undefined: requests are shown inline only (tests). */
  constructor(
    private readonly memento: KeyValueStore,
    private readonly store: SessionStore,
    private readonly ui: ConsentUi | undefined,
    private readonly log: (message: string) => void = () => undefined,
    private readonly sources: BrokerSources = {},
  ) {
    super();
    this._register(
      toDisposable(() => {
        this.disposed = true;
        for (const id of [...this.waiting.keys()]) this.settle(id, { outcome: 'cancelled' });
      }),
    );
  }

  private notesLogged = false;

  get pending(): PendingPermission[] {
    return [...this.waiting.values()].map((p) => p.entry);
  }
  pendingFor(sessionId: string): PendingPermission[] {
    return this.pending.filter((p) => p.request.sessionId === sessionId);
  }
  /** How each option of a pending request is shown (labels with kinds, warnings). */
  optionViews(id: string): readonly OptionView[] | undefined {
    return this.waiting.get(id)?.views;
  }

  get rules(): PermissionRule[] {
    const stored = this.memento.get(RULES_KEY);
    if (stored === undefined) return [];
    // The rules (dist/consent.js) load with the first request that needs them, not at activation;
    // what reading them found (rules migrated or dropped) is logged once, then.
    const loaded = consentRules().loadRules(stored);
    if (!this.notesLogged) {
      this.notesLogged = true;
      for (const n of loaded.notes) this.log(`[rules] ${n}`);
    }
    return loaded.rules;
  }
  async removeRule(rule: PermissionRule): Promise<void> {
    const { rules, foreign } = consentRules().loadRules(this.memento.get(RULES_KEY));
    await this.memento.update(RULES_KEY, [...rules.filter((r) => !consentRules().sameRule(r, rule)), ...foreign]);
  }
  async addRule(rule: PermissionRule): Promise<void> {
    const { rules, foreign } = consentRules().loadRules(this.memento.get(RULES_KEY));
    if (rules.some((r) => consentRules().sameRule(r, rule))) return;
    await this.memento.update(RULES_KEY, [...rules, rule, ...foreign]);
  }
  describe(rule: PermissionRule, agentName: string): string {
    return consentRules().describeRule(rule, agentName);
  }

  request(agentId: string, agentName: string, req: PermissionRequest, token: CancelToken): Promise<PermissionOutcome> {
    const id = `perm-${this.run}-${++this.seq}`;
    const inspection = this.sources.inspector?.(agentId, req) ?? { flags: [] };
    if (!(inspection instanceof Promise)) return this.decide(id, agentId, agentName, req, token, inspection);
    return inspection
      .catch((): PermissionInspection => ({ flags: [] }))
      .then((i) => {
        if (!this.disposed && !token.isCancellationRequested) return this.decide(id, agentId, agentName, req, token, i);
        const outcome: PermissionOutcome = { outcome: 'cancelled' };
        if (!this.disposed) this._onDidDecide.fire({ id, agentId, sessionId: req.sessionId, request: req, outcome });
        return outcome;
      });
  }

  private decide(
    id: string,
    agentId: string,
    agentName: string,
    req: PermissionRequest,
    token: CancelToken,
    inspection: PermissionInspection,
  ): Promise<PermissionOutcome> {
    if (inspection.autoReject) return Promise.resolve(this.autoReject(id, agentId, req));
    // Leaving plan mode is the user's decision every time: no rule answers it, none is created from it.
    const modeSwitch = isModeSwitch(req, this.sources.toolKindOf?.(agentId, req));
    const rule = inspection.flags.length === 0 && !modeSwitch ? this.rules.find((r) => consentRules().ruleMatches(r, agentId, req)) : undefined;
    const allowed = rule && consentRules().allowOption(req.options);
    if (rule && allowed) {
      const outcome: PermissionOutcome = { outcome: 'selected', optionId: allowed.optionId };
      this._onDidDecide.fire({ id, agentId, sessionId: req.sessionId, request: req, outcome, auto: { byRule: rule } });
      return Promise.resolve(outcome);
    }
    if (this.pending.filter((p) => p.agentId === agentId).length >= MAX_PENDING_PER_AGENT) return Promise.resolve(this.overflow(id, agentId, agentName, req));
    return this.ask({ id, agentId, agentName, request: req, flags: inspection.flags, createdAt: Date.now() }, token, modeSwitch);
  }

  /** A request outside the declared intent plan, rejected without asking. */
  private autoReject(id: string, agentId: string, req: PermissionRequest): PermissionOutcome {
    // Only a one-time rejection: a lasting `reject_always` is a decision the user never made.
    const reject = consentRules()
      .optionPresentation(req.options, this.ui?.l10n)
      .find((v) => v.kind === 'reject_once' && !v.contradicts && !v.ambiguousId);
    const outcome: PermissionOutcome = reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' };
    this._onDidDecide.fire({ id, agentId, sessionId: req.sessionId, request: req, outcome, auto: { rejected: 'not_in_plan' } });
    return outcome;
  }

  /** A request past the agent's MAX_PENDING_PER_AGENT waiting ones: answered "cancelled", said once per agent. */
  private overflow(id: string, agentId: string, agentName: string, req: PermissionRequest): PermissionOutcome {
    if (!this.overflowReported.has(agentId)) {
      this.overflowReported.add(agentId);
      const message = `${agentName} asked for more than ${MAX_PENDING_PER_AGENT} permissions at once; the extra requests were answered "cancelled". Answer or cancel the waiting ones.`;
      this.log(message);
      this.ui?.warn(message);
    }
    const outcome: PermissionOutcome = { outcome: 'cancelled' };
    this._onDidDecide.fire({ id, agentId, sessionId: req.sessionId, request: req, outcome });
    return outcome;
  }

  /** Shows the request and waits for the user's answer (or the agent's cancel). */
  private ask(entry: PendingPermission, token: CancelToken, modeSwitch: boolean): Promise<PermissionOutcome> {
    const id = entry.id;
    return new Promise<PermissionOutcome>((resolve) => {
      const sub = token.onCancellationRequested(() => this.settle(id, { outcome: 'cancelled' }));
      let markAnswered!: () => void;
      const answered = new Promise<void>((r) => {
        markAnswered = r;
      });
      const views = consentRules()
        .optionPresentation(entry.request.options, this.ui?.l10n)
        .map((v) => (modeSwitch ? { ...v, mayCreateRule: false, mayAutoPick: false } : v));
      this.waiting.set(id, {
        entry,
        views,
        answered,
        resolve: (o) => {
          sub.dispose();
          markAnswered();
          resolve(o);
        },
      });
      // Rendered first: a store listener may answer at once, and the answer must find the request shown.
      this._onDidAsk.fire(entry);
      this.store.addPendingPermission(entry);
      void this.showPrompt(id);
    });
  }

  /**
   * Answers a pending request with the option the user picked: by its position among the
   * request's options (what a click knows), or by its id when that id names one option only.
   * An "always allow" creates the rule `rule` says (default: the narrow one); false when the
   * request is unknown or already answered, or the option is not one of its own.
   */
  async respond(id: string, option: string | { index: number }, rule: RuleChoice = 'narrow'): Promise<boolean> {
    const w = this.waiting.get(id);
    const view = w && pickView(w.views, option);
    if (!w || !view) return false;
    const candidate = view.mayCreateRule && rule !== 'none' ? pickCandidate(consentRules().ruleOffer(w.entry.request), rule) : undefined;
    return this.answer(id, view, candidate ?? null);
  }

  /** Answers every pending request of a session `cancelled` (turn cancelled, agent gone). */
  cancelSession(agentId: string, sessionId: string): void {
    for (const p of this.pending) if (p.agentId === agentId && p.request.sessionId === sessionId) this.settle(p.id, { outcome: 'cancelled' });
  }

  /** A click (notification or conversation): an "always allow" first asks which rule to create. */
  async choose(id: string, option: string | { index: number }): Promise<boolean> {
    const w = this.waiting.get(id);
    const view = w && pickView(w.views, option);
    if (!w || !view) return false;
    if (!view.mayCreateRule || !this.ui) return this.answer(id, view, null);
    const candidate = await this.ui.pickRule(consentRules().ruleOffer(w.entry.request), w.entry.agentName);
    if (candidate === undefined || !this.waiting.has(id)) return false; // dismissed: still pending
    return this.answer(id, view, candidate);
  }

  private async answer(id: string, view: OptionView, candidate: RuleCandidate | null): Promise<boolean> {
    const w = this.waiting.get(id);
    if (!w) return false;
    let rule: PermissionRule | undefined;
    if (candidate) {
      rule = consentRules().createRule(w.entry.agentId, candidate, Date.now());
      await this.addRule(rule);
    }
    if (!this.settle(id, consentRules().outcomeFor(view))) return false;
    if (rule && this.ui) {
      const created = rule;
      this.ui.ruleCreated(consentRules().describeRule(created, w.entry.agentName), () => void this.removeRule(created));
    }
    return true;
  }

  private settle(id: string, outcome: PermissionOutcome): boolean {
    const p = this.waiting.get(id);
    if (!p) return false;
    this.waiting.delete(id);
    this.dismissed.delete(id);
    p.resolve(outcome);
    const { entry } = p;
    this.store.removePendingPermission(entry.agentId, entry.request.sessionId, id);
    if (!this.disposed) this._onDidDecide.fire({ id, agentId: entry.agentId, sessionId: entry.request.sessionId, request: entry.request, outcome });
    return true;
  }

  /** One notification per agent at a time (every request also shows in the conversation). */
  private async showPrompt(id: string): Promise<void> {
    const w = this.waiting.get(id);
    if (!w || !this.ui || this.notifying.has(w.entry.agentId)) return;
    const agentId = w.entry.agentId;
    this.notifying.add(agentId);
    try {
      // Answered elsewhere (inline, cancelled): the next request may notify at once.
      const asked = this.ui.ask(w.entry, w.views);
      const view = await Promise.race([asked, w.answered.then(() => null)]);
      // The notification stays on screen: a late click on it answers nothing, and says so.
      if (view === null) void asked.then((late) => late && !this.disposed && this.ui?.alreadyAnswered(w.entry));
      if (view === undefined) this.dismissed.add(id);
      else if (view !== null && this.waiting.has(id)) await this.choose(id, { index: view.index });
    } finally {
      this.notifying.delete(agentId);
    }
    const next = this.pending.find((p) => p.agentId === agentId && !this.dismissed.has(p.id));
    if (next && !this.disposed) void this.showPrompt(next.id);
  }
}

function pickView(views: readonly OptionView[], option: string | { index: number }): OptionView | undefined {
  if (typeof option !== 'string') return views[option.index];
  const same = views.filter((v) => v.optionId === option);
  return same.length === 1 || (same.length > 1 && same.every((v) => v.kind === same[0]!.kind)) ? same[0] : undefined;
}

function pickCandidate(offer: RuleOffer, choice: RuleChoice): RuleCandidate | undefined {
  return offer.candidates.find((c) => c.breadth === choice) ?? (choice === 'wider' ? undefined : offer.candidates[0]);
}
