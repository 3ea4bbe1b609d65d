// The notice of an agent that restarts on its own ("… lost its connection … Restarting…"): a
// progress notification the product withdraws, not a toast whose Restart button outlives the
// reconnect. One per agent (each further attempt updates its text); it closes once the agent runs
// again, saying "reconnected" for a moment (and in the status bar), or once the agent gives up or
// is stopped (the error report that follows offers Show Log / Restart). Follows the agent's status
// in the SessionStore.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { SessionStore } from '../state/sessionStore';

/** How long "reconnected" stays in the notification and the status bar. */
export const RECONNECTED_MS = 4000;

type Ending = 'running' | 'ended';

export class ReconnectNotices extends Disposable {
  /** The open notice of each agent: updates its text, or closes it. */
  private readonly open = new Map<string, { say(message: string): void; finish(how: Ending): void }>();

  constructor(private readonly store: SessionStore) {
    super();
    this._register(
      store.onDidChange((c) => {
        if (c.scope === 'agent') this.statusChanged(c.agentId);
      }),
    );
    // No notice is left spinning once the extension goes.
    this._register(toDisposable(() => [...this.open.keys()].forEach((id) => this.close(id, 'ended'))));
  }

  /** The agent `agentId` restarts on its own: `message` says why (a sentence ending in "Restarting…"). */
  show(agentId: string, message: string): void {
    const shown = this.open.get(agentId);
    if (shown) return shown.say(message);
    let say: (m: string) => void = () => undefined;
    let finish: (how: Ending) => void = () => undefined;
    const done = new Promise<Ending>((resolve) => (finish = resolve));
    this.open.set(agentId, { say: (m) => say(m), finish: (how) => finish(how) });
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reconnecting') }, async (progress) => {
      say = (m) => progress.report({ message: m });
      say(message);
      if ((await done) !== 'running') return;
      const back = vscode.l10n.t('{0} reconnected.', this.store.agent(agentId)?.name ?? agentId);
      progress.report({ message: back });
      vscode.window.setStatusBarMessage(`$(check) ${back}`, RECONNECTED_MS);
      await new Promise((r) => setTimeout(r, RECONNECTED_MS));
    });
  }

  private statusChanged(agentId: string): void {
    if (!this.open.has(agentId)) return;
    const status = this.store.agent(agentId)?.status;
    if (status === 'restarting' || status === 'starting') return;
    this.close(agentId, status === 'running' ? 'running' : 'ended');
  }

  private close(agentId: string, how: Ending): void {
    const shown = this.open.get(agentId);
    this.open.delete(agentId);
    shown?.finish(how);
  }
}
