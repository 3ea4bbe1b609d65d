// Pages of `session/list`, fetched one at a time on demand and accumulated: bounded to
// MAX_LIST_PAGES pages and MAX_LISTED_SESSIONS sessions; a cursor seen before ends the listing
// (an agent that loops its cursors cannot keep us fetching); duplicate session ids are listed once.
import type { SessionListEntry } from './api';

export const MAX_LIST_PAGES = 50;
export const MAX_LISTED_SESSIONS = 2000;

export type SessionLister = (cursor: string | undefined) => Promise<{ sessions: SessionListEntry[]; nextCursor?: string | null }>;

/** Accumulates pages of `session/list` within the bounds; `more` is false once the end (or a bound) is reached. */
export class SessionPages {
  readonly sessions: SessionListEntry[] = [];
  private readonly seen = new Set<string>();
  private readonly cursors = new Set<string>();
  private next: string | undefined;
  private pages = 0;
  private done = false;
  /** Why the listing stopped early (a bound was reached), for the pick's last row. */
  stoppedEarly: string | undefined;

  constructor(private readonly list: SessionLister) {}

  get more(): boolean {
    return !this.done;
  }

  async fetch(): Promise<void> {
    if (this.done) return;
    const page = await this.list(this.next);
    this.pages++;
    let cut = false;
    for (const s of page.sessions) {
      if (this.sessions.length >= MAX_LISTED_SESSIONS) {
        cut = true;
        break;
      }
      if (!this.seen.has(s.sessionId)) {
        this.seen.add(s.sessionId);
        this.sessions.push(s);
      }
    }
    const cursor = page.nextCursor ?? undefined; // an empty string is a valid cursor
    if (cursor === undefined && !cut) {
      this.done = true;
      return;
    }
    if (cursor === undefined) {
      this.done = true;
      this.stoppedEarly = `only the first ${this.sessions.length} sessions are listed`;
      return;
    }
    if (this.cursors.has(cursor)) {
      this.done = true;
      this.stoppedEarly = 'the agent repeated a page cursor';
      return;
    }
    if (this.pages >= MAX_LIST_PAGES || this.sessions.length >= MAX_LISTED_SESSIONS) {
      this.done = true;
      this.stoppedEarly = `only the first ${this.sessions.length} sessions (${this.pages} pages) are listed`;
      return;
    }
    this.cursors.add(cursor);
    this.next = cursor;
  }
}
