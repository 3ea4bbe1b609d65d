// Notifications that follow the user: when a live session's turn ends or fails, or an elicitation
// of it starts waiting, while the user is away (the window unfocused or the ACP views hidden),
// one notification says so, with "Show Session". A click on it after the request was answered says
// so and does nothing else. Permission requests (plan approvals among them) have their own
// notification (the PermissionBroker's), which offers the same "Show Session" through `away()`.
// Decides here, shows through AttentionUi: no `vscode` (unit-tested in plain Node).
import { english, type L10n } from '../common/l10n';
import { Disposable, toDisposable } from '../common/lifecycle';
import { isImportedAgent, isReplayAgent } from '../common/pseudoAgents';
import type { SessionKey, SessionState, SessionStore } from '../state/sessionStore';

export type AttentionKind = 'turnEnded' | 'turnFailed' | 'elicitation';

export interface AttentionNotice {
  readonly kind: AttentionKind;
  readonly ref: SessionKey;
  /** One sentence, already made safe for a notification (toastText). */
  readonly message: string;
  readonly severity: 'info' | 'warning';
}

/** How the watcher looks at the window and speaks to the user (the VS Code side: src/ui/attentionPrompts.ts). */
export interface AttentionUi {
  /** The setting `acp.notifications.whenUnfocused`. */
  enabled(): boolean;
  /** The window is unfocused, or neither ACP view is visible. */
  away(): boolean;
  /** Shows the notice; true when the user picked "Show Session". */
  notify(notice: AttentionNotice): Promise<boolean>;
  /** Brings the user to the session (its conversation, the ACP views). */
  showSession(ref: SessionKey): void;
  /** A sentence that needs no answer. */
  say(message: string): void;
  /** Words the notices (`vscode.l10n` in the product; English without). */
  readonly l10n?: L10n;
}

/** What the watcher remembers of a session between two changes. */
interface Seen {
  readonly turnState: string;
  readonly elicitations: number;
}

const SAY_LIMIT = 120;

/**
 * Text for a notification: agent text shortened and kept from forming a Markdown link (VS Code
 * renders `[label](target)` in notification messages, `command:` targets among them).
 */
export function toastText(text: string, limit = SAY_LIMIT): string {
  const one = text.replace(/\s+/g, ' ').trim();
  const short = one.length > limit ? `${one.slice(0, limit - 1)}…` : one;
  return short.replace(/\]\s*\(/g, '] (');
}

/** How a stop reason reads after "<agent> …". */
export function stopReasonText(reason: string | undefined, l10n: L10n = english): string {
  switch (reason) {
    case 'end_turn':
    case undefined:
      return l10n.t('finished');
    case 'max_tokens':
      return l10n.t('stopped: it reached its token limit');
    case 'max_turn_requests':
      return l10n.t('stopped: it reached its limit of requests for one turn');
    case 'refusal':
      return l10n.t('refused to go on');
    default:
      return l10n.t('stopped ({0})', toastText(reason, 40));
  }
}

export class AttentionWatcher extends Disposable {
  private readonly seen = new Map<string, Seen>();
  private disposed = false;

  constructor(
    private readonly store: SessionStore,
    private readonly ui: AttentionUi,
  ) {
    super();
    this._register(toDisposable(() => (this.disposed = true)));
    for (const s of store.sessions()) this.seen.set(keyOf(s), seenOf(s));
    this._register(
      store.onDidChange((c) => {
        if (c.scope !== 'session') return;
        const key = `${c.agentId}\u0000${c.sessionId}`;
        const s = c.kind === 'removed' ? undefined : store.session(c.agentId, c.sessionId);
        const before = this.seen.get(key);
        if (!s) return void this.seen.delete(key);
        // Most changes (a plan update, a message chunk) touch neither: nothing to remember or decide.
        if (before && before.turnState === s.turnState && before.elicitations === (s.pendingElicitations ?? 0)) return;
        this.seen.set(key, seenOf(s));
        const notice = before && this.noticeFor(before, s);
        if (notice && ui.enabled() && ui.away()) void this.show(notice);
      }),
    );
  }

  private noticeFor(before: Seen, s: SessionState): AttentionNotice | undefined {
    if (!s.live || s.parentSessionId !== undefined || isReplayAgent(s.agentId) || isImportedAgent(s.agentId)) return undefined;
    if (this.store.agent(s.agentId)?.status !== 'running') return undefined;
    const asks = (s.pendingElicitations ?? 0) > before.elicitations;
    const ended = before.turnState !== 'idle' && s.turnState === 'idle';
    if (!asks && (!ended || s.stopReason === 'cancelled')) return undefined;
    const ref = { agentId: s.agentId, sessionId: s.sessionId };
    const who = toastText(this.store.agent(s.agentId)?.name ?? s.agentId, 60);
    const l10n = this.ui.l10n ?? english;
    const title = s.title ? toastText(s.title, 60) : undefined;
    if (asks) {
      const message = title ? l10n.t('{0} is waiting for your answer in "{1}".', who, title) : l10n.t('{0} is waiting for your answer.', who);
      return { kind: 'elicitation', ref, severity: 'info', message };
    }
    if (s.error) {
      const why = toastText(s.error.message);
      const message = title ? l10n.t('{0}\'s turn failed in "{1}": {2}', who, title, why) : l10n.t("{0}'s turn failed: {1}", who, why);
      return { kind: 'turnFailed', ref, severity: 'warning', message };
    }
    const how = stopReasonText(s.stopReason, l10n);
    return { kind: 'turnEnded', ref, severity: 'info', message: title ? l10n.t('{0} {1} in "{2}".', who, how, title) : l10n.t('{0} {1}.', who, how) };
  }

  private async show(notice: AttentionNotice): Promise<void> {
    if (!(await this.ui.notify(notice)) || this.disposed) return;
    if (notice.kind === 'elicitation' && !this.stillWaiting(notice.ref)) {
      const l10n = this.ui.l10n ?? english;
      this.ui.say(l10n.t('That request was already answered; nothing was changed.'));
      return;
    }
    this.ui.showSession(notice.ref);
  }

  private stillWaiting(ref: SessionKey): boolean {
    return (this.store.session(ref.agentId, ref.sessionId)?.pendingElicitations ?? 0) > 0;
  }
}

function keyOf(s: SessionState): string {
  return `${s.agentId}\u0000${s.sessionId}`;
}

function seenOf(s: SessionState): Seen {
  return { turnState: s.turnState, elicitations: s.pendingElicitations ?? 0 };
}
