// The byte channel a connection runs over, whatever carries it: a child's stdio, a socket, an
// in-memory pair in tests. The connection (rpcConnection.ts) reads NDJSON from `readable` through
// our reader (line-size and depth limits; it pauses `readable` for back-pressure) and writes NDJSON
// to `writable` through our writer, so every transport gets the same framing and limits.
//
// Ends: the connection closes when `readable` ends (or errors); disposing the connection ends
// `writable`. A transport reports how it ended elsewhere (the agent endpoint, src/agents).
import { PassThrough } from 'node:stream';

export interface MessageStream {
  /** Bytes from the agent (NDJSON). Must support pause()/resume(). */
  readonly readable: NodeJS.ReadableStream;
  /** Bytes to the agent (NDJSON). */
  readonly writable: NodeJS.WritableStream;
}

/** Two connected ends: what the client writes, the agent reads, and the other way round. */
export interface MemoryStreamPair {
  /** The end a connection (connect(), RpcConnection) runs over. */
  readonly client: MessageStream;
  /** The agent's end: read the client's lines from `readable`, write the agent's to `writable`. */
  readonly agent: MessageStream;
}

/**
 * An in-memory MessageStream pair built on PassThrough streams (for tests and in-process agents).
 * Ending one side's `writable` ends the other side's `readable`.
 */
export function memoryStreamPair(): MemoryStreamPair {
  const toAgent = new PassThrough();
  const toClient = new PassThrough();
  return {
    client: { readable: toClient, writable: toAgent },
    agent: { readable: toAgent, writable: toClient },
  };
}
