// Consumer (d): vscode-jsonrpc with our NDJSON reader and writer, no validation, no stores: a
// counting `session/update` handler. The floor our pipeline is built on.
import { createMessageConnection } from 'vscode-jsonrpc/node';
import { END_OF_STREAM_METHOD, NdjsonMessageReader } from '../../../src/protocol/transport/ndjsonReader';
import { NdjsonMessageWriter } from '../../../src/protocol/transport/ndjsonWriter';
import { args, cpuUs, fail, maxRss, now, report, spawnProducer } from '../common';

const CONSUMER = 'jsonrpc';

async function main(): Promise<void> {
  const a = args();
  const child = spawnProducer(a);
  const reader = new NdjsonMessageReader(child.stdout);
  const writer = new NdjsonMessageWriter(child.stdin);
  const conn = createMessageConnection(reader, writer);
  let count = 0;
  let t1 = 0;
  let c1 = 0;
  let onAll!: () => void;
  const all = new Promise<void>((resolve) => {
    onAll = resolve;
  });
  conn.onNotification('session/update', () => {
    if (++count === a.count) {
      t1 = now();
      c1 = cpuUs();
      onAll();
    }
  });
  conn.listen();
  await conn.sendRequest('initialize', { protocolVersion: 2, info: { name: 'acp-plans-bench', version: '0.0.0' }, capabilities: {} });
  const t0 = now();
  const c0 = cpuUs();
  // The reader marks the end of the stream after the last message (the library's own close
  // event would come before the queued messages are dispatched).
  const closed = new Promise<void>((resolve) => {
    conn.onNotification(END_OF_STREAM_METHOD, () => resolve());
  });
  await Promise.race([all, closed]);
  const seconds = (t1 - t0) / 1000;
  report({
    consumer: CONSUMER,
    updates: count,
    seconds,
    updatesPerSec: count / seconds,
    cpuUsPerUpdate: (c1 - c0) / count,
    maxRss: maxRss(),
    ok: count === a.count,
    problems: count === a.count ? [] : [`${count} updates`],
  });
  conn.dispose();
  child.kill();
  process.exit(0);
}

main().catch((err: unknown) => fail(CONSUMER, err));
