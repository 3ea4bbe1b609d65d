// Splits a byte stream into lines on 0x0A. Splitting bytes (not decoded text) means a chunk may
// end in the middle of a UTF-8 character, and a U+2028 inside a JSON string (bytes E2 80 A8) is
// never taken for a line break. Chunks are kept as a list and concatenated once per line.

export interface LineSplitterSink {
  /** A complete line without its `\n` (a trailing `\r` is left for the caller). */
  line(bytes: Buffer): void;
  /** A line longer than the cap was discarded; `bytes` is its length without the `\n`. */
  oversize(bytes: number): void;
}

const NEWLINE = 0x0a;

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  /** Inside an over-cap line: count its bytes, keep none, until the next newline. */
  private discarding = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly sink: LineSplitterSink,
  ) {}

  /** Bytes held for the line in progress (0 while discarding an over-cap line). */
  get retainedBytes(): number {
    let n = 0;
    for (const p of this.parts) n += p.length;
    return n;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.append(chunk, start);
        return;
      }
      this.finishLine(chunk, start, nl);
      start = nl + 1;
    }
  }

  /** End of stream: a last line without a newline is still delivered. */
  end(): void {
    if (this.discarding) {
      this.sink.oversize(this.size);
    } else if (this.size > 0) {
      const line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
      this.sink.line(line);
    }
    this.reset();
  }

  private append(chunk: Buffer, start: number): void {
    const n = chunk.length - start;
    if (n === 0) return;
    this.size += n;
    if (this.discarding) return;
    if (this.size > this.maxLineBytes) {
      this.discarding = true;
      this.parts.length = 0;
      return;
    }
    this.parts.push(start === 0 ? chunk : chunk.subarray(start));
  }

  private finishLine(chunk: Buffer, start: number, end: number): void {
    const total = this.size + (end - start);
    if (this.discarding || total > this.maxLineBytes) {
      this.reset();
      this.sink.oversize(total);
      return;
    }
    let line: Buffer;
    if (this.parts.length === 0) {
      line = chunk.subarray(start, end);
    } else {
      this.parts.push(chunk.subarray(start, end));
      line = Buffer.concat(this.parts, total);
    }
    this.reset();
    this.sink.line(line);
  }

  private reset(): void {
    if (this.parts.length !== 0) this.parts.length = 0;
    this.size = 0;
    this.discarding = false;
  }
}
