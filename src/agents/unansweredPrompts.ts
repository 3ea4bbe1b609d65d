// Prompts sent to an agent that has not answered them yet, each with the idempotency key it was
// sent with. When the agent dies before answering, the outcome is unknown: on v2 the prompt is
// sent again with the same key once the session is resumed (the agent inserts it at most once);
// v1 has no key, so a v1 prompt is never sent twice. Free of `vscode`.
import type { ContentBlock } from '../protocol/domain';

export interface UnansweredPrompt {
  readonly sessionId: string;
  readonly blocks: readonly ContentBlock[];
  readonly key: string;
  /** The protocol version of the connection it was sent on. */
  readonly version: 1 | 2;
}

/** At most this many unanswered prompts are kept per session (older ones are forgotten). */
export const MAX_UNANSWERED_PER_SESSION = 8;

export class UnansweredPrompts {
  private readonly bySession = new Map<string, UnansweredPrompt[]>();

  add(p: UnansweredPrompt): UnansweredPrompt {
    const list = this.bySession.get(p.sessionId) ?? [];
    list.push(p);
    if (list.length > MAX_UNANSWERED_PER_SESSION) list.shift();
    this.bySession.set(p.sessionId, list);
    return p;
  }

  /** The agent answered (accepted, refused, or ended the turn): nothing to retry. */
  answered(p: UnansweredPrompt): void {
    const list = this.bySession.get(p.sessionId);
    if (!list) return;
    const i = list.indexOf(p);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.bySession.delete(p.sessionId);
  }

  /** Removes and returns what may be sent again on a `version` connection (v2 to v2 only, with its key). */
  takeRetriable(sessionId: string, version: 1 | 2): UnansweredPrompt[] {
    const list = this.bySession.get(sessionId) ?? [];
    this.bySession.delete(sessionId);
    return version === 2 ? list.filter((p) => p.version === 2) : [];
  }

  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
  clear(): void {
    this.bySession.clear();
  }
}
