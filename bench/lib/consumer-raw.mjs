// Consumer (c): the ceiling. Raw byte split on 0x0A + JSON.parse of every line, counting
// `session/update` notifications; no JSON-RPC library, no validation, no stores.
import { spawn } from 'node:child_process';

const [producer, stream, , countArg] = process.argv.slice(2);
const expected = Number(countArg);
const child = spawn(process.execPath, [producer, stream], { stdio: ['pipe', 'pipe', 'pipe'] });

let count = 0;
let t0 = 0;
let t1 = 0;
let c0 = 0;
let c1 = 0;
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
let rest = null;
const onLine = (buf, start, end) => {
  if (end <= start) return;
  const msg = JSON.parse(buf.toString('utf8', start, end));
  if (msg.method === 'session/update') {
    if (++count === expected) {
      t1 = performance.now();
      c1 = cpu();
    }
  } else if (msg.id === 0 && msg.result) {
    t0 = performance.now();
    c0 = cpu();
  }
};
child.stdout.on('data', (chunk) => {
  let buf = chunk;
  let start = 0;
  if (rest) {
    const nl = chunk.indexOf(10);
    if (nl === -1) {
      rest = Buffer.concat([rest, chunk]);
      return;
    }
    const line = Buffer.concat([rest, chunk.subarray(0, nl)]);
    rest = null;
    onLine(line, 0, line.length);
    start = nl + 1;
  }
  for (;;) {
    const nl = buf.indexOf(10, start);
    if (nl === -1) break;
    onLine(buf, start, nl);
    start = nl + 1;
  }
  if (start < buf.length) rest = buf.subarray(start);
});
child.stdout.on('end', () => {
  const seconds = (t1 - t0) / 1000;
  process.stdout.write(
    JSON.stringify({
      consumer: 'raw',
      updates: count,
      seconds,
      updatesPerSec: count / seconds,
      cpuUsPerUpdate: (c1 - c0) / count,
      maxRss: process.resourceUsage().maxRSS * 1024,
      ok: count === expected,
      problems: count === expected ? [] : [`${count} updates`],
    }) + '\n',
  );
  process.exit(0);
});
child.stdin.write(
  JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: 2, info: { name: 'acp-plans-bench', version: '0.0.0' }, capabilities: {} },
  }) + '\n',
);
