// Helpers of the recording tests: the interop recordings (test/fixtures/recordings) as bytes,
// a hand-driven scheduler (no timers), and a whole-file decode into plain stores.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ReplayDecoder, type ReplayOutput } from '../../../src/recording/decoder';
import { indexRecording, readMessage } from '../../../src/recording/format';
import type { ReplayScheduler } from '../../../src/recording/player';

export function fixture(name: string): Buffer {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'test', 'fixtures', 'recordings');
    try {
      if (statSync(candidate).isDirectory()) return readFileSync(path.join(candidate, name));
    } catch {
      /* up */
    }
    dir = path.dirname(dir);
  }
  return readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'recordings', name));
}

/** Decodes every line of a recording; the decoder and every output, in order. */
export function decodeAll(bytes: Buffer): { decoder: ReplayDecoder; outputs: ReplayOutput[] } {
  const index = indexRecording(bytes);
  const decoder = new ReplayDecoder(index.header?.protocolVersion === 2 ? 2 : 1);
  const outputs: ReplayOutput[] = [];
  for (const ref of index.messages) outputs.push(...decoder.decode(readMessage(bytes, ref)));
  return { decoder, outputs };
}

/** A scheduler the test advances by hand: `run()` fires the pending callback. */
export class ManualScheduler {
  pending: { fn: () => void; ms: number } | undefined;
  readonly delays: number[] = [];
  readonly schedule: ReplayScheduler = (fn, ms) => {
    const entry = { fn, ms };
    this.pending = entry;
    this.delays.push(ms);
    return {
      dispose: () => {
        if (this.pending === entry) this.pending = undefined;
      },
    };
  };

  /** Fires the pending callback; false when nothing is pending. */
  run(): boolean {
    const p = this.pending;
    if (!p) return false;
    this.pending = undefined;
    p.fn();
    return true;
  }

  /** Fires callbacks until none is pending (at most `max`). */
  drain(max = 10_000): number {
    let n = 0;
    while (n < max && this.run()) n++;
    return n;
  }
}
