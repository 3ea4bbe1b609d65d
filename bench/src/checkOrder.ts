// Checks the transport's ordered dispatch (src/protocol/transport/orderedDispatch.ts) keeps the
// arrival order: random sequences of agent notifications, agent requests and responses to our
// requests, split into random chunks written in one go or over several turns, must reach their
// handlers (and a response the code awaiting it) exactly in the order they were written.
// A notification right after a response must see that response's continuation done.
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import * as fc from 'fast-check';
import { RpcConnection } from '../../src/protocol/transport/rpcConnection';
import { report } from './common';

type Step = { kind: 'notification' | 'request' | 'response'; split: number; yieldAfter: boolean };

async function runCase(steps: Step[]): Promise<void> {
  const agentOut = new PassThrough();
  const agentIn = new PassThrough();
  agentIn.resume();
  const rpc = new RpcConnection({ readable: agentOut, writable: agentIn });
  const seen: number[] = [];
  rpc.onNotification('n', (p) => seen.push((p as { seq: number }).seq));
  rpc.onRequest('r', (p) => {
    seen.push((p as { seq: number }).seq);
    return {};
  });
  rpc.listen();
  // Our requests, answered at their places in the sequence.
  const lines: string[] = [];
  let nextId = 0;
  const pending: Promise<void>[] = [];
  steps.forEach((s, seq) => {
    if (s.kind === 'notification') lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { seq } }));
    else if (s.kind === 'request') lines.push(JSON.stringify({ jsonrpc: '2.0', id: `a${seq}`, method: 'r', params: { seq } }));
    else {
      const id = nextId++;
      pending.push(
        rpc.sendRequest('q', {}).then(() => {
          seen.push(seq);
        }),
      );
      lines.push(JSON.stringify({ jsonrpc: '2.0', id, result: {} }));
    }
  });
  const done = new Promise<void>((resolve) => rpc.onClose(() => resolve()));
  for (let i = 0; i < steps.length; i++) {
    const bytes = Buffer.from(`${lines[i]}\n`);
    const cut = steps[i].split % (bytes.length + 1);
    agentOut.write(bytes.subarray(0, cut));
    agentOut.write(bytes.subarray(cut));
    if (steps[i].yieldAfter) await new Promise((r) => setImmediate(r));
  }
  agentOut.end();
  await done;
  await Promise.allSettled(pending);
  assert.deepEqual(
    seen,
    steps.map((_, i) => i),
  );
}

async function main(): Promise<void> {
  const step = fc.record({
    kind: fc.constantFrom('notification', 'notification', 'notification', 'request', 'response'),
    split: fc.nat(),
    yieldAfter: fc.boolean(),
  }) as fc.Arbitrary<Step>;
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
      cases++;
      await runCase(steps);
    }),
    { numRuns: 300 },
  );
  // A long burst behind a pending response: back-pressure pauses and resumes the stream.
  const burst: Step[] = [{ kind: 'response', split: 0, yieldAfter: false }];
  for (let i = 0; i < 5000; i++) burst.push({ kind: i % 500 === 0 ? 'response' : 'notification', split: 0, yieldAfter: false });
  await runCase(burst);
  report({ section: 'orderCheck', ok: true, cases: cases + 1 });
}

main().catch((err: unknown) => {
  report({ section: 'orderCheck', ok: false, error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
