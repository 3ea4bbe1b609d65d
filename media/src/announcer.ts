// What a screen reader hears from the conversation: not every streamed chunk (the transcript is
// not a live region), but one polite announcement when a turn stops running — the agent's last
// message, shortened — and when the agent starts waiting for the user. Text only (textContent).
import { S, fill } from './strings';

/** The announcement for a change of turn state; undefined: say nothing. */
export function announcement(before: string | undefined, after: string, lastAgentText: string | undefined): string | undefined {
  if (before === after || before === undefined) return undefined;
  if (after === 'requires_action') return S.agentWaits;
  if (before !== 'running' || after === 'running') return undefined;
  const text = (lastAgentText ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return S.agentFinished;
  return fill(S.agentFinishedText, text.length > 300 ? `${text.slice(0, 299)}…` : text);
}

/** A visually hidden polite live region. */
export class Announcer {
  readonly el: HTMLElement;
  private state: string | undefined;
  private session: string | undefined;

  constructor() {
    this.el = document.createElement('div');
    this.el.className = 'sr-only';
    this.el.setAttribute('role', 'status');
    this.el.setAttribute('aria-live', 'polite');
    this.el.setAttribute('aria-atomic', 'true');
  }

  /** The session's turn state now; a new session starts silent. */
  turnState(sessionId: string, state: string, lastAgentText: () => string | undefined): void {
    const before = this.session === sessionId ? this.state : undefined;
    // What was said of another session is not left in the region.
    if (this.session !== sessionId) this.el.textContent = '';
    this.session = sessionId;
    this.state = state;
    const said = announcement(before, state, before === 'running' ? lastAgentText() : undefined);
    if (said) this.say(said);
  }

  say(text: string): void {
    // Emptied first, so the same sentence twice is announced twice.
    this.el.textContent = '';
    setTimeout(() => (this.el.textContent = text), 50);
  }
}
