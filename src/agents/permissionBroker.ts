// Every permission request goes through here. Nothing is approved without the user, except by a
// rule the user created (listed and revocable). Cancelling the turn answers `cancelled`.
import * as vscode from 'vscode';
import type { CancelToken } from '../protocol/api';
import type { PermissionOutcome, PermissionRequest } from '../protocol/domain';
import { allowOption, describeRule, requestFacet, ruleMatches, type PermissionRule } from './permissionRules';

const RULES_KEY = 'acp.permissionRules';

export interface PendingPermission {
  id: string;
  agentId: string;
  agentName: string;
  request: PermissionRequest;
  /** Extra markers shown with the request, e.g. `not_in_plan`. */
  flags: string[];
  createdAt: number;
}

export interface PermissionDecision {
  id: string;
  agentId: string;
  sessionId: string;
  request: PermissionRequest;
  outcome: PermissionOutcome;
  /** Answered without asking: by a rule the user created, or rejected by the intent check. */
  auto?: { byRule?: PermissionRule; rejected?: 'not_in_plan' };
}

export interface PermissionInspection { flags: string[]; autoReject?: boolean }

/**
 * Lets other parts (intent checks) look at a request before the user sees it. A promise holds the
 * request back until it settles (e.g. while the intent token it depends on is being checked).
 */
export type PermissionInspector = (agentId: string, req: PermissionRequest) => PermissionInspection | Promise<PermissionInspection>;

export class PermissionBroker implements vscode.Disposable {
  private readonly pendingById = new Map<string, { entry: PendingPermission; resolve: (o: PermissionOutcome) => void }>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly decided = new vscode.EventEmitter<PermissionDecision>();
  private seq = 0;
  private disposed = false;
  readonly onDidChange = this.changed.event;
  readonly onDidDecide = this.decided.event;
  inspector: PermissionInspector | undefined;
  /** Show a notification for each request (the conversation view shows them inline as well). */
  notify = true;

  constructor(private readonly memento: vscode.Memento) {}

  dispose(): void {
    this.disposed = true;
    for (const { resolve } of this.pendingById.values()) resolve({ outcome: 'cancelled' });
    this.pendingById.clear();
    this.changed.dispose();
    this.decided.dispose();
  }

  get pending(): PendingPermission[] { return [...this.pendingById.values()].map((p) => p.entry); }
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
      if (!this.disposed) this.decided.fire({ id, agentId, sessionId: req.sessionId, request: req, outcome });
      return outcome;
    });
  }

  private decide(id: string, agentId: string, agentName: string, req: PermissionRequest, token: CancelToken, inspection: PermissionInspection): Promise<PermissionOutcome> {
    if (inspection.autoReject) {
      // Only a one-time rejection: a lasting `reject_always` is a decision the user never made.
      const reject = req.options.find((o) => o.kind === 'reject_once');
      const outcome: PermissionOutcome = reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' };
      this.decided.fire({ id, agentId, sessionId: req.sessionId, request: req, outcome, auto: { rejected: 'not_in_plan' } });
      return Promise.resolve(outcome);
    }
    const rule = inspection.flags.length === 0 ? this.rules.find((r) => ruleMatches(r, agentId, req)) : undefined;
    const allowed = rule && allowOption(req.options);
    if (rule && allowed) {
      const outcome: PermissionOutcome = { outcome: 'selected', optionId: allowed.optionId };
      this.decided.fire({ id, agentId, sessionId: req.sessionId, request: req, outcome, auto: { byRule: rule } });
      return Promise.resolve(outcome);
    }
    return new Promise<PermissionOutcome>((resolve) => {
      const entry: PendingPermission = { id, agentId, agentName, request: req, flags: inspection.flags, createdAt: Date.now() };
      this.pendingById.set(id, { entry, resolve });
      const sub = token.onCancellationRequested(() => this.settle(id, { outcome: 'cancelled' }));
      const done = (): void => sub.dispose();
      this.pendingById.get(id)!.resolve = (o) => { done(); resolve(o); };
      this.changed.fire();
      if (this.notify) void this.showNotification(entry);
    });
  }

  /** Answers a pending request with one of the agent's options (the user's choice). */
  async respond(id: string, optionId: string): Promise<boolean> {
    const p = this.pendingById.get(id);
    if (!p) return false;
    const option = p.entry.request.options.find((o) => o.optionId === optionId);
    if (!option) return false;
    let rule: PermissionRule | undefined;
    if (option.kind === 'allow_always') {
      const facet = requestFacet(p.entry.request);
      if (facet) { rule = { agentId: p.entry.agentId, ...facet, createdAt: Date.now() }; await this.addRule(rule); }
    }
    this.settle(id, { outcome: 'selected', optionId });
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
  cancelSession(sessionId: string): void {
    for (const p of this.pending) if (p.request.sessionId === sessionId) this.settle(p.id, { outcome: 'cancelled' });
  }

  private settle(id: string, outcome: PermissionOutcome): void {
    const p = this.pendingById.get(id);
    if (!p) return;
    this.pendingById.delete(id);
    p.resolve(outcome);
    this.decided.fire({ id, agentId: p.entry.agentId, sessionId: p.entry.request.sessionId, request: p.entry.request, outcome });
    this.changed.fire();
  }

  private async showNotification(entry: PendingPermission): Promise<void> {
    const req = entry.request;
    const flag = entry.flags.includes('not_in_plan') ? ' [not in the declared intent plan]' : '';
    const detail = req.subject?.type === 'command' ? ` — ${req.subject.command}` : '';
    const labels = req.options.map((o) => o.name);
    const pick = await vscode.window.showInformationMessage(`${entry.agentName} asks: ${req.title}${detail}${flag}`, ...labels);
    if (pick === undefined || !this.pendingById.has(entry.id)) return;
    const option = req.options[labels.indexOf(pick)];
    if (option) await this.respond(entry.id, option.optionId);
  }
}
