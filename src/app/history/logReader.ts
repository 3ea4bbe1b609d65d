// Reads session logs (records.ts writes them): lines to records, delta lines resolved against the
// plan lines before them, and the compaction a load applies. Loaded the first time a stored session
// is read (dist/history-reader.js in the extension bundle; see src/common/lazy.ts). Free of `vscode`.
import type { PlanEntry } from '../../protocol/domain';
import { joinable, PlanRevisions, type Block, type HistoryRecord, type PlanDelta, type PlanUpdate } from './records';

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
 * Parses a large log a slice at a time (about `charsPerSlice` characters of lines), awaiting
 * `yieldNow` between slices, so the host keeps answering while a long session is read (64 MB of
 * records take seconds to parse; a slice of 2,000 lines with large tool outputs took 60 ms).
 */
export async function parseLogInSlices(text: string, yieldNow: () => Promise<void>, charsPerSlice = 64 * 1024): Promise<ParsedLog> {
  const p = new LogParser(text);
  while (!p.parse(charsPerSlice)) await yieldNow();
  return p.result;
}

class LogParser {
  readonly result: ParsedLog = { records: [], badLines: 0, torn: false };
  private start = 0;
  /** Per session and plan: the entries of its last line and that line's number (records.ts), which a delta line changes. */
  private readonly plans = new Map<string, { entries: readonly PlanEntry[]; q: number | undefined }>();
  constructor(private readonly text: string) {}

  /** Parses the lines that begin within the next `maxChars` characters; true once the text is done. */
  parse(maxChars: number): boolean {
    const { text, result } = this;
    for (const stop = this.start + maxChars; this.start < stop && this.start < text.length;) {
      const nl = text.indexOf('\n', this.start);
      const end = nl < 0 ? text.length : nl;
      const line = text.slice(this.start, end);
      this.start = end + 1;
      if (!line.trim()) continue;
      const r = this.record(line);
      if (r) result.records.push(r);
      else if (nl < 0)
        result.torn = true; // an unfinished last record
      else result.badLines++;
    }
    return this.start >= text.length;
  }

  private record(line: string): HistoryRecord | undefined {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return undefined;
    }
    if (isObject(v) && isObject(v.p)) return this.resolve(v.t, v.p);
    let q: number | undefined;
    if (isObject(v) && 'q' in v) {
      q = typeof v.q === 'number' ? v.q : undefined;
      delete v.q;
    } // the line's number is not part of the record
    const r = asRecord(v);
    if (r && 'e' in r && r.e.kind === 'plan_update' && r.e.plan.type === 'items' && Array.isArray(r.e.plan.entries)) {
      this.plans.set(`${r.e.sessionId}\u0000${r.e.plan.planId}`, { entries: r.e.plan.entries, q });
    }
    return r;
  }

  /** A delta line as the whole plan update it stands for; undefined without its base or when malformed. */
  private resolve(t: unknown, p: Record<string, unknown>): HistoryRecord | undefined {
    const d = p as Partial<PlanDelta>;
    if (
      typeof t !== 'number' ||
      !isObject(d.e) ||
      !isObject(d.h) ||
      typeof d.e.sessionId !== 'string' ||
      typeof d.h.planId !== 'string' ||
      typeof d.n !== 'number' ||
      typeof d.b !== 'number' ||
      !Array.isArray(d.c)
    )
      return undefined;
    const key = `${d.e.sessionId}\u0000${d.h.planId}`;
    const base = this.plans.get(key);
    if (!base || base.q !== d.b || !Number.isInteger(d.n) || d.n < 0 || d.n > base.entries.length + d.c.length) return undefined;
    const entries = base.entries.slice(0, d.n);
    for (const c of d.c) {
      if (!Array.isArray(c) || !Number.isInteger(c[0]) || c[0] < 0 || c[0] >= d.n) return undefined;
      entries[c[0]] = c[1];
    }
    for (let i = 0; i < d.n; i++) if (!(i in entries)) return undefined;
    this.plans.set(key, { entries, q: d.b + 1 });
    return { t, e: { ...d.e, kind: 'plan_update', plan: { ...d.h, type: 'items', entries } } as PlanUpdate };
  }
}

/** The value as a record when it has a record's shape (an imported bundle's entries), else undefined. */
export function asRecord(v: unknown): HistoryRecord | undefined {
  if (!v || typeof v !== 'object' || typeof (v as { t?: unknown }).t !== 'number') return undefined;
  const r = v as Record<string, unknown>;
  if (isObject(r.e) && typeof r.e.sessionId === 'string' && typeof r.e.kind === 'string') return v as HistoryRecord;
  if (isObject(r.ask) && typeof r.ask.id === 'string' && isObject(r.ask.request)) return v as HistoryRecord;
  if (isObject(r.answer) && typeof r.answer.id === 'string' && isObject(r.answer.outcome)) return v as HistoryRecord;
  if (isObject(r.term) && typeof r.term.terminalId === 'string' && typeof r.term.text === 'string') return v as HistoryRecord;
  if (
    isObject(r.write) &&
    typeof r.write.path === 'string' &&
    typeof r.write.after === 'string' &&
    (r.write.before === null || typeof r.write.before === 'string')
  )
    return v as HistoryRecord;
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object';
}

/**
 * A shorter log that rebuilds the same state: the chunks of each message merged into one message
 * (at its first chunk's place), and only the last `maxPlanRevisions` updates of each plan. Chunks
 * after a stored whole message (an upsert, or a log compacted earlier) are merged into it; chunks
 * after a message that cannot take them stay chunks.
 */
export function compact(records: readonly HistoryRecord[], maxPlanRevisions: number): HistoryRecord[] {
  const c = new Compactor(maxPlanRevisions);
  for (const r of records) c.add(r);
  return c.result();
}

/** `compact`, a slice of about `sliceMs` at a time, awaiting `yieldNow` between slices. */
export async function compactInSlices(
  records: readonly HistoryRecord[],
  maxPlanRevisions: number,
  yieldNow: () => Promise<void>,
  sliceMs = 8,
): Promise<HistoryRecord[]> {
  const c = new Compactor(maxPlanRevisions);
  for (let i = 0; i < records.length;) {
    const until = performance.now() + sliceMs;
    do c.add(records[i++]!);
    while (i < records.length && ((i & 255) !== 0 || performance.now() < until));
    if (i < records.length) await yieldNow();
  }
  return c.result();
}

class Compactor {
  private readonly out: (HistoryRecord | undefined)[] = [];
  /** Per message: the place of the whole message later chunks merge into, or -1: none (keep chunks). */
  private readonly messages = new Map<string, number>();
  private readonly plans: PlanRevisions;
  constructor(maxPlanRevisions: number) {
    this.plans = new PlanRevisions(maxPlanRevisions);
  }

  add(r: HistoryRecord): void {
    const { out, messages, plans } = this;
    if (!('e' in r)) {
      out.push(r);
      return;
    }
    const e = r.e;
    if (e.kind === 'message_chunk') {
      const key = `${e.role}\u0000${e.messageId}`;
      const at = messages.get(key);
      const prev = at === undefined || at < 0 ? undefined : out[at];
      if (prev && 'e' in prev && prev.e.kind === 'message' && Array.isArray(prev.e.content)) {
        out[at!] = { t: prev.t, e: { ...prev.e, content: appendBlock(prev.e.content, e.content) } };
      } else if (at === undefined) {
        messages.set(key, out.length);
        out.push({
          t: r.t,
          e: {
            sessionId: e.sessionId,
            kind: 'message',
            role: e.role,
            messageId: e.messageId,
            content: [e.content],
            ...(e._meta !== undefined ? { _meta: e._meta } : {}),
          },
        });
      } else {
        out.push(r);
      }
      return;
    }
    // An upsert replaces the content before it; chunks after it append to it.
    if (e.kind === 'message') messages.set(`${e.role}\u0000${e.messageId}`, Array.isArray(e.content) ? out.length : -1);
    if (e.kind === 'plan_update') plans.add(e.plan.planId, out.length, out);
    out.push(r);
  }

  result(): HistoryRecord[] {
    return this.out.filter((r): r is HistoryRecord => r !== undefined);
  }
}

/** Text chunks join the previous text block; anything else is a block of its own. */
function appendBlock(blocks: readonly Block[], b: Block): Block[] {
  const last = blocks[blocks.length - 1];
  if (last && joinable(last) && joinable(b)) {
    return [...blocks.slice(0, -1), { ...last, text: last.text + b.text }];
  }
  return [...blocks, b];
}
