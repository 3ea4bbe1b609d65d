// The recording file format: ACP wire traffic, one JSON object per line (`.jsonl`).
//   {"recording": {"format": "acp-plans-recording", …header}}     first line (optional)
//   {"time": "<ISO 8601>", "dir": "send" | "receive", "msg": {…}}  one wire message per line
// `send` is client → agent. The interop suite's recordings (`.ndjson`, test/fixtures/recordings)
// are the same without `time`; both are read. A message may also be a batch (an array).
//
// Reading is two passes over a byte buffer, both linear: `indexRecording` checks every line once
// (depth measured on the bytes before parsing; bad lines are reported, never fatal) and keeps only
// offsets, so a large recording is not held as objects; `readMessage` parses one line when played.
// No `vscode`.
import { METHOD_NAMES } from '../protocol/methodNames';
import { nestingDepth, MAX_JSON_DEPTH } from '../protocol/transport/jsonDepth';

export const RECORDING_FORMAT = 'acp-plans-recording';
/** Our recordings stop at this size; larger files are not opened. */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;
/** A recorded line wraps the message in one object: one level more than the wire allows. */
const MAX_LINE_DEPTH = MAX_JSON_DEPTH + 1;
/** Bad lines named in a report; the rest are counted. */
const REPORTED_BAD_LINES = 5;

export type Direction = 'send' | 'receive';

export interface RecordingHeader {
  readonly format?: string;
  /** The agent's name (ours) or the interop suite's agent name. */
  readonly agent?: string;
  readonly agentId?: string;
  readonly protocolVersion?: number;
  readonly startedAt?: string;
  readonly redacted?: boolean;
  readonly [key: string]: unknown;
}

/** One good line, not parsed yet. */
export interface LineRef {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

export interface BadLine {
  readonly line: number;
  readonly reason: string;
}

export interface RecordingIndex {
  readonly header: RecordingHeader | undefined;
  readonly messages: readonly LineRef[];
  readonly bad: readonly BadLine[];
}

/** A JSON-RPC message as recorded (or a batch of them). */
export type WireMessage = Record<string, unknown>;

export interface RecordedMessage {
  readonly line: number;
  readonly dir: Direction;
  /** Milliseconds since the epoch, when the recording has times. */
  readonly time: number | undefined;
  readonly msgs: readonly WireMessage[];
}

/** The header line of a recording we write. */
export function headerLine(h: Omit<RecordingHeader, 'format'>): string {
  return `${JSON.stringify({ recording: { format: RECORDING_FORMAT, ...h } })}\n`;
}

/** One recorded message (already redacted by the caller). */
export function messageLine(dir: Direction, msg: unknown, time: number): string {
  return `${JSON.stringify({ time: new Date(time).toISOString(), dir, msg })}\n`;
}

/** Checks every line; keeps the good ones' offsets, the header, and the bad ones' reasons. */
export function indexRecording(bytes: Buffer): RecordingIndex {
  const messages: LineRef[] = [];
  const bad: BadLine[] = [];
  let header: RecordingHeader | undefined;
  let line = 0;
  for (let pos = 0; pos < bytes.length;) {
    const start = pos;
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    pos = end + 1;
    line++;
    if (end > start && bytes[end - 1] === 0x0d) end--;
    const checked = checkLine(bytes, start, end);
    if (checked === 'blank') continue;
    if (typeof checked === 'string') {
      bad.push({ line, reason: checked });
      continue;
    }
    if ('recording' in checked) {
      if (header === undefined && messages.length === 0 && isObject(checked.recording)) header = checked.recording as RecordingHeader;
      else bad.push({ line, reason: 'a second header, or a header after the first message' });
      continue;
    }
    messages.push({ line, start, end });
  }
  return { header, messages, bad };
}

/** Parses one indexed line (it was checked by indexRecording). */
export function readMessage(bytes: Buffer, ref: LineRef): RecordedMessage {
  const o = JSON.parse(bytes.toString('utf8', ref.start, ref.end)) as { dir: Direction; msg: unknown; time?: unknown };
  return { line: ref.line, dir: o.dir, time: timeOf(o.time), msgs: Array.isArray(o.msg) ? (o.msg as WireMessage[]) : [o.msg as WireMessage] };
}

/** "3 of 120 lines were skipped: line 4 (not JSON), line 9 (…), …" or undefined when none. */
export function describeBadLines(index: RecordingIndex): string | undefined {
  const { bad } = index;
  if (bad.length === 0) return undefined;
  const total = bad.length + index.messages.length + (index.header ? 1 : 0);
  const named = bad
    .slice(0, REPORTED_BAD_LINES)
    .map((b) => `line ${b.line} (${b.reason})`)
    .join(', ');
  const more = bad.length > REPORTED_BAD_LINES ? `, and ${bad.length - REPORTED_BAD_LINES} more` : '';
  return `${bad.length} of ${total} lines could not be read and were skipped: ${named}${more}.`;
}

// ------------------------------------------------------------------ internals

function checkLine(bytes: Buffer, start: number, end: number): 'blank' | string | Record<string, unknown> {
  let s = start;
  while (s < end && (bytes[s] === 0x20 || bytes[s] === 0x09)) s++;
  if (s === end) return 'blank';
  if (nestingDepth(bytes, s, end, MAX_LINE_DEPTH) > MAX_LINE_DEPTH) return `nested deeper than ${MAX_LINE_DEPTH} levels`;
  let o: unknown;
  try {
    o = JSON.parse(bytes.toString('utf8', s, end));
  } catch {
    return 'not JSON';
  }
  if (!isObject(o)) return 'not a JSON object';
  if ('recording' in o) return o;
  if (o.dir !== 'send' && o.dir !== 'receive') return '"dir" is not "send" or "receive"';
  const msgs = Array.isArray(o.msg) ? o.msg : [o.msg];
  if (msgs.length === 0 || !msgs.every(isMessage)) return '"msg" is not a JSON-RPC message';
  return o;
}

/** A request, notification or response: a string `method`, or an `id` with `result`/`error`. */
function isMessage(m: unknown): boolean {
  if (!isObject(m)) return false;
  if (m.method !== undefined) return typeof m.method === 'string';
  return 'id' in m && ('result' in m || 'error' in m);
}

function timeOf(t: unknown): number | undefined {
  const ms = typeof t === 'number' ? t : typeof t === 'string' && t.length <= 40 ? Date.parse(t) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export { REPLAY_AGENT_PREFIX } from '../common/pseudoAgents';

let initializeNames: ReadonlySet<string> | undefined;

/** Whether `method` is `initialize` in either protocol version. */
export function isInitialize(method: unknown): boolean {
  if (typeof method !== 'string') return false;
  initializeNames ??= new Set(METHOD_NAMES.map((m) => m.initialize));
  return initializeNames.has(method);
}
