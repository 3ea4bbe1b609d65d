// The composition root: the shared services (src/root/core.ts, complete before any feature) and
// the list of features (src/root/features), each activated once, in order, through its one entry.
// A feature that fails to activate is said with what to do; the others still start.
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import { Core } from './core';
import { FEATURES } from './features';
import type { Feature } from './host';
import { CHECKPOINTS, CONVERSATION, HISTORY, PLANS_VIEW, RECORDINGS, REVIEW, TEAM } from './ports';

export class AcpExtension extends Disposable {
  private readonly core: Core;

  constructor(context: vscode.ExtensionContext, features: readonly Feature[] = FEATURES) {
    super();
    this.core = this._register(new Core(context));
    for (const feature of features) this.activate(feature);
    this.core.activated();
  }

  private activate(feature: Feature): void {
    try {
      this._register(feature.activate(this.core));
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      this.core.logs.main.error(`feature ${feature.name} did not activate: ${why}`);
      const log = vscode.l10n.t('Show Log');
      void vscode.window
        .showErrorMessage(
          vscode.l10n.t('ACP Plans could not start its {0} feature: {1}. The rest works; reload the window to try again.', feature.name, why),
          log,
        )
        .then((pick) => pick === log && this.core.logs.main.show());
    }
  }

  // What the public API and this extension's own tests read (src/testHooks.ts).
  get config() {
    return this.core.config;
  }
  get logs() {
    return this.core.logs;
  }
  get budget() {
    return this.core.budget;
  }
  get store() {
    return this.core.store;
  }
  get plans() {
    return this.core.plans;
  }
  get work() {
    return this.core.work;
  }
  get transcript() {
    return this.core.transcript;
  }
  get intent() {
    return this.core.intent;
  }
  get broker() {
    return this.core.broker;
  }
  get agents() {
    return this.core.agents;
  }
  get remote() {
    return this.core.remote;
  }
  get actions() {
    return this.core.actions;
  }
  get conversation() {
    return this.core.port(CONVERSATION)!;
  }
  get plansUi() {
    return this.core.port(PLANS_VIEW)!;
  }
  get team() {
    return this.core.port(TEAM)!;
  }
  get recordings() {
    return this.core.port(RECORDINGS)!;
  }
  get history() {
    return this.core.port(HISTORY)?.history;
  }
  get historyDir() {
    return this.core.port(HISTORY)?.dir;
  }
  get checkpoints() {
    return this.core.port(CHECKPOINTS);
  }
  get review() {
    return this.core.port(REVIEW);
  }
}
