// Context keys for `when` clauses (welcome views, menus, palette).
import * as vscode from 'vscode';
import type { AgentManager } from '../agents/agentManager';
import type { Registry } from '../state/registry';

export class ContextKeys implements vscode.Disposable {
  private readonly subs: vscode.Disposable[] = [];
  private last = new Map<string, unknown>();

  constructor(private readonly registry: Registry, private readonly agents: AgentManager, private readonly agentsRaw: () => unknown) {
    this.subs.push(registry.onDidChange(() => this.update()), agents.onDidChange(() => this.update()));
    this.subs.push(vscode.workspace.onDidGrantWorkspaceTrust(() => this.update()));
    this.subs.push(vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('acp.agents')) this.update(); }));
    this.update();
  }

  dispose(): void { for (const s of this.subs.splice(0)) s.dispose(); }

  private update(): void {
    const raw = this.agentsRaw();
    const active = this.registry.activeSession;
    const session = active && this.registry.session(active.agentId, active.sessionId);
    this.set('acp.untrusted', !vscode.workspace.isTrusted);
    this.set('acp.agentRunning', this.agents.all().some((a) => a.status === 'running' || a.status === 'starting' || a.status === 'restarting'));
    this.set('acp.agentsConfigured', Array.isArray(raw) && raw.length > 0);
    this.set('acp.hasSession', !!session);
    this.set('acp.turnRunning', !!session && session.turnState !== 'idle');
  }

  private set(key: string, value: unknown): void {
    if (this.last.get(key) === value) return;
    this.last.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
