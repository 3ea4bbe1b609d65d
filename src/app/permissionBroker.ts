// The one path of every permission request: inspected (intent checks), answered by a rule the user
// created, or put to the user — inline in the conversation and in one notification — and answered
// only with the option the user picked, by its id. The pending requests are state of their session
// (SessionStore); the broker keeps the agent's waiting promise. `onDidAsk` / `onDidDecide` let the
// transcript render a request and its answer, once each. Cancelling the turn answers `cancelled`.
import * as vscode from 'vscode';
import type { CancelToken } from '../protocol/api';
import type { PermissionOutcome, PermissionRequest } from '../protocol/domain';
import type { PendingPermission, SessionStore } from '../state/sessionStore';
import { Disposable, toDisposable } from '../common/lifecycle';
import { allowOption, describeRule, requestFacet, ruleMatches, type PermissionRule } from '../agents/permissionRules';

const RULES_KEY = 'acp.permissionRules';

export interface PermissionDecision {
  readonly id: string;
  readonly agentId: string;
  readonly sessionId: string;
  readonly request: PermissionRequest;
  readonly outcome: PermissionOutcome;
  /** Answered without asking: by a rule the user created, or rejected by the intent check. */
  readonly auto?: { byRule?: PermissionRule; rejected?: 'not_in_plan' };
}

export interface PermissionInspection { flags: string[]; autoReject?: boolean }

/**
 * Lets other parts (intent checks) look at a request before the user sees it. A promise holds the
 * request back until it settles (e.g. while the intent token it depends on is being checked).
 */
export type PermissionInspector = (agentId: string, req: PermissionRequest) => PermissionInspection | Promise<PermissionInspection>;

export class PermissionBroker extends Disposable {
  /** The agent's waiting promise of each pending request (the request itself is in the store). */
  private readonly waiting = new Map<string, { entry: PendingPermission; resolve: (o: PermissionOutcome) => void }>();
  private readonly _onDidAsk = this._register(new vscode.EventEmitter<PendingPermission>());
  private readonly _onDidDecide = this._register(new vscode.EventEmitter<PermissionDecision>());
  private seq = 0;
  private disposed = false;
  /** A request was put to the user. */
  readonly onDidAsk = this._onDidAsk.event;
  /** A request was answered (by the user, a rule, the intent check, or cancellation). */
  readonly onDidDecide = this._onDidDecide.event;
  inspector: PermissionInspector | undefined;
  /** Show a notification for each request (the conversation view shows them inline as well). */
  notify = true;

  constructor(private readonly memento: vscode.Memento, private readonly store: SessionStore) {
    super();
    this._register(toDisposable(() => {
      this.disposed = true;
      for (const id of [...this.waiting.keys()]) this.settle(id, { outcome: 'cancelled' });
    }));
  }

  get pending(): PendingPermission[] { return [...this.waiting.values()].map((p) => p.entry); }
  pendingFor(sessionId: string): PendingPermission[] { return this.pending.filter((p) => p.request.sessionId === sessionId); }

  get rules(): PermissionRule[] { return this.memento.get<PermissionRule[]>(RULES_KEY, []); }
  async removeRule(rule: PermissionRule): Promise<void> {
    await this.memento.update(RULES_KEY, this.rules.filter((r) => !(r.agentId === rule.agentId && r.type === rule.type && r.value === rule.value)));
  }
  async addRule(rule: PermissionRule): Promise<void> {
    if (this.rules.some((r) => r.agentId === rule.agentId && r.type === rule.type && r.value === rule.value)) return;
    await this.memento.update(RULES_KEY, [...this.rules, rule]);
  }
  describe(rule: PermissionRule, agentName: string): string { return describeRule(rule, agentName); }

  request(agentId: string, agentName: string, req: PermissionRequest, token: CancelToken): Promise<PermissionOutcome> {
    const id = `perm-${++this.seq}`;
    const inspection = this.inspector?.(agentId, req) ?? { flags: [] };
    if (!(inspection instanceof Promise)) return this.decide(id, agentId, agentName, req, token, inspection);
    return inspection.catch((): PermissionInspection => ({ flags: [] })).then((i) => {
      if (!this.disposed && !token.isCancellationRequested) return this.decide(id, agentId, agentName, req, token, i);
      const outcome: PermissionOutcome = { outcome: 'cancelled' };
      if (!this.disposed) this._onDidDecide.fire({ id, agentId, sessionId: req.sessionId, request: req, outcome });
      return outcome;
    });
  }

  private decide(id: string, agentId: string, agentName: string, req: PermissionRequest, token: CancelToken, inspection: PermissionInspection): Promise<PermissionOutcome> {
    if (inspection.autoReject) {
      // Only a one-time rejection: a lasting `reject_always` is a decision the user never made.
      const reject = req.options.find((o) => o.kind === 'reject_once');
      const outcome: PermissionOutcome = reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' };
      this._onDidDecide.fire({ id, agentId, sessionId: req.sessionId, request: req, outcome, auto: { rejected: 'not_in_plan' } });
      return Promise.resolve(outcome);
    }
    const rule = inspection.flags.length === 0 ? this.rules.find((r) => ruleMatches(r, agentId, req)) : undefined;
    const allowed = rule && allowOption(req.options);
    if (rule && allowed) {
      const outcome: PermissionOutcome = { outcome: 'selected', optionId: allowed.optionId };
      this._onDidDecide.fire({ id, agentId, sessionId: req.sessionId, request: req, outcome, auto: { byRule: rule } });
      return Promise.resolve(outcome);
    }
    return new Promise<PermissionOutcome>((resolve) => {
      const entry: PendingPermission = { id, agentId, agentName, request: req, flags: inspection.flags, createdAt: Date.now() };
      const sub = token.onCancellationRequested(() => this.settle(id, { outcome: 'cancelled' }));
      this.waiting.set(id, { entry, resolve: (o) => { sub.dispose(); resolve(o); } });
      this.store.addPendingPermission(entry);
      this._onDidAsk.fire(entry);
      if (this.notify) void this.showNotification(entry);
    });
  }

  /** Answers a pending request with the option the user picked (by its id). False when unknown or answered. */
  async respond(id: string, optionId: string): Promise<boolean> {
    const p = this.waiting.get(id);
    const option = p?.entry.request.options.find((o) => o.optionId === optionId);
    if (!p || !option) return false;
    let rule: PermissionRule | undefined;
    if (option.kind === 'allow_always') {
      const facet = requestFacet(p.entry.request);
      if (facet) { rule = { agentId: p.entry.agentId, ...facet, createdAt: Date.now() }; await this.addRule(rule); }
    }
    if (!this.settle(id, { outcome: 'selected', optionId })) return false;
    // The agent's option name may not say "always": tell the user a lasting rule now exists.
    if (rule && this.notify) {
      const created = rule;
      void vscode.window.showInformationMessage(`Rule created — ${describeRule(created, p.entry.agentName)}.`, 'Undo', 'Manage Rules').then((pick) => {
        if (pick === 'Undo') void this.removeRule(created);
        if (pick === 'Manage Rules') void vscode.commands.executeCommand('acp.managePermissionRules');
      });
    }
    return true;
  }

  /** Answers every pending request of a session `cancelled` (turn cancelled, agent gone). */
  cancelSession(agentId: string, sessionId: string): void {
    for (const p of this.pending) if (p.agentId === agentId && p.request.sessionId === sessionId) this.settle(p.id, { outcome: 'cancelled' });
  }

  private settle(id: string, outcome: PermissionOutcome): boolean {
    const p = this.waiting.get(id);
    if (!p) return false;
    this.waiting.delete(id);
    p.resolve(outcome);
    const { entry } = p;
    this.store.removePendingPermission(entry.agentId, entry.request.sessionId, id);
    if (!this.disposed) this._onDidDecide.fire({ id, agentId: entry.agentId, sessionId: entry.request.sessionId, request: entry.request, outcome });
    return true;
  }

  private async showNotification(entry: PendingPermission): Promise<void> {
    const req = entry.request;
    const flag = entry.flags.includes('not_in_plan') ? ' [not in the declared intent plan]' : '';
    const detail = req.subject?.type === 'command' ? ` — ${req.subject.command}` : '';
    const labels = req.options.map((o) => o.name);
    const pick = await vscode.window.showInformationMessage(`${entry.agentName} asks: ${req.title}${detail}${flag}`, ...labels);
    if (pick === undefined || !this.waiting.has(entry.id)) return;
    const option = req.options[labels.indexOf(pick)];
    if (option) await this.respond(entry.id, option.optionId);
  }
}
