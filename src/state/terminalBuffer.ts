// The text of one terminal shown in a transcript: a v2 display terminal (base64 snapshots and
// chunks) or a v1 client terminal (text pushed by the client's terminal service).
//
// Each base64 chunk is decoded on its own and its bytes go through one streaming UTF-8 decoder,
// so a character split across chunks comes out whole. Escape sequences and control characters
// are removed by a streaming sanitizer. Text is kept as an array of chunks (never re-joined on
// append) with a cap: past `maxChars` the oldest chunks are dropped and `truncated` is set.

import { AnsiSanitizer } from './transcript/ansi';

export interface TerminalExitStatus {
  exitCode?: number | null;
  signal?: string | null;
}

export const DEFAULT_TERMINAL_MAX_CHARS = 2_000_000;

export class TerminalBuffer {
  command: string | null = null;
  cwd: string | null = null;
  exitStatus: TerminalExitStatus | null = null;
  /** Set when the oldest output was dropped to respect the cap. */
  truncated = false;
  /** Bumped whenever the text is replaced (not appended). */
  rev = 0;

  private chunkList: string[] = [];
  /** Index in `chunkList` of the first live chunk (dropped chunks are compacted lazily). */
  private head = 0;
  /** Absolute index of `chunkList[head]`, counting every chunk ever appended since the last replace. */
  private firstAbs = 0;
  private chars = 0;
  private decoder = new TextDecoder('utf-8');
  private readonly sanitizer = new AnsiSanitizer();
  /**
   * Raw text of a client terminal as last set, to turn growing snapshots into appends; null once
   * text was appended (then the next `setText` replaces all: appends never grow a second copy).
   */
  private lastRaw: string | null = '';

  constructor(
    readonly terminalId: string,
    readonly origin: 'display' | 'client',
    private readonly maxChars = DEFAULT_TERMINAL_MAX_CHARS,
  ) {}

  /** Appends one base64 chunk (v2 `terminal_output_chunk`); returns the text shown for it. */
  appendBase64(data: string): string {
    return this.appendDecoded(this.decoder.decode(decodeBase64(data), { stream: true }));
  }

  /** Replaces the whole output with a base64 snapshot (v2 `terminal_update.output`). */
  replaceBase64(data: string): void {
    this.clear();
    this.appendBase64(data);
  }

  /** Appends raw text (may contain escape sequences). */
  appendText(text: string): string {
    this.lastRaw = null;
    return this.appendDecoded(text);
  }

  /**
   * Sets the whole raw text (v1 client terminal output). When the new text extends the previous
   * one, only the new part is appended.
   */
  setText(text: string): void {
    if (this.lastRaw !== null && text.length >= this.lastRaw.length && text.startsWith(this.lastRaw)) {
      const rest = text.slice(this.lastRaw.length);
      this.lastRaw = text;
      if (rest) this.appendDecoded(rest);
      return;
    }
    this.clear();
    this.lastRaw = text;
    this.appendDecoded(text);
  }

  /** Flushes a pending partial UTF-8 sequence (on exit). */
  finish(): void {
    const tail = this.decoder.decode();
    if (tail) this.appendDecoded(tail);
  }

  get length(): number {
    return this.chars;
  }
  /** Absolute index of the first chunk still held. */
  get firstChunkIndex(): number {
    return this.firstAbs;
  }
  /** Absolute index one past the last chunk. */
  get endChunkIndex(): number {
    return this.firstAbs + this.chunkList.length - this.head;
  }
  get chunkCount(): number {
    return this.chunkList.length - this.head;
  }

  /** Text of the chunks from absolute index `abs` to the end (O(size of the result)). */
  textFrom(abs: number): string {
    const from = Math.max(abs, this.firstAbs) - this.firstAbs + this.head;
    return this.chunkList.slice(from).join('');
  }

  /** Absolute index of the first chunk needed to hold the last `maxChars` characters. */
  tailStart(maxChars: number): number {
    let chars = 0;
    let i = this.chunkList.length;
    while (i > this.head && chars < maxChars) {
      i--;
      chars += this.chunkList[i].length;
    }
    return this.firstAbs + i - this.head;
  }

  /** The whole text held (O(n): for snapshots, not per append). */
  get text(): string {
    return this.textFrom(this.firstAbs);
  }

  private appendDecoded(decoded: string): string {
    const shown = this.sanitizer.push(decoded);
    if (!shown) return '';
    this.chunkList.push(shown);
    this.chars += shown.length;
    if (this.chars > this.maxChars) this.trim();
    return shown;
  }

  private clear(): void {
    this.chunkList = [];
    this.head = 0;
    this.firstAbs = 0;
    this.chars = 0;
    this.lastRaw = '';
    this.truncated = false;
    this.decoder = new TextDecoder('utf-8');
    this.sanitizer.reset();
    this.rev++;
  }

  private trim(): void {
    this.truncated = true;
    while (this.chars > this.maxChars && this.chunkList.length - this.head > 1) {
      this.chars -= this.chunkList[this.head].length;
      this.head++;
      this.firstAbs++;
    }
    if (this.chars > this.maxChars) {
      // One chunk alone is over the cap: keep its end (a replace, as earlier text changed).
      const last = this.chunkList[this.chunkList.length - 1];
      let from = last.length - this.maxChars;
      if (isLowSurrogate(last.charCodeAt(from))) from++; // never keep half a character
      const kept = last.slice(from);
      this.chunkList = [kept];
      this.head = 0;
      this.chars = kept.length;
      this.firstAbs = 0;
      this.rev++;
      return;
    }
    // Compact the dropped prefix once it is at least half the array: amortized O(1) per chunk.
    if (this.head > 1024 && this.head * 2 > this.chunkList.length) {
      this.chunkList = this.chunkList.slice(this.head);
      this.head = 0;
    }
  }
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function decodeBase64(data: string): Uint8Array {
  return Buffer.from(data, 'base64');
}
