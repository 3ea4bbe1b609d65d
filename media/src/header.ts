// The view's header: session title, turn state and context usage.
import type { SessionView } from '../../src/ui/conversation/webviewMessages';
import { h } from './dom';
import { S, fill } from './strings';

const STATE_LABELS: Record<string, string> = { running: S.working, requires_action: S.waitingForYou, idle: S.idle };

export class Header {
  readonly el = h('div', { class: 'session-header' });
  private readonly title = h('span', { class: 'session-title' });
  private readonly state = h('span', { class: 'turn-state' });
  private readonly usage = h('span', { class: 'usage muted' });

  constructor() {
    this.el.append(this.title, this.state, this.usage);
    this.set(null);
  }

  set(s: SessionView | null): void {
    this.el.hidden = !s;
    if (!s) return;
    this.title.textContent = s.title ?? S.conversation;
    // The host keys sessions by agent and session id (NUL-separated): show the agent's session id.
    this.title.title = fill(S.sessionN, s.sessionId.slice(s.sessionId.lastIndexOf('\u0000') + 1));
    const state = s.ended ? 'ended' : s.turnState;
    this.state.textContent = s.ended ? S.sessionEnded : (STATE_LABELS[state] ?? state);
    this.state.className = `turn-state state-${state.replace(/[^a-z_]/gi, '')}`;
    this.state.title = s.ended ?? '';
    const parts: string[] = [];
    if (s.usage) {
      const pct = s.usage.size > 0 ? ` (${Math.round((100 * s.usage.used) / s.usage.size)}%)` : '';
      parts.push(fill(S.tokens, compact(s.usage.used), compact(s.usage.size), pct));
      if (s.usage.cost) parts.push(s.usage.cost);
    } else if (s.lastTurnUsage) parts.push(s.lastTurnUsage);
    this.usage.textContent = parts.join(' · ');
    this.usage.title = s.lastTurnUsage ? fill(S.lastTurn, s.lastTurnUsage) : '';
  }
}

function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  return String(n);
}
