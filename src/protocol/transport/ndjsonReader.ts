// Reads newline-delimited JSON-RPC from the agent's stdout (WIRE.md §1).
//
// What it tolerates, and how:
//   - lines are split on bytes (lineSplitter.ts); a trailing `\r` (CRLF) is ignored; blank lines
//     are skipped silently;
//   - a line that is not a JSON object or array (agents print logs on stdout) is counted and
//     logged, never fatal;
//   - invalid UTF-8 is decoded with replacement characters (U+FFFD), counted and logged: the
//     message still arrives, with the broken bytes replaced;
//   - a line longer than `maxLineBytes` is discarded without being buffered, reported through
//     the logger and as a reader error event; the connection stays up;
//   - a JSON-RPC batch (an array) is delivered entry by entry, as separate messages. We answer
//     each request of a batch with its own response line, not with a batch array: a deviation
//     from JSON-RPC 2.0 §6, which the later ACP draft made moot by removing batches;
//   - a line nested deeper than `maxDepth` (jsonDepth.ts) is never parsed: it is counted and
//     logged, and each request in it is answered `-32600` through `answerInvalid`;
//   - a request whose id is neither a string nor a number (null, an object…) is answered
//     `-32600` with id null (JSON-RPC 2.0 §5: the id could not be used), never delivered;
//   - a failure while handling one line is logged; the next line (of the same chunk) still arrives.
// At the end of the stream the reader delivers one `END_OF_STREAM_METHOD` notification after the
// last message, then fires `onClose`: whoever owns the connection closes it when that marker is
// dispatched, i.e. after every message read before it.
import { isUtf8 } from 'node:buffer';
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-jsonrpc/node';
import type { ProtocolLogger } from '../api';
import { MAX_JSON_DEPTH, moreBracketsThan, nestingDepth, outlineMessages } from './jsonDepth';
import { LineSplitter } from './lineSplitter';
import { budgetSpent, later, SLICE_MS } from './turnBudget';

/** Internal marker; never read from the wire (an agent sending it is ignored). */
export const END_OF_STREAM_METHOD = '$/acp-plans/endOfStream';
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
const PREVIEW_CHARS = 200;

export interface NdjsonReaderOptions {
  maxLineBytes?: number;
  logger?: ProtocolLogger;
  /**
   * Receives every message (the end-of-stream marker included) instead of the listener;
   * `deliver` is the listener's callback. The connection uses it to dispatch in order ahead of
   * vscode-jsonrpc's queue (orderedDispatch.ts).
   */
  route?: (message: Message, deliver: DataCallback) => void;
  /** Deepest nesting accepted (default MAX_JSON_DEPTH); a batch array adds one level. */
  maxDepth?: number;
  /** Answers a request that is never delivered (invalid id, too deep) with a `-32600` error. */
  answerInvalid?: (id: string | number | null, message: string) => void;
}

export interface ReaderStats {
  /** Messages delivered (each batch entry counts). */
  messages: number;
  /** Lines that were not JSON-RPC (logs, garbage), skipped. */
  noiseLines: number;
  /** Lines over `maxLineBytes`, discarded. */
  oversizeLines: number;
  /** Lines with invalid UTF-8, decoded with U+FFFD. */
  invalidUtf8Lines: number;
  /** Lines nested deeper than `maxDepth`, refused unparsed. */
  tooDeepLines: number;
  /** Requests refused for an unusable id (null, an object…). */
  invalidRequests: number;
}

export class OversizeLineError extends Error {
  override readonly name = 'OversizeLineError';
  constructor(
    readonly bytes: number,
    readonly maxLineBytes: number,
  ) {
    super(`Discarded a ${bytes}-byte line from the agent (limit ${maxLineBytes} bytes).`);
  }
}

export class NdjsonMessageReader extends AbstractMessageReader {
  readonly stats: ReaderStats = { messages: 0, noiseLines: 0, oversizeLines: 0, invalidUtf8Lines: 0, tooDeepLines: 0, invalidRequests: 0 };
  private readonly maxLineBytes: number;
  private readonly logger: ProtocolLogger | undefined;
  private readonly splitter: LineSplitter;
  private readonly route: ((message: Message, deliver: DataCallback) => void) | undefined;
  private readonly maxDepth: number;
  private readonly answerInvalid: ((id: string | number | null, message: string) => void) | undefined;
  private callback: DataCallback | undefined;
  private ended = false;
  private readonly detach: (() => void)[] = [];
  /** The error the stream ended with, if any. */
  streamError: Error | undefined;

  constructor(
    private readonly readable: NodeJS.ReadableStream,
    options: NdjsonReaderOptions = {},
  ) {
    super();
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.logger = options.logger;
    this.route = options.route;
    this.maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
    this.answerInvalid = options.answerInvalid;
    this.splitter = new LineSplitter(this.maxLineBytes, {
      line: (bytes) => {
        this.lines.push(bytes);
      },
      oversize: (bytes) => {
        this.lines.push(bytes);
      },
    });
  }

  /** Lines split and not handled yet (a number: an over-cap line of that many bytes), from `next` on. */
  private lines: (Buffer | number)[] = [];
  private next = 0;
  /** A slice of lines is scheduled: the stream is paused until the lines are handled. */
  private resumeLater = false;

  /**
   * Handles the lines waiting, in order, while the event loop turn's budget lasts (turnBudget.ts:
   * one for every connection and all their reads; `Infinity`: all of them). When more wait, the
   * stream is paused and the rest is handled on a later turn, in the connections' common queue: a
   * burst or large tool outputs never hold the host for long, and the pause is back-pressure on the
   * agent (its pipe fills, its writes wait).
   */
  private handleLines(budgetMs = SLICE_MS): void {
    while (this.next < this.lines.length) {
      if (budgetSpent(budgetMs)) {
        if (!this.resumeLater) {
          this.resumeLater = true;
          this.readable.pause();
          later(() => this.continueLines());
        }
        return;
      }
      const line = this.lines[this.next++]!;
      if (typeof line === 'number') this.onOversize(line);
      else this.onLineSafely(line);
    }
    this.lines = [];
    this.next = 0;
  }

  private continueLines(): void {
    this.resumeLater = false;
    if (!this.callback) return; // stopped listening meanwhile
    this.handleLines();
    if (this.resumeLater) return;
    if (this.ended) this.close();
    else this.readable.resume();
  }

  /** Bytes buffered for the line in progress (an over-cap line is never buffered). */
  get bufferedBytes(): number {
    return this.splitter.retainedBytes;
  }

  listen(callback: DataCallback): Disposable {
    if (this.callback) throw new Error('NdjsonMessageReader: listen() called twice');
    this.callback = callback;
    const onData = (chunk: Buffer | string): void => {
      this.splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
      if (!this.resumeLater) this.handleLines();
    };
    const onEnd = (): void => this.finish(undefined);
    const onError = (err: unknown): void => {
      this.fireError(err);
      this.finish(err instanceof Error ? err : new Error(String(err)));
    };
    this.readable.on('data', onData);
    this.readable.on('end', onEnd);
    this.readable.on('close', onEnd);
    this.readable.on('error', onError);
    this.detach.push(() => {
      this.readable.removeListener('data', onData);
      this.readable.removeListener('end', onEnd);
      this.readable.removeListener('close', onEnd);
      this.readable.removeListener('error', onError);
      // A stream 'error' without a listener would crash the host: keep swallowing them.
      this.readable.on('error', ignore);
    });
    return { dispose: () => this.stopListening() };
  }

  override dispose(): void {
    this.stopListening();
    super.dispose();
  }

  private stopListening(): void {
    for (const d of this.detach.splice(0)) d();
    this.callback = undefined;
  }

  private finish(err: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.streamError = err;
    this.splitter.end();
    // Every line read comes before the end marker: when lines still wait, the last slice closes.
    if (!this.resumeLater) this.handleLines();
    if (!this.resumeLater) this.close();
  }

  private close(): void {
    this.emit({ jsonrpc: '2.0', method: END_OF_STREAM_METHOD } as Message);
    this.fireClose();
  }

  private onOversize(bytes: number): void {
    this.stats.oversizeLines++;
    const err = new OversizeLineError(bytes, this.maxLineBytes);
    this.logger?.log('warn', err.message);
    this.fireError(err);
  }

  private onLineSafely(bytes: Buffer): void {
    try {
      this.onLine(bytes);
    } catch (err) {
      // One bad line must not cost the lines after it in the same chunk.
      this.logger?.log('error', `Handling a line from the agent failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }

  private onLine(bytes: Buffer): void {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 0x0d) end--;
    let start = 0;
    while (start < end && isJsonSpace(bytes[start])) start++;
    if (start === end) return; // blank line
    const first = bytes[start];
    if (first !== 0x7b /* { */ && first !== 0x5b /* [ */) {
      this.noise(bytes.toString('utf8', start, end), 'not JSON');
      return;
    }
    const allowed = this.maxDepth + (first === 0x5b ? 1 : 0);
    if (moreBracketsThan(bytes, start, end, allowed) && nestingDepth(bytes, start, end, allowed) > allowed) {
      this.tooDeep(bytes, start, end);
      return;
    }
    const text = bytes.toString('utf8', start, end);
    if (text.includes('\uFFFD') && !isUtf8(bytes.subarray(start, end))) {
      this.stats.invalidUtf8Lines++;
      this.logger?.log('warn', 'Agent sent a line with invalid UTF-8; the broken bytes were replaced with U+FFFD.');
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.noise(text, err instanceof Error ? err.message : 'invalid JSON');
      return;
    }
    if (Array.isArray(value)) {
      if (value.length === 0) this.noise('[]', 'empty batch');
      for (const entry of value) this.deliver(entry);
    } else {
      this.deliver(value);
    }
  }

  private deliver(value: unknown): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.noise(JSON.stringify(value) ?? String(value), 'not a JSON-RPC message');
      return;
    }
    const msg = value as Message & { method?: unknown; id?: unknown };
    this.logger?.wire?.('receive', msg);
    if ('method' in msg && 'id' in msg && typeof msg.id !== 'string' && typeof msg.id !== 'number') {
      this.refuse(
        null,
        'Invalid Request: the id must be a string or a number.',
        `Refused a request with ${msg.id === null ? 'a null' : `a${Array.isArray(msg.id) ? 'n array' : ` ${typeof msg.id}`}`} id (${describeMethod(msg.method)}); answered with an error, id null.`,
      );
      return;
    }
    if ('method' in msg && typeof msg.method !== 'string' && 'id' in msg) {
      this.refuse(
        msg.id as string | number,
        'Invalid Request: the method must be a string.',
        `Refused a request #${String(msg.id)} whose method is not a string.`,
      );
      return;
    }
    if (msg.method === END_OF_STREAM_METHOD) {
      this.logger?.log('debug', `Ignored a reserved method from the agent: ${END_OF_STREAM_METHOD}`);
      return;
    }
    this.stats.messages++;
    this.emit(msg);
  }

  /** A line nested deeper than the limit: counted, logged, and each request in it answered. */
  private tooDeep(bytes: Buffer, start: number, end: number): void {
    this.stats.tooDeepLines++;
    const outlines = outlineMessages(bytes, start, end);
    const requests = outlines.filter((o) => o.hasMethod && o.id !== undefined);
    this.logger?.log(
      'warn',
      `Refused a ${end - start}-byte line from the agent nested deeper than ${this.maxDepth} levels` +
        `${requests.length ? ` (${requests.length} request(s) answered with an error)` : ''}. The connection stays up.`,
    );
    for (const r of requests) {
      this.answerInvalid?.(r.id ?? null, `Invalid Request: the message is nested deeper than ${this.maxDepth} levels.`);
    }
  }

  private refuse(id: string | number | null, answer: string, log: string): void {
    this.stats.invalidRequests++;
    this.logger?.log('warn', log);
    this.answerInvalid?.(id, answer);
  }

  private emit(msg: Message): void {
    const callback = this.callback;
    if (!callback) return;
    if (this.route) this.route(msg, callback);
    else callback(msg);
  }

  private noise(text: string, why: string): void {
    this.stats.noiseLines++;
    if (!this.logger) return;
    const preview = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
    this.logger.log(this.stats.noiseLines === 1 ? 'warn' : 'debug', `Skipped a line from the agent's stdout (${why}): ${JSON.stringify(preview)}`);
  }
}

function ignore(): void {
  /* see stopListening */
}

function describeMethod(method: unknown): string {
  return typeof method === 'string' ? JSON.stringify(method.length > 100 ? `${method.slice(0, 100)}…` : method) : 'no method name';
}

function isJsonSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;
}
