// What the extension host and the bzip2 worker (src/registry/bunzipWorker.ts) say to each other.
// The host starts the worker with a BunzipJob; the worker posts what it decodes in chunks of at most
// CHUNK_BYTES and, after each, waits on `gate` (a shared Int32) until the host sets it to GO (send
// the next chunk) or STOP (stop and exit). So at most one chunk is ever in flight, the worker's
// memory stays bounded, and the worker itself stops past `maxBytes`. No `vscode`.

export const CHUNK_BYTES = 1024 * 1024;
/** Values of the gate: WAIT while the host holds the last chunk, GO for the next one, STOP to end. */
export const GATE_WAIT = 0;
export const GATE_GO = 1;
export const GATE_STOP = 2;

export interface BunzipJob {
  file: string;
  /** The worker stops (and says `over`) once it has produced more than this. */
  maxBytes: number;
  /** An Int32Array's buffer of one element: the gate. */
  gate: SharedArrayBuffer;
}

export type BunzipMessage = { kind: 'data'; chunk: Uint8Array } | { kind: 'end' } | { kind: 'over' } | { kind: 'stopped' } | { kind: 'error'; message: string };
