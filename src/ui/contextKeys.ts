// Context keys for `when` clauses (welcome views, menus, palette), set from the SessionStore.
import * as vscode from 'vscode';
import type { SessionStore } from '../state/sessionStore';
import { Disposable } from '../common/lifecycle';

export class ContextKeys extends Disposable {
  private readonly last = new Map<string, unknown>();
  /**
   * Whether agents are configured, read again only when the settings or the installed agents
   * change: a store change (50 of them when a stored history is restored at activation) reads no
   * configuration.
   */
  private configured: boolean;

  constructor(
    private readonly store: SessionStore,
    private readonly agentsConfigured: () => boolean,
    onDidChangeAgents: vscode.Event<unknown>,
    private readonly plans?: { hasPlans(agentId: string, sessionId: string): boolean; onDidChange: vscode.Event<unknown> },
  ) {
    super();
    this.configured = agentsConfigured();
    const reread = (): void => {
      this.configured = this.agentsConfigured();
      this.update();
    };
    this._register(store.onDidChange(() => this.update()));
    if (plans) this._register(plans.onDidChange(() => this.update()));
    this._register(onDidChangeAgents(reread));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('acp.agents')) reread();
      }),
    );
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.update()));
    this.update();
  }

  private update(): void {
    const active = this.store.activeSession;
    const session = active && this.store.session(active.agentId, active.sessionId);
    this.set('acp.untrusted', !vscode.workspace.isTrusted);
    this.set(
      'acp.agentRunning',
      this.store.agents().some((a) => a.status === 'running' || a.status === 'starting' || a.status === 'restarting'),
    );
    this.set('acp.agentsConfigured', this.configured);
    this.set('acp.hasSession', !!session);
    this.set('acp.turnRunning', !!session && session.turnState !== 'idle');
    // Getting Started: set once, when the user has done it (the walkthrough's completion events).
    if (this.store.agent('demo')?.status === 'running') this.set('acp.walkthrough.demoStarted', true);
    if (active && this.plans?.hasPlans(active.agentId, active.sessionId)) this.set('acp.walkthrough.planShown', true);
  }

  private set(key: string, value: unknown): void {
    if (this.last.get(key) === value) return;
    this.last.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
