// Streaming sanitizer for terminal output: removes ANSI/VT escape sequences (CSI, OSC, DCS, SOS,
// PM, APC, two-character ESC sequences) and control characters, even when a sequence is split
// across chunks. Kept: printable text, `\n` and `\t`. A CR ends the line (`\r\n` and a lone `\r`
// both become one `\n`), so output stays append-only. The result is plain text for `textContent`.
//
// Kept hand-written rather than @xterm/headless, which would also render progress bars and cursor
// moves as a terminal does: it is 183 KB minified (dist/extension.js is ~400 KiB, its whole
// budget), keeps a cell grid per terminal (up to 500 per session), needs fixed columns and rows,
// and parses writes asynchronously, while the transcript applies each chunk synchronously and
// appends text to the view. This sanitizer is 2 KB and O(chunk) per chunk.

const enum S {
  Ground,
  Esc,
  EscInter,
  Csi,
  Osc,
  OscEsc,
  Str,
  StrEsc,
}

/** Longest OSC/DCS payload swallowed before giving up (a missing terminator must not hide output forever). */
const MAX_STRING_SEQUENCE = 8192;

export class AnsiSanitizer {
  private state = S.Ground;
  private afterCr = false;
  private seqLen = 0;

  /** Sanitizes the next piece of decoded text; returns what should be shown. */
  push(input: string): string {
    const out: string[] = [];
    let runStart = -1;
    const flush = (end: number): void => {
      if (runStart >= 0) {
        out.push(input.slice(runStart, end));
        runStart = -1;
      }
    };
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i);
      if (this.state === S.Ground) {
        if (isPrintable(c)) {
          this.afterCr = false;
          if (runStart < 0) runStart = i;
          continue;
        }
        flush(i);
        this.ground(c, out);
        continue;
      }
      this.inSequence(c, out);
    }
    flush(input.length);
    return out.join('');
  }

  /** Forgets any half-read sequence (used when a terminal's buffer is replaced). */
  reset(): void {
    this.state = S.Ground;
    this.afterCr = false;
    this.seqLen = 0;
  }

  private ground(c: number, out: string[]): void {
    const afterCr = this.afterCr;
    this.afterCr = false;
    if (c === 0x0a) {
      if (!afterCr) out.push('\n');
      return;
    }
    if (c === 0x0d) {
      out.push('\n');
      this.afterCr = true;
      return;
    }
    if (c === 0x09) {
      out.push('\t');
      return;
    }
    if (c === 0x1b) {
      this.enter(S.Esc);
      return;
    }
    // Every other C0, DEL and C1 control is dropped.
  }

  private enter(s: S): void {
    this.state = s;
    this.seqLen = 0;
  }

  private inSequence(c: number, out: string[]): void {
    this.seqLen++;
    switch (this.state) {
      case S.Esc:
        if (c === 0x5b)
          this.enter(S.Csi); // [
        else if (c === 0x5d)
          this.enter(S.Osc); // ]
        else if (c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f)
          this.enter(S.Str); // P X ^ _
        else if (c >= 0x20 && c <= 0x2f) this.state = S.EscInter;
        else if (c === 0x1b) this.enter(S.Esc);
        else this.state = S.Ground; // final byte of a two-character sequence (or garbage): dropped
        return;
      case S.EscInter:
        if (c >= 0x20 && c <= 0x2f) return;
        this.state = S.Ground;
        return;
      case S.Csi:
        if (c >= 0x40 && c <= 0x7e) {
          this.state = S.Ground;
          return;
        }
        if (c === 0x1b) {
          this.enter(S.Esc);
          return;
        }
        // Parameters and intermediates (0x20–0x3f) continue the sequence; C0 controls inside
        // it are dropped; anything else (or an absurdly long sequence) aborts it.
        if (c > 0x7e || this.seqLen > 64) {
          this.state = S.Ground;
          this.groundChar(c, out);
        }
        return;
      case S.Osc:
      case S.Str:
        if (c === 0x07) {
          this.state = S.Ground;
          return;
        }
        if (c === 0x1b) {
          this.state = this.state === S.Osc ? S.OscEsc : S.StrEsc;
          return;
        }
        if (this.seqLen > MAX_STRING_SEQUENCE) this.state = S.Ground;
        return;
      case S.OscEsc:
      case S.StrEsc:
        if (c === 0x5c) {
          this.state = S.Ground;
          return;
        } // ESC \ (ST)
        this.enter(S.Esc);
        this.inSequence(c, out);
        return;
      default:
        this.state = S.Ground;
    }
  }

  /** A character that aborted a sequence is handled as ordinary input. */
  private groundChar(c: number, out: string[]): void {
    if (isPrintable(c)) {
      this.afterCr = false;
      out.push(String.fromCharCode(c));
      return;
    }
    this.ground(c, out);
  }
}

function isPrintable(c: number): boolean {
  return (c >= 0x20 && c < 0x7f) || c > 0x9f;
}

/** One-shot helper: sanitizes a complete string. */
export function sanitizeTerminalText(text: string): string {
  return new AnsiSanitizer().push(text);
}
