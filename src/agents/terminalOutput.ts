// The output a client terminal keeps for its agent (`terminal/output`): at most `limit` bytes,
// the oldest dropped first. Appending costs O(size of the chunk) (amortized: every byte is
// dropped at most once); only reading the whole text (`text()`) is O(size kept).
//
// Truncation follows the ACP schema for `outputByteLimit`: from the beginning, at a character
// boundary (the kept bytes never start inside a UTF-8 sequence, so they may be up to 3 bytes
// fewer than the limit).

/** Longest UTF-8 sequence minus its lead byte: the most continuation bytes skipped at a cut. */
const MAX_CONTINUATION = 3;

export class TerminalOutput {
  private chunks: Buffer[] = [];
  /** Index of the first live chunk (dropped chunks are compacted lazily). */
  private head = 0;
  /** Bytes of `chunks[head]` already dropped. */
  private headOffset = 0;
  private kept = 0;
  private cut = false;

  constructor(readonly limit: number) {}

  /** Bytes held. */
  get bytes(): number {
    return this.kept;
  }
  /** True once any output was dropped to respect the limit. */
  get truncated(): boolean {
    return this.cut;
  }

  append(b: Buffer): void {
    if (b.length === 0) return;
    if (b.length > this.limit) {
      // Only the chunk's end can be kept: everything held before it goes.
      this.reset([b.subarray(b.length - this.limit)]);
    } else {
      this.chunks.push(b);
      this.kept += b.length;
      if (this.kept <= this.limit) return;
      this.drop(this.kept - this.limit);
    }
    this.cut = true;
    this.alignStart();
  }

  /** The text held, for `terminal/output`. A character still incomplete at the end is left out. */
  text(complete = false): string {
    const all = Buffer.concat(this.live(), this.kept);
    return all.subarray(0, complete ? all.length : all.length - incompleteTail(all)).toString('utf8');
  }

  private live(): Buffer[] {
    const out = this.chunks.slice(this.head);
    if (out.length > 0 && this.headOffset > 0) out[0] = out[0]!.subarray(this.headOffset);
    return out;
  }

  private reset(chunks: Buffer[]): void {
    this.chunks = chunks;
    this.head = 0;
    this.headOffset = 0;
    this.kept = chunks.reduce((n, c) => n + c.length, 0);
  }

  /** Drops `n` bytes from the beginning. */
  private drop(n: number): void {
    while (n > 0 && this.head < this.chunks.length) {
      const first = this.chunks[this.head]!;
      const left = first.length - this.headOffset;
      if (left <= n) {
        n -= left;
        this.kept -= left;
        this.head++;
        this.headOffset = 0;
      } else {
        this.headOffset += n;
        this.kept -= n;
        n = 0;
      }
    }
    // Compact once the dropped prefix is at least half the array: amortized O(1) per chunk.
    if (this.head > 64 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  /** After a cut, never start inside a character: skip up to 3 continuation bytes. */
  private alignStart(): void {
    for (let i = 0; i < MAX_CONTINUATION && this.kept > 0; i++) {
      const first = this.chunks[this.head]!;
      if ((first[this.headOffset]! & 0xc0) !== 0x80) return;
      this.drop(1);
    }
  }
}

/** Bytes at the end of `b` that begin a UTF-8 character not yet complete (0 to 3). */
export function incompleteTail(b: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, b.length); back++) {
    const byte = b[b.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation: look further back
    const need = byte >= 0xf8 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}
