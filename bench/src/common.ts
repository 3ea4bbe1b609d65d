// Shared by the benchmark's consumer processes: spawning the producer, reporting one JSON line.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface ConsumerArgs {
  producer: string;
  stream: string;
  expected: string;
  count: number;
}

/** argv: <producer.mjs> <stream.ndjson> <expected.json> <count> */
export function args(): ConsumerArgs {
  const [producer, stream, expected, count] = process.argv.slice(2);
  return { producer, stream, expected, count: Number(count) };
}

/** The agent: a child process writing the stream into a real pipe (its stdout). */
export function spawnProducer(a: ConsumerArgs): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [a.producer, a.stream], { stdio: ['pipe', 'pipe', 'pipe'] });
}

export function now(): number {
  return performance.now();
}

/** CPU time of this process (user + system), µs: robust to a busy machine, unlike the wall clock. */
export function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** Heap after a full collection (needs --expose-gc). */
export function heapAfterGc(): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Peak resident set of this process, bytes. */
export function maxRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

export function report(result: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

export function fail(consumer: string, err: unknown): never {
  report({ consumer, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
}
