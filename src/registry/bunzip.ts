// Unpacks a .bz2 file as a Readable, off the extension host's thread: a worker thread
// (bunzipWorker.ts, built to dist/registry-bunzip-worker.js beside dist/registry.js) decodes it and
// hands over chunks of at most 1 MiB, one at a time, as this stream is read (back-pressure through
// the shared gate of bunzipProtocol.ts). Bytes produced are counted here too: past `maxBytes` the
// stream fails with `tooLarge()` and the worker is stopped. The worker's heap is capped
// (resourceLimits). `exited` settles once the worker thread is gone. No `vscode`.
import * as path from 'path';
import { Readable } from 'stream';
import { Worker } from 'worker_threads';
import { GATE_GO, GATE_STOP, type BunzipJob, type BunzipMessage } from './bunzipProtocol';

/** Where the worker is at run time: beside the registry bundle (dist/registry.js). */
export const DEFAULT_BUNZIP_WORKER = path.join(__dirname, 'registry-bunzip-worker.js');

export interface BunzipOptions {
  maxBytes: number;
  tooLarge: () => Error;
  /** The built worker file (tests point at dist/registry-bunzip-worker.js). */
  workerFile?: string;
}

/** How long a worker asked to stop may take before it is terminated. */
const STOP_GRACE_MS = 1000;

export class BunzipStream extends Readable {
  /** Settles when the worker thread has exited. */
  readonly exited: Promise<void>;
  private readonly worker: Worker;
  private readonly gate: Int32Array;
  private produced = 0;
  private held = false;
  private ended = false;

  constructor(
    file: string,
    private readonly opts: BunzipOptions,
  ) {
    super({ highWaterMark: 1024 * 1024 });
    const shared = new SharedArrayBuffer(4);
    this.gate = new Int32Array(shared);
    const job: BunzipJob = { file, maxBytes: opts.maxBytes, gate: shared };
    this.worker = new Worker(opts.workerFile ?? DEFAULT_BUNZIP_WORKER, {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
    });
    this.worker.on('message', (m: BunzipMessage) => this.onMessage(m));
    this.worker.on('error', (err: Error) => this.destroy(new Error(`the bzip2 decoder failed (${err.message})`)));
    this.exited = new Promise<void>((resolve) => {
      this.worker.once('exit', (code) => {
        if (!this.ended && !this.destroyed) this.destroy(new Error(`the bzip2 decoder stopped (exit code ${code})`));
        resolve();
      });
    });
  }

  private onMessage(m: BunzipMessage): void {
    if (this.destroyed) return;
    switch (m.kind) {
      case 'data': {
        this.produced += m.chunk.length;
        if (this.produced > this.opts.maxBytes) {
          this.destroy(this.opts.tooLarge());
          return;
        }
        if (this.push(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.length))) this.signal(GATE_GO);
        else this.held = true;
        return;
      }
      case 'end':
        this.ended = true;
        this.push(null);
        return;
      case 'over':
        this.destroy(this.opts.tooLarge());
        return;
      case 'stopped':
        return;
      case 'error':
        this.destroy(new Error(m.message));
        return;
    }
  }

  override _read(): void {
    if (!this.held) return;
    this.held = false;
    this.signal(GATE_GO);
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.ended) {
      // Asked first (it exits at its next chunk, closing what it opened); terminated if it does not.
      this.signal(GATE_STOP);
      const timer = setTimeout(() => void this.worker.terminate(), STOP_GRACE_MS);
      void this.exited.then(() => clearTimeout(timer));
    }
    callback(err);
  }

  private signal(value: number): void {
    Atomics.store(this.gate, 0, value);
    Atomics.notify(this.gate, 0);
  }
}
