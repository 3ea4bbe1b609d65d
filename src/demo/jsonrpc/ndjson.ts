// Newline-delimited JSON framing: one UTF-8 JSON message per line. Lines are split on the `\n`
// byte (a trailing `\r` is dropped) before decoding, so a multi-byte character split across two
// reads is never decoded in halves.

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class LineReader {
  private pending: Buffer[] = [];

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    let nl = chunk.indexOf(NEWLINE, start);
    while (nl !== -1) {
      this.pending.push(chunk.subarray(start, nl));
      this.flushLine();
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
  }

  /** Called at end of input: a last line without `\n` still counts. */
  end(): void {
    if (this.pending.length > 0) this.flushLine();
  }

  private flushLine(): void {
    let bytes = Buffer.concat(this.pending);
    this.pending = [];
    if (bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, bytes.length - 1);
    const line = bytes.toString('utf8');
    if (line.trim() !== '') this.onLine(line);
  }
}

/** Serializes one message as one line. JSON.stringify never emits a raw newline. */
export function frame(message: object): string {
  return `${JSON.stringify(message)}\n`;
}
