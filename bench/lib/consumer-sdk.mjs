// Consumer (b): the official SDK (@agentclientprotocol/sdk 2.4.0, `experimental/v2/unstable`
// client) with a counting `session/update` handler, over the SDK's own ndJsonStream.
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk/experimental/v2/unstable';

const [producer, stream, , countArg] = process.argv.slice(2);
const expected = Number(countArg);
const child = spawn(process.execPath, [producer, stream], { stdio: ['pipe', 'pipe', 'pipe'] });

let count = 0;
let t1 = 0;
let c0 = 0;
let c1 = 0;
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
let onAll;
const all = new Promise((resolve) => {
  onAll = resolve;
});
const app = acp.client({ name: 'acp-plans-bench' }).onNotification(acp.methods.client.session.update, () => {
  if (++count === expected) {
    t1 = performance.now();
    c1 = cpu();
    onAll();
  }
});

const closed = new Promise((resolve) => child.on('exit', () => setTimeout(resolve, 2000)));
let t0 = 0;
try {
  await app.connectWith(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)), async (agent) => {
    await agent.request(acp.methods.agent.initialize, { protocolVersion: 2, info: { name: 'acp-plans-bench', version: '0.0.0' }, capabilities: {} });
    t0 = performance.now();
    c0 = cpu();
    await Promise.race([all, closed]);
  });
} catch (err) {
  if (count !== expected) {
    process.stdout.write(JSON.stringify({ consumer: 'sdk', error: String(err?.stack ?? err), updates: count }) + '\n');
    process.exit(1);
  }
}
const seconds = (t1 - t0) / 1000;
process.stdout.write(
  JSON.stringify({
    consumer: 'sdk',
    updates: count,
    seconds,
    updatesPerSec: count / seconds,
    cpuUsPerUpdate: (c1 - c0) / count,
    maxRss: process.resourceUsage().maxRSS * 1024,
    ok: count === expected,
    problems: count === expected ? [] : [`${count} updates`],
  }) + '\n',
);
child.kill();
process.exit(0);
