// Intent plans, loaded on first use. Most sessions never declare an intent plan, so the checker
// (src/app/intentChecks.ts with src/intent and jose: dist/intent.js in the extension bundle, the
// `lazyModule` below) is required the first time an `_intent` plan arrives or a `declare_plan` tool call
// declares one; until then no session has an intent plan: nothing to check, nothing to show.
import * as vscode from 'vscode';
import type { Logs } from '../agents/logs';
import { lazyModule } from '../common/lazy';
import { Disposable } from '../common/lifecycle';
import type { Config } from '../platform/config';
import { DeclaredPlans, declaredKey, declaredPlanUpdate } from '../intent/declarePlan';
import { intentPayloadOf } from '../intent/planType';
import type { PermissionRequest, SessionEvent } from '../protocol/domain';
import type { PlanRef, PlanStore } from '../state/planStore';
import type { IntentNodeView, IntentSource } from './intent/intentView';
import type { IntentChange, IntentChecks, IntentSessionSnapshot } from './intentChecks';
import type { PermissionInspection } from './permissionBroker';

type IntentModule = typeof import('./intentChecks');

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
const intentModule = lazyModule('intent.js', () => require('./intentChecks') as IntentModule);

export class IntentFeature extends Disposable implements IntentSource {
  private checks: IntentChecks | undefined;
  private loadError: string | undefined;
  /** declare_plan calls seen before the checker is loaded (it goes on with the same record). */
  private readonly declared = new DeclaredPlans();
  private readonly changed = this._register(new vscode.EventEmitter<IntentChange>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly config: Config,
    private readonly logs: Logs,
    private readonly plans: PlanStore,
  ) {
    super();
  }

  /**
   * Every SessionEvent of every agent, in arrival order. Returns the `_intent` plan update that a
   * `declare_plan` tool call declares, for the caller to apply like any event the agent sent.
   */
  apply(agentId: string, e: SessionEvent): SessionEvent | undefined {
    if (this.checks) return this.checks.apply(agentId, e);
    if (e.kind === 'plan_update' && intentPayloadOf(e.plan)) return this.load()?.apply(agentId, e);
    if (e.kind !== 'tool_call') return undefined;
    const declared = this.declared.observe(declaredKey(agentId, e.sessionId), e.toolCallId, e.fields);
    if (!declared?.payload || !this.load()) return undefined;
    return declaredPlanUpdate(e.sessionId, declared.payload);
  }

  inspectPermission(agentId: string, req: PermissionRequest): PermissionInspection | Promise<PermissionInspection> {
    return this.checks ? this.checks.inspectPermission(agentId, req) : { flags: [] };
  }

  view(ref: PlanRef): IntentNodeView | undefined {
    return this.checks?.view(ref);
  }

  snapshot(filter: { agentId?: string; sessionId?: string } = {}): IntentSessionSnapshot[] {
    return this.checks?.snapshot(filter) ?? [];
  }

  whenChecked(): Promise<void> {
    return this.checks?.whenChecked() ?? Promise.resolve();
  }

  private load(): IntentChecks | undefined {
    if (this.checks || this.loadError !== undefined) return this.checks;
    try {
      const mod = intentModule();
      const checks = this._register(new mod.IntentChecks(this.config, this.logs, this.plans, this.declared));
      this._register(checks.onDidChange((c) => this.changed.fire(c)));
      this.checks = checks;
    } catch (err) {
      this.loadError = err instanceof Error ? err.message : String(err);
      this.logs.main.error(`[intent] the intent plan checker (intent.js) cannot be loaded: ${this.loadError}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('ACP Plans cannot check intent plans: dist/intent.js could not be loaded. Reinstall the extension.'));
    }
    return this.checks;
  }
}
