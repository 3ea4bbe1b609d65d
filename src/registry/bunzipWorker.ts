// The bzip2 worker: decodes one .bz2 file on a thread of its own (node:worker_threads), so the
// extension host's thread never runs the decoder (one bzip2 block can unpack to ~46 MB in one
// synchronous call). It drives unbzip2-stream's block decoder byte by byte into a 1 MiB buffer,
// posts each full buffer to the host and waits on the shared gate before going on (see
// bunzipProtocol.ts); it stops once it has produced more than the job's maxBytes. It reads the file
// 64 KiB at a time (opened and closed for each read, so stopping it never leaves a file open) and
// handles concatenated streams. Built to dist/registry-bunzip-worker.js (esbuild.mjs). No `vscode`.
import * as fs from 'fs';
import { parentPort, workerData } from 'worker_threads';
import bitIterator from 'unbzip2-stream/lib/bit_iterator';
import bzip2 from 'unbzip2-stream/lib/bzip2';
import { CHUNK_BYTES, GATE_STOP, GATE_WAIT, type BunzipJob, type BunzipMessage } from './bunzipProtocol';

class Stopped extends Error {}
class Over extends Error {}
class EndsEarly extends Error {}

const READ_BYTES = 64 * 1024;

function decode(job: BunzipJob, post: (m: BunzipMessage, transfer?: ArrayBuffer[]) => void): void {
  const gate = new Int32Array(job.gate);
  const size = fs.statSync(job.file).size;
  const input = Buffer.alloc(READ_BYTES);
  let position = 0;
  const bits = bitIterator(() => {
    const fd = fs.openSync(job.file, 'r');
    let n: number;
    try {
      n = fs.readSync(fd, input, 0, READ_BYTES, position);
    } finally {
      fs.closeSync(fd);
    }
    if (n === 0) throw new EndsEarly();
    position += n;
    return input.subarray(0, n);
  });

  let out = new Uint8Array(CHUNK_BYTES);
  let used = 0;
  let produced = 0;
  const flush = (): void => {
    if (used === 0) return;
    produced += used;
    if (produced > job.maxBytes) throw new Over();
    const chunk = used === CHUNK_BYTES ? out : out.slice(0, used);
    post({ kind: 'data', chunk }, [chunk.buffer as ArrayBuffer]);
    out = new Uint8Array(CHUNK_BYTES);
    used = 0;
    Atomics.wait(gate, 0, GATE_WAIT);
    if (Atomics.exchange(gate, 0, GATE_WAIT) === GATE_STOP) throw new Stopped();
  };
  const put = (byte: number): void => {
    out[used++] = byte;
    if (used === CHUNK_BYTES) flush();
  };

  // One or more bzip2 streams, back to back, to the end of the file.
  do {
    const bufsize = 100_000 * bzip2.header(bits);
    const buf = new Int32Array(bufsize);
    for (let crc: number | null = 0; crc !== null;) crc = bzip2.decompress(bits, put, buf, bufsize, crc);
  } while (bits.bytesRead < size);
  flush();
}

function run(): void {
  const port = parentPort;
  if (!port) return;
  const post = (m: BunzipMessage, transfer?: ArrayBuffer[]): void => port.postMessage(m, transfer);
  try {
    decode(workerData as BunzipJob, post);
    post({ kind: 'end' });
  } catch (err) {
    if (err instanceof Stopped) post({ kind: 'stopped' });
    else if (err instanceof Over) post({ kind: 'over' });
    else if (err instanceof EndsEarly) post({ kind: 'error', message: 'its bzip2 data ends early' });
    else if (err instanceof Error && err.name === 'Bzip2Error') post({ kind: 'error', message: 'its bzip2 data is damaged' });
    else post({ kind: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}

run();
