// What the session history stores: one JSON line per record, per session, append-only. A record
// is what reached the stores (a session event, a permission request and its answer, a client
// terminal's output) with the time it arrived, so a restore rebuilds plans (with their revision
// times), the transcript and the permission items exactly. Free of `vscode`.
//
// Why JSON lines we own (not an embedded database): appends are the only write on the hot path,
// a torn last line after a crash is detectable and skippable, the format is readable in a bug
// report, and it costs no native module or bundle bytes.
import type { PermissionOutcome, PermissionRequest, PlanContent, PlanEntry, SessionEvent } from '../../protocol/domain';

export type HistoryRecord =
  | { readonly t: number; readonly e: SessionEvent }
  | { readonly t: number; readonly ask: { readonly id: string; readonly request: PermissionRequest; readonly flags: readonly string[] } }
  | { readonly t: number; readonly answer: { readonly id: string; readonly outcome: PermissionOutcome } }
  | {
      readonly t: number;
      readonly term: { readonly terminalId: string; readonly text: string; readonly exit?: { exitCode: number | null; signal: string | null } };
    }
  /** A file the client wrote for the agent (fs/write_text_file): what the work index keeps to review and revert it. */
  | { readonly t: number; readonly write: { readonly path: string; readonly before: string | null; readonly after: string } }
  /** What a workspace folder changed between two checkpoints (src/app/checkpoints) and who owned that time: the work index's interval. */
  | { readonly t: number; readonly ckpt: CheckpointRecord }
  /** A review comment as it is now (src/app/review): the last record of an id wins; `deleted` removes it. */
  | { readonly t: number; readonly review: { readonly id: string } };

/** A checkpoint interval as stored: paths relative to `folder`, status A/M/D, lines added and removed, `b` binary. */
export interface CheckpointRecord {
  readonly folder: string;
  readonly from: string;
  readonly to: string;
  readonly since: number;
  readonly owners: readonly { readonly planId?: string; readonly key: number }[];
  readonly files: readonly { readonly p: string; readonly s: 'A' | 'M' | 'D'; readonly a: number; readonly r: number; readonly b?: 1 }[];
}

// A plan revision usually changes one entry's status, so a log stores a revision of an items plan
// as the entries that changed since that plan's previous line in the same log: `{"t", "p": {"e":
// the event without its plan, "h": the plan without its entries, "n": the entry count, "c":
// [[index, entry], …], "b": the base's number}}`. Each line of a plan has a number in its log (a
// whole plan's line carries it as `"q"`, a delta's is its base's plus one), and a delta resolves
// only against the line with its base's number: a torn, skipped or never written line makes the
// deltas after it bad lines, never a wrong plan. In memory (and in exported bundles) every record is
// whole; a log rewritten by compaction starts afresh.

export type ItemsPlan = Extract<PlanContent, { type: 'items' }>;
export interface PlanDelta {
  e: Omit<PlanUpdate, 'plan'>;
  h: Omit<ItemsPlan, 'entries'>;
  n: number;
  b: number;
  c: [number, PlanEntry][];
}
export type PlanUpdate = Extract<SessionEvent, { kind: 'plan_update' }>;

/** An entry's JSON, as in an array (`undefined` is `null`). */
const entryLine = (x: unknown): string => JSON.stringify(x) ?? 'null';

/** Writes one log's lines: each items plan's revision as the entries changed since its last line. */
export class LogEncoder {
  /** Per session and plan: the entries of its last line in this log, and that line's number. */
  private readonly last = new Map<string, { entries: readonly PlanEntry[]; q: number }>();

  line(r: HistoryRecord): string {
    if (!('e' in r) || r.e.kind !== 'plan_update' || r.e.plan.type !== 'items' || !Array.isArray(r.e.plan.entries)) return `${JSON.stringify(r)}\n`;
    const { plan, ...event } = r.e;
    const { entries, ...head } = plan;
    const key = `${event.sessionId}\u0000${head.planId}`;
    const prev = this.last.get(key);
    const q = (prev?.q ?? 0) + 1;
    this.last.set(key, { entries, q });
    let changed = '';
    let count = 0;
    if (prev) {
      for (let i = 0; i < entries.length && count * 2 <= entries.length; i++) {
        if (entries[i] !== prev.entries[i]) {
          changed += `${count++ ? ',' : ''}[${i},${entryLine(entries[i])}]`;
        }
      }
    }
    if (prev && count * 2 <= entries.length) {
      // `"c":0}}` at the end of the line with a placeholder is where the changed entries go.
      const line = JSON.stringify({ t: r.t, p: { e: event, h: head, n: entries.length, b: prev.q, c: 0 } });
      return `${line.slice(0, -3)}[${changed}]}}\n`;
    }
    // The whole plan; its entries go last, where `0}}}` ends the line with a placeholder.
    const line = JSON.stringify({ q, t: r.t, e: { ...event, plan: { ...head, entries: 0 } } });
    let list = '';
    for (let i = 0; i < entries.length; i++) list += i ? `,${entryLine(entries[i])}` : entryLine(entries[i]);
    return `${line.slice(0, -4)}[${list}]}}}\n`;
  }
}

/** Records as log text, in one string (a log of their own, or appended to one with `encoder`). */
export function serialize(records: readonly HistoryRecord[], encoder = new LogEncoder()): string {
  let out = '';
  for (const r of records) out += encoder.line(r);
  return out;
}

/** A tool call's first update in a batch, with the fields of the later ones merged in. */
interface CallRun {
  first: HistoryRecord & { e: Extract<SessionEvent, { kind: 'tool_call' }> };
  fields: Record<string, unknown>;
}

/** A text chunk opening a run of chunks of one message in a batch; later text chunks join it. */
interface ChunkRun {
  first: HistoryRecord & { e: MessageChunk };
  texts: string[] | undefined;
}
type MessageChunk = Extract<SessionEvent, { kind: 'message_chunk' }>;

/**
 * The records of one session waiting for their append (HistoryStore), kept as they will be written:
 * the same state after any later `compact`, in fewer bytes. Text chunks of one message join their
 * first chunk in the batch (still a chunk: the message may have begun in an earlier batch), a tool
 * call's updates merge into its first update in the batch (its final fields, at its first place), and a
 * plan's updates that `maxPlanRevisions` later ones in the batch make obsolete are dropped. Records
 * that no later one changes are serialized as they arrive, so the batch holds text, not events.
 */
export class PendingBatch {
  private readonly items: (string | ChunkRun | CallRun | HistoryRecord | undefined)[] = [];
  /** Per message: the run later text chunks join. */
  private readonly runs = new Map<string, ChunkRun>();
  /** Per tool call: the update later updates merge into (until a content chunk or a permission record). */
  private readonly calls = new Map<string, CallRun>();
  private readonly plans: PlanRevisions;

  constructor(maxPlanRevisions: number) {
    this.plans = new PlanRevisions(maxPlanRevisions);
  }

  get size(): number {
    return this.items.length;
  }

  add(r: HistoryRecord): void {
    if (!('e' in r)) {
      // A permission request carries a snapshot of its tool call: no update moves before it.
      if ('ask' in r || 'answer' in r) this.calls.clear();
      this.items.push(`${JSON.stringify(r)}\n`);
      return;
    }
    const e = r.e;
    if (e.kind === 'tool_call') {
      // Patch semantics: a later update's fields replace the earlier ones' (undefined leaves them).
      const run = this.calls.get(e.toolCallId);
      if (run) {
        for (const [k, v] of Object.entries(e.fields)) if (v !== undefined) run.fields[k] = v;
        return;
      }
      const next: CallRun = { first: r as CallRun['first'], fields: { ...e.fields } };
      this.calls.set(e.toolCallId, next);
      this.items.push(next);
      return;
    }
    if (e.kind === 'tool_call_content_chunk') this.calls.delete(e.toolCallId); // appends to the content as it is now
    if (e.kind === 'message_chunk') {
      const key = `${e.role}\u0000${e.messageId}`;
      const run = this.runs.get(key);
      const b = e.content;
      if (run?.texts && joinable(b) && e._meta === undefined) {
        run.texts.push(b.text);
        return;
      }
      const next: ChunkRun = { first: r as ChunkRun['first'], texts: joinable(b) ? [b.text] : undefined };
      this.runs.set(key, next);
      this.items.push(next);
      return;
    }
    if (e.kind === 'message') this.runs.delete(`${e.role}\u0000${e.messageId}`);
    if (e.kind === 'plan_update') {
      this.plans.add(e.plan.planId, this.items.length, this.items);
      this.items.push(r);
      return;
    }
    this.items.push(`${JSON.stringify(r)}\n`);
  }

  /** The batch as log text, in slices of about `sliceChars` characters; plan lines through `encoder`. */
  *text(encoder: LogEncoder, sliceChars: number): Generator<string> {
    let text = '';
    for (const it of this.items) {
      if (it === undefined) continue;
      text +=
        typeof it === 'string'
          ? it
          : 'texts' in it
            ? runLine(it)
            : 'fields' in it
              ? `${JSON.stringify({ t: it.first.t, e: { ...it.first.e, fields: it.fields } })}\n`
              : encoder.line(it);
      if (text.length >= sliceChars) {
        yield text;
        text = '';
      }
    }
    if (text) yield text;
  }
}

function runLine({ first, texts }: ChunkRun): string {
  if (!texts || texts.length < 2) return `${JSON.stringify(first)}\n`;
  return `${JSON.stringify({ t: first.t, e: { ...first.e, content: { ...first.e.content, text: texts.join('') } } })}\n`;
}

/** A text block without annotations or `_meta`: two of them join into one. */
export function joinable(b: Block): b is Extract<Block, { type: 'text' }> {
  return b.type === 'text' && !b._meta && !b.annotations;
}

/** Keeps the places of each plan's last `max` updates; an older one's place is emptied. */
export class PlanRevisions {
  private readonly places = new Map<string, number[]>();
  constructor(private readonly max: number) {}
  add(planId: string, at: number, out: unknown[]): void {
    let list = this.places.get(planId);
    if (!list) this.places.set(planId, (list = []));
    list.push(at);
    if (list.length > this.max) out[list.shift()!] = undefined;
  }
}

export type Block = Extract<SessionEvent, { kind: 'message_chunk' }>['content'];

/** What the transcript keeps of one message / tool call's content / compaction summary (characters): no more is stored. */
const MAX_MESSAGE_CHARS = 1024 * 1024;
const MAX_TOOL_CONTENT_CHARS = 2 * 1024 * 1024;

/** A chunk the history stores only while what it belongs to is within its cap: what it belongs to, and the cap. */
export function chunkOf(e: SessionEvent): { kind: string; of: string; role: string; content: unknown; max: number } | undefined {
  switch (e.kind) {
    case 'message_chunk':
      return { kind: 'm', of: e.messageId, role: e.role, content: e.content, max: MAX_MESSAGE_CHARS };
    case 'tool_call_content_chunk':
      return { kind: 't', of: e.toolCallId, role: '', content: e.content, max: MAX_TOOL_CONTENT_CHARS };
    case 'compaction_chunk':
      // A summary is a message of the agent's: the same cap (the transcript keeps 1 MiB of it).
      return { kind: 'c', of: e.compactionId, role: '', content: e.content, max: MAX_MESSAGE_CHARS };
    default:
      return undefined;
  }
}
