// Reads session logs (records.ts writes them): lines to records, delta lines resolved against the
// plan lines before them (kept as deltas, at most `maxPlanRevisions` per plan: planChains.ts), and
// the compaction a load applies. A log file is read a chunk at a time, a line at most
// MAX_LOG_LINE_BYTES long (logLines.ts). Loaded the first time a stored session is read
// (dist/history-reader.js in the extension bundle; see src/common/lazy.ts). Free of `vscode`.
import { readLines, type LineLimits } from './logLines';
import { PlanChains, planIdOf } from './planChains';
import { joinable, PlanRevisions, type Block, type HistoryRecord, type PlanDelta, type PlanUpdate } from './records';

export { MAX_LOG_LINE_BYTES } from './logLines';

export interface ParsedLog {
  records: HistoryRecord[];
  /** Lines that were not records, or over the line limit (skipped). */
  badLines: number;
  /** The last line was cut short (the process died while writing it): skipped. */
  torn: boolean;
  /** Plan revisions left out while reading, past the kept count per plan. */
  dropped: number;
}

export interface ReadLogOptions extends LineLimits {
  maxPlanRevisions: number;
}
export interface ReadLog extends ParsedLog {
  /** Lines over the limit (counted in badLines too). */
  longLines: number;
  /** The most bytes the reader held at once. */
  maxBuffered: number;
}

/** Reads a session log file (see logLines.ts for what it refuses); throws as `fs` does. */
export async function readLog(file: string, o: ReadLogOptions): Promise<ReadLog> {
  const p = new LogParser('', o.maxPlanRevisions);
  const read = await readLines(file, o, (line, ended) => p.line(line, ended));
  const result = p.result;
  return { ...result, badLines: result.badLines + read.longLines, longLines: read.longLines, maxBuffered: read.maxBuffered };
}

/** Parses a session log; never throws. */
export function parseLog(text: string, maxPlanRevisions = Infinity): ParsedLog {
  const p = new LogParser(text, maxPlanRevisions);
  p.parse(Infinity);
  return p.result;
}

/**
 * Parses a large log a slice at a time (about `charsPerSlice` characters of lines), awaiting
 * `yieldNow` between slices, so the host keeps answering while a long session is read (64 MB of
 * records take seconds to parse; a slice of 2,000 lines with large tool outputs took 60 ms).
 */
export async function parseLogInSlices(
  text: string,
  yieldNow: () => Promise<void>,
  charsPerSlice = 64 * 1024,
  maxPlanRevisions = Infinity,
): Promise<ParsedLog> {
  const p = new LogParser(text, maxPlanRevisions);
  while (!p.parse(charsPerSlice)) await yieldNow();
  return p.result;
}

class LogParser {
  private readonly out: (HistoryRecord | undefined)[] = [];
  private readonly counts = { badLines: 0, torn: false };
  private start = 0;
  /** Per session and plan: its revisions as stored, the last `max` of them kept. */
  private readonly plans: PlanChains;
  constructor(
    private readonly text: string,
    maxPlanRevisions: number,
  ) {
    this.plans = new PlanChains(maxPlanRevisions, this.out);
  }

  get result(): ParsedLog {
    return { records: this.out.filter((r): r is HistoryRecord => r !== undefined), ...this.counts, dropped: this.plans.dropped };
  }

  /** Parses the lines that begin within the next `maxChars` characters; true once the text is done. */
  parse(maxChars: number): boolean {
    const { text } = this;
    for (const stop = this.start + maxChars; this.start < stop && this.start < text.length;) {
      const nl = text.indexOf('\n', this.start);
      const end = nl < 0 ? text.length : nl;
      const line = text.slice(this.start, end);
      this.start = end + 1;
      this.line(line, nl >= 0);
    }
    return this.start >= text.length;
  }

  /** One line (`ended`: false for a last line without its newline). */
  line(line: string, ended: boolean): void {
    if (!line.trim()) return;
    if (this.record(line)) return;
    if (!ended)
      this.counts.torn = true; // an unfinished last record
    else this.counts.badLines++;
  }

  /** Adds the line's record to the output; false when it is none. */
  private record(line: string): boolean {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return false;
    }
    if (isObject(v) && isObject(v.p)) return this.resolve(v.t, v.p);
    let q: number | undefined;
    if (isObject(v) && 'q' in v) {
      q = typeof v.q === 'number' ? v.q : undefined;
      delete v.q;
    } // the line's number is not part of the record
    const r = asRecord(v);
    if (!r) return false;
    if ('e' in r && r.e.kind === 'plan_update') this.plans.whole(r as HistoryRecord & { e: PlanUpdate }, q);
    else this.out.push(r);
    return true;
  }

  /** A delta line, kept as the changes it stores; false without its base or when malformed. */
  private resolve(t: unknown, p: Record<string, unknown>): boolean {
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
      return false;
    return this.plans.delta(t, d as PlanDelta);
  }
}

/** The value as a record when it has a record's shape (an imported bundle's entries), else undefined. */
export function asRecord(v: unknown): HistoryRecord | undefined {
  if (!v || typeof v !== 'object' || typeof (v as { t?: unknown }).t !== 'number') return undefined;
  const r = v as Record<string, unknown>;
  if (isObject(r.e) && typeof r.e.sessionId === 'string' && typeof r.e.kind === 'string') return isEvent(r.e) ? (v as HistoryRecord) : undefined;
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
  if (isCheckpoint(r.ckpt)) return v as HistoryRecord;
  if (isObject(r.review) && typeof r.review.id === 'string') return v as HistoryRecord;
  return undefined;
}

function isCheckpoint(c: unknown): boolean {
  if (!isObject(c) || typeof c.folder !== 'string' || typeof c.from !== 'string' || typeof c.to !== 'string' || typeof c.since !== 'number') return false;
  const owners = c.owners;
  const files = c.files;
  return (
    Array.isArray(owners) &&
    owners.every((o) => isObject(o) && typeof o.key === 'number' && (o.planId === undefined || typeof o.planId === 'string')) &&
    Array.isArray(files) &&
    files.every(
      (f) => isObject(f) && typeof f.p === 'string' && (f.s === 'A' || f.s === 'M' || f.s === 'D') && typeof f.a === 'number' && typeof f.r === 'number',
    )
  );
}

/**
 * The fields of an event that reading (compaction) and writing a log rely on: a plan update's plan
 * (an object with its id and type; an items plan's entries a list of objects), a message's ids and
 * a chunk's content. What else an event lacks is found when it is applied (SessionHistory).
 */
function isEvent(e: Record<string, unknown>): boolean {
  switch (e.kind) {
    case 'plan_update': {
      const p = e.plan;
      if (!isObject(p) || typeof p.planId !== 'string' || typeof p.type !== 'string') return false;
      return p.type !== 'items' || (Array.isArray(p.entries) && p.entries.every(isObject));
    }
    case 'message_chunk':
      return typeof e.role === 'string' && typeof e.messageId === 'string' && isObject(e.content) && typeof e.content.type === 'string';
    case 'message':
      return typeof e.role === 'string' && typeof e.messageId === 'string';
    default:
      return true;
  }
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
    if (e.kind === 'plan_update') plans.add(planIdOf(e), out.length, out);
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
