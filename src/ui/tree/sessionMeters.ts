// What another feature adds to a session's row (the usage feature: its live meter). The provider
// asks it when it draws the row and redraws the rows it names when they change, paced like every
// other change of the tree (only those rows, at most once per frame).
import * as vscode from 'vscode';

export interface SessionMeters {
  /** Added to the row's description (`42k/200k · $0.12`); undefined: nothing to add. */
  text(agentId: string, sessionId: string): string | undefined;
  /** Added to the row's tooltip. */
  lines(agentId: string, sessionId: string): readonly string[];
  /** A session's meter changed (no session: something of the agent's that no row shows). */
  readonly onDidChange: (listener: (key: { agentId: string; sessionId?: string }) => void) => vscode.Disposable;
}

/** The tree's place for one SessionMeters. */
export class MeterSlot {
  private meters: SessionMeters | undefined;

  constructor(private readonly refresh: (agentId: string, sessionId: string) => void) {}

  /** Shows `meters` on session rows until the result is disposed. */
  show(meters: SessionMeters): vscode.Disposable {
    this.meters = meters;
    const sub = meters.onDidChange((k) => {
      if (k.sessionId !== undefined) this.refresh(k.agentId, k.sessionId);
    });
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.meters === meters) this.meters = undefined;
    });
  }

  /** Puts the meter of a session's row first in its description (what moves stays in sight in a narrow view), and in its tooltip. */
  decorate(t: vscode.TreeItem, agentId: string, sessionId: string): void {
    const text = this.meters?.text(agentId, sessionId);
    if (!this.meters || !text) return;
    t.description = t.description ? `${text} · ${String(t.description)}` : text;
    const lines = this.meters.lines(agentId, sessionId);
    if (lines.length) t.tooltip = [typeof t.tooltip === 'string' ? t.tooltip : undefined, ...lines].filter(Boolean).join('\n');
  }
}
