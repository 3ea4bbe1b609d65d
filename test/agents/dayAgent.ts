// The day-long benchmark's agent (test/integration/dayLong.bench.ts): speaks ACP v2 over stdio and,
// for a prompt "<count>", streams `count` session updates as a long working day would: 60% agent
// message chunks, 20% tool-call updates (some with large outputs), 5% plan updates of three plans
// of 10–50 entries, the rest thoughts and usage. It writes as fast as the pipe takes it (it waits
// for `drain`), then ends the turn. Progress: after every 100,000 updates it sends a usage update
// whose `used` is the count sent so far, so the host can measure at fixed points.
import { once } from 'node:events';
import * as readline from 'node:readline';

type Json = Record<string, unknown>;
const SESSION = 'day-1';
let buffered = '';

async function send(msg: Json): Promise<void> {
  buffered += `${JSON.stringify(msg)}\n`;
  if (buffered.length < 64 * 1024) return;
  const chunk = buffered;
  buffered = '';
  if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
}
async function flush(): Promise<void> {
  const chunk = buffered;
  buffered = '';
  if (chunk && !process.stdout.write(chunk)) await once(process.stdout, 'drain');
}
const update = (u: Json): Promise<void> => send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: SESSION, update: u } });

const WORDS = ['plan', 'the', 'tests', 'refactor', 'module', 'read', 'write', 'parse', 'check', 'build', 'agent', 'client'];
const text = (k: number, n: number): string => Array.from({ length: n }, (_, i) => WORDS[(k * 7 + i * 3) % WORDS.length]).join(' ');

function plan(k: number): Json {
  const p = k % 3;
  const size = 10 + ((k * 13) % 41);
  const done = Math.floor((k / 97) % size);
  return {
    sessionUpdate: 'plan_update',
    plan: {
      type: 'items',
      planId: `day-plan-${p}`,
      entries: Array.from({ length: size }, (_, i) => ({
        content: `Step ${i + 1} of plan ${p}: ${text(i, 6)}`,
        priority: i < 3 ? 'high' : 'medium',
        status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
      })),
    },
  };
}

async function turn(count: number): Promise<void> {
  await update({ sessionUpdate: 'state_update', state: 'running' });
  for (let k = 0; k < count; k++) {
    const r = k % 100;
    if (r < 60) {
      await update({ sessionUpdate: 'agent_message_chunk', messageId: `m${Math.floor(k / 300)}`, content: { type: 'text', text: `${text(k, 8)} ` } });
    } else if (r < 80) {
      const id = `t${Math.floor(k / 100)}-${r % 4}`;
      const big = r === 79;
      await update({
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        title: `Run ${text(k, 3)}`,
        kind: 'execute',
        status: r >= 76 ? 'completed' : 'in_progress',
        ...(r >= 76 ? { content: [{ type: 'content', content: { type: 'text', text: big ? text(k, 2000) : text(k, 40) } }] } : {}),
      });
    } else if (r < 85) {
      await update(plan(k));
    } else if (r < 95) {
      await update({ sessionUpdate: 'agent_thought_chunk', messageId: `th${Math.floor(k / 500)}`, content: { type: 'text', text: `${text(k, 5)} ` } });
    } else {
      await update({ sessionUpdate: 'usage_update', used: 1000 + (k % 5000), size: 200_000 });
    }
    if ((k + 1) % 100_000 === 0) {
      await update({ sessionUpdate: 'usage_update', used: k + 1, size: count });
      await flush();
    }
  }
  await update({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
  await flush();
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let m: Json;
  try {
    m = JSON.parse(line) as Json;
  } catch {
    return;
  }
  const reply = (result: Json): void => void send({ jsonrpc: '2.0', id: m.id, result }).then(flush);
  const params = (m.params ?? {}) as Json;
  switch (m.method) {
    case 'initialize':
      reply({ protocolVersion: 2, info: { name: 'Day Agent', version: '1.0.0' }, capabilities: { session: {} }, authMethods: [] });
      break;
    case 'session/new':
      reply({ sessionId: SESSION });
      break;
    case 'session/prompt': {
      reply({});
      const first = (params.prompt as { text?: string }[] | undefined)?.[0]?.text ?? '';
      void turn(Math.max(1, Math.min(2_000_000, Number.parseInt(first, 10) || 1000)));
      break;
    }
    default:
      if (m.id !== undefined) void send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: ${String(m.method)}` } }).then(flush);
  }
});
rl.on('close', () => process.exit(0));
