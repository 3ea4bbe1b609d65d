// The benchmark's agent: a child process that answers `initialize` (ACP v2) on its stdout, then
// writes the pre-generated stream to its stdout as fast as the pipe takes it, and exits.
// The stream is read into memory before the handshake and written with blocking writes, so the
// producer is never what a consumer waits for. Everything else read on stdin is ignored.
//
//   node producer.mjs <stream.ndjson>
import { readFileSync, writeSync } from 'node:fs';
import { INITIALIZE_RESULT } from './generate.mjs';

const data = readFileSync(process.argv[2]);
const CHUNK = 1 << 16;
let buffered = '';
let started = false;
let eagain = 0;

function writeAll(buf) {
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(1, buf, off, Math.min(CHUNK, buf.length - off));
    } catch (err) {
      if (err.code === 'EAGAIN') {
        eagain++;
        continue;
      } // a non-blocking pipe is full: try again
      if (err.code === 'EPIPE') process.exit(0); // the consumer went away
      throw err;
    }
  }
}

process.stdin.on('data', (chunk) => {
  if (started) return;
  buffered += chunk.toString('utf8');
  let nl;
  while (!started && (nl = buffered.indexOf('\n')) !== -1) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      continue;
    }
    if (msg && msg.method === 'initialize' && msg.id !== undefined) {
      started = true;
      writeAll(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: INITIALIZE_RESULT }) + '\n'));
      writeAll(data);
      if (process.env.BENCH_PRODUCER_DEBUG) process.stderr.write(`EAGAIN ${eagain}\n`);
      process.exit(0);
    }
  }
});
process.stdin.on('error', () => {
  /* consumer went away */
});
