// The review comments of each session: a comment sits on lines of a file the session changed and
// belongs to the step whose change it sits on. Kept in the session history as whole snapshots
// (`{t, review}` records, the last one of an id wins, `deleted` removes it), so a reload, a restart
// and an export keep them. When the agent changes a file, its comments follow their lines
// (anchor.ts); a change that touches a comment's lines shows the new code and offers Resolve.
// Free of `vscode`.
import { Emitter } from '../../state/emitter';
import type { Event } from '../../protocol/api';
import { reanchorLines, splitLines } from './anchor';

export interface ReviewStep {
  readonly planId?: string;
  readonly key: number;
  readonly label: string;
}

export type ReviewState = 'open' | 'resolved';

export interface ReviewComment {
  readonly id: string;
  readonly agentId: string;
  readonly sessionId: string;
  readonly path: string;
  /** 0-based lines, `end` inclusive, in the file as it is now. */
  start: number;
  end: number;
  /** The lines it sits on, as they were when last anchored (to find them in another text). */
  lines: string[];
  /** The lines as they were when it was written (found in the review diffs of the change it is on). */
  readonly written?: readonly string[];
  text: string;
  readonly created: number;
  edited?: number;
  state: ReviewState;
  step?: ReviewStep;
  /** Its lines were removed, or the file was deleted. */
  gone?: 'lines' | 'file';
  /** A later change of the agent touched its lines: the new code there. */
  changed?: { readonly t: number; readonly lines: string[] };
  /** Sent to the agent; `answered`: when the turn that took it ended. */
  sent?: { readonly t: number; answered?: number };
}

/** A comment as it is stored (a history record's `review`), or its deletion. */
export type StoredReview = ReviewComment | { readonly id: string; readonly deleted: true };

export interface ReviewChange {
  readonly agentId: string;
  readonly sessionId: string;
  readonly ids: readonly string[];
}

const MAX_LINES_KEPT = 200;
const MAX_COMMENTS_PER_SESSION = 5000;

export class ReviewModel {
  private readonly bySession = new Map<string, Map<string, ReviewComment>>();
  private readonly _onDidChange = new Emitter<ReviewChange>();
  readonly onDidChange: Event<ReviewChange> = this._onDidChange.event;
  private seq = 0;

  /** `persist`: each change, as the record to store (not called for restored ones). */
  constructor(private readonly persist: (agentId: string, sessionId: string, r: StoredReview, t: number) => void) {}

  dispose(): void {
    this._onDidChange.dispose();
  }

  comments(agentId: string, sessionId: string): ReviewComment[] {
    return [...(this.bySession.get(key(agentId, sessionId))?.values() ?? [])];
  }

  sessions(): { agentId: string; sessionId: string }[] {
    const out: { agentId: string; sessionId: string }[] = [];
    for (const m of this.bySession.values()) {
      const c = m.values().next().value;
      if (c) out.push({ agentId: c.agentId, sessionId: c.sessionId });
    }
    return out;
  }

  get(id: string): ReviewComment | undefined {
    for (const m of this.bySession.values()) {
      const c = m.get(id);
      if (c) return c;
    }
    return undefined;
  }

  /** Comments on a file, in every session. */
  onFile(path: string): ReviewComment[] {
    const out: ReviewComment[] = [];
    for (const m of this.bySession.values()) for (const c of m.values()) if (c.path === path) out.push(c);
    return out;
  }

  add(
    a: { agentId: string; sessionId: string; path: string; start: number; end: number; lines: readonly string[]; text: string; step?: ReviewStep },
    t: number,
  ): ReviewComment | undefined {
    const m = this.map(a.agentId, a.sessionId);
    if (m.size >= MAX_COMMENTS_PER_SESSION) return undefined;
    const id = `${t.toString(36)}-${(++this.seq).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const c: ReviewComment = {
      id,
      agentId: a.agentId,
      sessionId: a.sessionId,
      path: a.path,
      start: a.start,
      end: Math.max(a.start, a.end),
      lines: a.lines.slice(0, MAX_LINES_KEPT),
      written: a.lines.slice(0, MAX_LINES_KEPT),
      text: a.text,
      created: t,
      state: 'open',
      ...(a.step ? { step: a.step } : {}),
    };
    m.set(id, c);
    this.changed(c, t);
    return c;
  }

  edit(id: string, text: string, t: number): void {
    this.update(id, t, (c) => {
      c.text = text;
      c.edited = t;
    });
  }

  setState(id: string, state: ReviewState, t: number): void {
    this.update(id, t, (c) => {
      c.state = state;
      if (state === 'open') delete c.changed;
    });
  }

  remove(id: string, t: number): void {
    const c = this.get(id);
    if (!c) return;
    this.bySession.get(key(c.agentId, c.sessionId))?.delete(id);
    this.persist(c.agentId, c.sessionId, { id, deleted: true }, t);
    this._onDidChange.fire({ agentId: c.agentId, sessionId: c.sessionId, ids: [id] });
  }

  markSent(ids: readonly string[], t: number): void {
    for (const id of ids) this.update(id, t, (c) => (c.sent = { t }));
  }

  /** The turn that took the sent comments of a session ended. */
  answered(agentId: string, sessionId: string, t: number): void {
    for (const c of this.comments(agentId, sessionId))
      if (c.sent && c.sent.answered === undefined) this.update(c.id, t, (x) => (x.sent = { t: x.sent!.t, answered: t }));
  }

  /** A file changed from `before` to `after` (null: deleted): its comments follow their lines. */
  fileChanged(path: string, before: string | null, after: string | null, t: number): void {
    const list = this.onFile(path);
    if (!list.length) return;
    const a = before === null ? [] : splitLines(before);
    const b = after === null ? [] : splitLines(after);
    for (const c of list) {
      if (after === null) {
        this.update(c.id, t, (x) => {
          x.gone = 'file';
          x.changed = { t, lines: [] };
        });
        continue;
      }
      if (before === null && c.gone !== 'file') continue;
      const r = reanchorLines(c, a, b);
      if (!r.touched && r.start === c.start && r.end === c.end && c.gone !== 'file') continue;
      this.update(c.id, t, (x) => {
        x.start = r.start;
        x.end = r.end;
        if (r.gone) x.gone = 'lines';
        else delete x.gone;
        if (!r.gone) x.lines = b.slice(r.start, r.end + 1).slice(0, MAX_LINES_KEPT);
        if (r.touched) x.changed = { t, lines: r.gone ? [] : b.slice(r.start, r.end + 1).slice(0, MAX_LINES_KEPT) };
      });
    }
  }

  /** A stored record, replayed (a restored or imported session); not stored again. */
  restore(agentId: string, sessionId: string, raw: unknown): void {
    const r = asStored(raw);
    if (!r) return;
    const m = this.map(agentId, sessionId);
    if ('deleted' in r) m.delete(r.id);
    else m.set(r.id, { ...r, agentId, sessionId, lines: [...r.lines] });
    this._onDidChange.fire({ agentId, sessionId, ids: [r.id] });
  }

  forget(agentId: string, sessionId: string): void {
    if (this.bySession.delete(key(agentId, sessionId))) this._onDidChange.fire({ agentId, sessionId, ids: [] });
  }

  private update(id: string, t: number, f: (c: ReviewComment) => void): void {
    const c = this.get(id);
    if (!c) return;
    f(c);
    this.changed(c, t);
  }

  private changed(c: ReviewComment, t: number): void {
    this.persist(c.agentId, c.sessionId, { ...c, lines: [...c.lines] }, t);
    this._onDidChange.fire({ agentId: c.agentId, sessionId: c.sessionId, ids: [c.id] });
  }

  private map(agentId: string, sessionId: string): Map<string, ReviewComment> {
    const k = key(agentId, sessionId);
    let m = this.bySession.get(k);
    if (!m) this.bySession.set(k, (m = new Map()));
    return m;
  }
}

function key(agentId: string, sessionId: string): string {
  return `${agentId}\u0000${sessionId}`;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** A stored record when it has the shape of one (lenient in the rest: unknown fields are kept). */
export function asStored(raw: unknown): StoredReview | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string') return undefined;
  if (r.deleted === true) return { id: r.id, deleted: true };
  if (typeof r.path !== 'string' || !isNum(r.start) || !isNum(r.end) || typeof r.text !== 'string' || typeof r.created !== 'number') return undefined;
  if (r.state !== 'open' && r.state !== 'resolved') return undefined;
  const lines = Array.isArray(r.lines) ? r.lines.filter((l): l is string => typeof l === 'string') : [];
  return { ...(r as unknown as ReviewComment), lines };
}
