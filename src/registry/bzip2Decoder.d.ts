// Types for the two parts of unbzip2-stream the bzip2 worker drives directly (src/registry/bunzipWorker.ts):
// its block decoder and its bit reader. The decoder's methods keep tables on the module object, so
// they are called as methods of it.
declare module 'unbzip2-stream/lib/bit_iterator' {
  /** Reads `n` bits (null: skips to the next byte boundary); `bytesRead` counts the bytes begun. */
  type BitReader = ((n: number | null) => number) & { bytesRead: number };
  function bitIterator(nextBuffer: () => Uint8Array): BitReader;
  export = bitIterator;
}

declare module 'unbzip2-stream/lib/bzip2' {
  type BitReader = ((n: number | null) => number) & { bytesRead: number };
  const bzip2: {
    /** Reads a stream header ("BZh1".."BZh9"); returns the block size in units of 100 000 bytes. */
    header(bits: BitReader): number;
    /** Decodes one block, handing each byte to `out`; returns the running stream CRC, or null at the stream's end. */
    decompress(bits: BitReader, out: (byte: number) => void, buf: Int32Array, bufsize: number, streamCRC: number): number | null;
  };
  export = bzip2;
}
