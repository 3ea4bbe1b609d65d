// What the session history stores: one JSON line per record, per session, append-only. A record
// is what reached the stores (a session event, a permission request and its answer, a client
// terminal's output) with the time it arrived, so a restore rebuilds plans (with their revision
// times), the transcript and the permission items exactly. Free of `vscode`.
//
// Why JSON lines we own (not an embedded database): appends are the only write on the hot path,
// a torn last line after a crash is detectable and skippable, the format is readable in a bug
// report, and it costs no native module or bundle bytes.
import type { PermissionOutcome, PermissionRequest, SessionEvent } from '../../protocol/domain';

export type HistoryRecord =
  | { readonly t: number; readonly e: SessionEvent }
  | { readonly t: number; readonly ask: { readonly id: string; readonly request: PermissionRequest; readonly flags: readonly string[] } }
  | { readonly t: number; readonly answer: { readonly id: string; readonly outcome: PermissionOutcome } }
  | { readonly t: number; readonly term: { readonly terminalId: string; readonly text: string; readonly exit?: { exitCode: number | null; signal: string | null } } }
  /** A file the client wrote for the agent (fs/write_text_file): what the work index keeps to review and revert it. */
  | { readonly t: number; readonly write: { readonly path: string; readonly before: string | null; readonly after: string } };

export interface ParsedLog {
  records: HistoryRecord[];
  /** Lines that were not records (skipped). */
  badLines: number;
  /** The last line was cut short (the process died while writing it): skipped. */
  torn: boolean;
}

/** Parses a session log; never throws. */
export function parseLog(text: string): ParsedLog {
  const p = new LogParser(text);
  p.parse(Infinity);
  return p.result;
}

/**
 * Parses a large log a slice of lines at a time, awaiting `yieldNow` between slices, so the host
 * keeps answering while a long session is read (64 MB of records take seconds to parse).
 */
export async function parseLogInSlices(text: string, yieldNow: () => Promise<void>, linesPerSlice = 2000): Promise<ParsedLog> {
  const p = new LogParser(text);
  while (!p.parse(linesPerSlice)) await yieldNow();
  return p.result;
}

class LogParser {
  readonly result: ParsedLog = { records: [], badLines: 0, torn: false };
  private start = 0;
  constructor(private readonly text: string) {}

  /** Parses up to `maxLines` more lines; true once the text is done. */
  parse(maxLines: number): boolean {
    const { text, result } = this;
    for (let n = 0; n < maxLines && this.start < text.length; n++) {
      const nl = text.indexOf('\n', this.start);
      const end = nl < 0 ? text.length : nl;
      const line = text.slice(this.start, end);
      this.start = end + 1;
      if (!line.trim()) continue;
      const r = parseRecord(line);
      if (r) result.records.push(r);
      else if (nl < 0) result.torn = true; // an unfinished last record
      else result.badLines++;
    }
    return this.start >= text.length;
  }
}

function parseRecord(line: string): HistoryRecord | undefined {
  let v: unknown;
  try { v = JSON.parse(line); } catch { return undefined; }
  return asRecord(v);
}

/** The value as a record when it has a record's shape (an imported bundle's entries), else undefined. */
export function asRecord(v: unknown): HistoryRecord | undefined {
  if (!v || typeof v !== 'object' || typeof (v as { t?: unknown }).t !== 'number') return undefined;
  const r = v as Record<string, unknown>;
  if (isObject(r.e) && typeof r.e.sessionId === 'string' && typeof r.e.kind === 'string') return v as HistoryRecord;
  if (isObject(r.ask) && typeof r.ask.id === 'string' && isObject(r.ask.request)) return v as HistoryRecord;
  if (isObject(r.answer) && typeof r.answer.id === 'string' && isObject(r.answer.outcome)) return v as HistoryRecord;
  if (isObject(r.term) && typeof r.term.terminalId === 'string' && typeof r.term.text === 'string') return v as HistoryRecord;
  if (isObject(r.write) && typeof r.write.path === 'string' && typeof r.write.after === 'string' && (r.write.before === null || typeof r.write.before === 'string')) return v as HistoryRecord;
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> { return !!v && typeof v === 'object'; }

/**
 * A shorter log that rebuilds the same state: the chunks of each message merged into one message
 * (at its first chunk's place), and only the last `maxPlanRevisions` updates of each plan. Chunks
 * after a stored whole message (an upsert, or a log compacted earlier) are merged into it; chunks
 * after a message that cannot take them stay chunks.
 */
export function compact(records: readonly HistoryRecord[], maxPlanRevisions: number): HistoryRecord[] {
  const out: (HistoryRecord | undefined)[] = [];
  /** Per message: the place of the whole message later chunks merge into, or -1: none (keep chunks). */
  const messages = new Map<string, number>();
  const plans = new PlanRevisions(maxPlanRevisions);
  for (const r of records) {
    if (!('e' in r)) { out.push(r); continue; }
    const e = r.e;
    if (e.kind === 'message_chunk') {
      const key = `${e.role}\u0000${e.messageId}`;
      const at = messages.get(key);
      const prev = at === undefined || at < 0 ? undefined : out[at];
      if (prev && 'e' in prev && prev.e.kind === 'message' && Array.isArray(prev.e.content)) {
        out[at!] = { t: prev.t, e: { ...prev.e, content: appendBlock(prev.e.content, e.content) } };
      } else if (at === undefined) {
        messages.set(key, out.length);
        out.push({ t: r.t, e: { sessionId: e.sessionId, kind: 'message', role: e.role, messageId: e.messageId, content: [e.content], ...(e._meta !== undefined ? { _meta: e._meta } : {}) } });
      } else {
        out.push(r);
      }
      continue;
    }
    // An upsert replaces the content before it; chunks after it append to it.
    if (e.kind === 'message') messages.set(`${e.role}\u0000${e.messageId}`, Array.isArray(e.content) ? out.length : -1);
    if (e.kind === 'plan_update') plans.add(e.plan.planId, out.length, out);
    out.push(r);
  }
  return out.filter((r): r is HistoryRecord => r !== undefined);
}

/**
 * What a batch of new records of one session needs on disk (HistoryStore, before an append): the
 * same state after any later `compact`, in fewer bytes. Text chunks of one message are joined into
 * its first chunk of the batch (still a chunk: the message may have begun in an earlier batch),
 * and plan updates that `maxPlanRevisions` later updates of the same plan in the batch make
 * obsolete are not written. A burst writes what will be kept, not everything it streamed.
 */
export function compactBatch(records: readonly HistoryRecord[], maxPlanRevisions: number): HistoryRecord[] {
  const out: (HistoryRecord | undefined)[] = [];
  /** Per message: the place of the chunk record later text chunks join. */
  const chunks = new Map<string, number>();
  const plans = new PlanRevisions(maxPlanRevisions);
  for (const r of records) {
    if (!('e' in r)) { out.push(r); continue; }
    const e = r.e;
    if (e.kind === 'message_chunk') {
      const key = `${e.role}\u0000${e.messageId}`;
      const at = chunks.get(key);
      const prev = at === undefined ? undefined : out[at];
      const head = prev && 'e' in prev && prev.e.kind === 'message_chunk' ? prev.e : undefined;
      const a = head?.content;
      const b = e.content;
      if (head && a && joinable(a) && joinable(b) && e._meta === undefined) {
        out[at!] = { t: prev!.t, e: { ...head, content: { ...a, text: a.text + b.text } } };
        continue;
      }
      chunks.set(key, out.length);
    } else if (e.kind === 'message') {
      chunks.delete(`${e.role}\u0000${e.messageId}`);
    } else if (e.kind === 'plan_update') {
      plans.add(e.plan.planId, out.length, out);
    }
    out.push(r);
  }
  return out.filter((r): r is HistoryRecord => r !== undefined);
}

/** A text block without annotations or `_meta`: two of them join into one. */
function joinable(b: Block): b is Extract<Block, { type: 'text' }> {
  return b.type === 'text' && !b._meta && !b.annotations;
}

/** Keeps the places of each plan's last `max` updates; an older one's place is emptied. */
class PlanRevisions {
  private readonly places = new Map<string, number[]>();
  constructor(private readonly max: number) {}
  add(planId: string, at: number, out: (HistoryRecord | undefined)[]): void {
    let list = this.places.get(planId);
    if (!list) this.places.set(planId, (list = []));
    list.push(at);
    if (list.length > this.max) out[list.shift()!] = undefined;
  }
}

type Block = Extract<SessionEvent, { kind: 'message_chunk' }>['content'];

/** Text chunks join the previous text block; anything else is a block of its own. */
function appendBlock(blocks: readonly Block[], b: Block): Block[] {
  const last = blocks[blocks.length - 1];
  if (b.type === 'text' && last?.type === 'text' && !last._meta && !b._meta && !last.annotations && !b.annotations) {
    return [...blocks.slice(0, -1), { ...last, text: last.text + b.text }];
  }
  return [...blocks, b];
}
