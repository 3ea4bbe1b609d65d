// The status bar item: the active session's progress (text defined in statusBarText.ts). It is
// pushed by store events, never polled: it renders at the renderer pace's next tick (renderPace.ts:
// with the conversation's deltas, at most once per frame); click focuses the Plans view.
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { PlanStore } from '../state/planStore';
import type { SessionStore } from '../state/sessionStore';
import { FrameCoalescer } from './coalesce';
import { rendererPace } from './renderPace';
import { PLAN_COMMANDS } from './lazyCommands';
import { statusBarView, type StatusBarView } from './statusBarText';
import { sessionEndedWords } from './sessionEndWords';

/** What the usage feature adds to the tooltip: a session's usage and its agent's rate limits, worded. */
export interface StatusBarUsage {
  tooltip(agentId: string, sessionId: string): readonly string[];
  /** A session's usage or (no session) an agent's rate limits changed. */
  readonly onDidChange: (listener: (key: { agentId: string; sessionId?: string }) => void) => vscode.Disposable;
}

export class PlansStatusBar extends Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly coalescer: FrameCoalescer<true>;
  private usage: StatusBarUsage | undefined;
  private _view: StatusBarView = { visible: false, text: '', tooltip: '', attention: false };
  /** The item was rendered once (the first render always applies). */
  private shown = false;

  constructor(
    private readonly registry: SessionStore,
    private readonly plans: PlanStore,
    frameMs = 16,
  ) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('acp.plans.status', vscode.StatusBarAlignment.Left, 50));
    this.item.name = 'ACP Plans';
    this.item.command = PLAN_COMMANDS.focusPlans;
    this.coalescer = this._register(new FrameCoalescer<true>(() => this.render(), frameMs, undefined, rendererPace));
    this._register(registry.onDidChange(() => this.coalescer.add(true)));
    this._register(
      plans.onDidChange((c) => {
        const active = registry.activeSession;
        if (active && c.agentId === active.agentId && (c.sessionId === undefined || c.sessionId === active.sessionId)) this.coalescer.add(true);
      }),
    );
    this.render();
  }

  /** What the item shows now. */
  get view(): StatusBarView {
    return this._view;
  }

  /** Adds `usage` to the tooltip until the result is disposed; only a change of the active session's agent renders again. */
  showUsage(usage: StatusBarUsage): vscode.Disposable {
    this.usage = usage;
    const sub = usage.onDidChange((k) => {
      const active = this.registry.activeSession;
      if (active?.agentId === k.agentId && (k.sessionId === undefined || k.sessionId === active.sessionId)) this.coalescer.add(true);
    });
    this.coalescer.add(true);
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.usage === usage) this.usage = undefined;
    });
  }

  /** Resolves once pending updates are rendered. */
  whenIdle(): Promise<void> {
    return this.coalescer.whenIdle();
  }

  private render(): void {
    const key = this.registry.activeSession;
    const s = key ? this.registry.session(key.agentId, key.sessionId) : undefined;
    const agent = key ? this.registry.agent(key.agentId) : undefined;
    const plans = key ? this.plans.plans(key.agentId, key.sessionId) : [];
    const v = statusBarView(
      s
        ? {
            sessionId: s.sessionId,
            turnState: s.turnState,
            pendingPermissions: s.pendingPermissions.length,
            pendingElicitations: s.pendingElicitations ?? 0,
            background: s.background?.length ?? 0,
            ...(this.usage ? { usage: this.usage.tooltip(s.agentId, s.sessionId) } : {}),
            ...(s.ended ? { ended: sessionEndedWords(s.ended, vscode.l10n) } : {}),
            ...(s.title ? { title: s.title } : {}),
            ...(agent ? { agentName: agent.name } : {}),
          }
        : undefined,
      plans.map((p) => ({ planId: p.planId, type: p.plan.type, summary: p.summary, seq: p.seq })),
      vscode.l10n,
    );
    const was = this._view;
    this._view = v;
    // Each property set is one message to the workbench: an unchanged item is not sent again.
    if (
      this.shown &&
      was.visible === v.visible &&
      was.text === v.text &&
      was.tooltip === v.tooltip &&
      was.attention === v.attention &&
      was.accessibilityLabel === v.accessibilityLabel
    )
      return;
    this.shown = true;
    if (!v.visible) {
      this.item.hide();
      return;
    }
    this.item.text = v.text;
    this.item.tooltip = v.tooltip;
    this.item.backgroundColor = v.attention ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: v.accessibilityLabel ?? v.text, role: 'button' };
    this.item.show();
  }
}
