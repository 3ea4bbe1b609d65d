// The benchmark's agent stream: a seeded, reproducible sequence of ACP v2 `session/update`
// notifications, one NDJSON line each, written to a file once per run and then replayed by the
// producer process (producer.mjs) to every consumer, so all consumers read the same bytes.
//
// Mix (by count): 60 % agent_message_chunk, 20 % tool_call_update, 15 % plan_update (items,
// 10–50 entries), 5 % other kinds (thought chunks, usage, state, session info, tool call content
// chunks, terminal output, notices, an unknown `_bench/custom` update).
//
// Alongside the stream it returns what a correct consumer must end up with: the last plan of
// every planId, the total agent text, the number of tool calls.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export const SESSION_ID = 'bench-session-1';

/** mulberry32: small, fast, seedable. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a plan step file test build read edit update function module error value check ' +
  'server client agent session tool call result output input request response stream buffer line ' +
  'parse render view tree node item entry status progress done pending write commit branch merge ' +
  'refactor extract rename move delete create config setting option type schema field method ' +
  'handler event emitter store cache index map list array string number object promise async await'
).split(' ');
const STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'];
const PRIORITIES = ['high', 'medium', 'low'];
const KINDS = ['read', 'edit', 'search', 'execute', 'think', 'fetch'];
export const PLAN_IDS = ['plan-0', 'plan-1', 'plan-2', 'plan-3', 'plan-4', 'plan-5', 'plan-6', 'plan-7'];

/**
 * The streams `npm run bench` measures. `default` is the stream of round 1 (its bytes unchanged);
 * `large` has larger plans (50–200 entries over 20 planIds), big tool outputs (one in three
 * progress or final tool call updates carries 2–32 KB of output), and mixes chunks and tool call
 * updates more evenly (50 % chunks, 25 % tool call updates, 20 % plans, 5 % other).
 */
export const PROFILES = {
  default: { chunk: 0.6, tool: 0.8, plan: 0.95, planIds: PLAN_IDS, planEntries: [10, 50], bigOutput: 0, bigWords: [0, 0] },
  large: {
    chunk: 0.5,
    tool: 0.75,
    plan: 0.95,
    planIds: Array.from({ length: 20 }, (_, i) => `plan-${i}`),
    planEntries: [50, 200],
    bigOutput: 1 / 3,
    bigWords: [300, 5000],
  },
};

/**
 * Writes `count` updates to `file`. Returns the expected end state and stream statistics.
 */
export async function generateStream(file, { count = 100_000, seed = 20251129, profile = 'default' } = {}) {
  const P = PROFILES[profile];
  const r = rng(seed);
  const int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = (a) => a[Math.floor(r() * a.length)];
  const words = (lo, hi) => {
    const n = int(lo, hi);
    let s = pick(WORDS);
    for (let i = 1; i < n; i++) s += ' ' + pick(WORDS);
    return s;
  };

  // Tool output: a few words, or (large profile) a big block of output lines.
  const toolText = () => {
    if (!P.bigOutput || r() >= P.bigOutput) return words(10, 60);
    const n = int(P.bigWords[0], P.bigWords[1]);
    const lines = [];
    for (let w = 0; w < n; w += 12) lines.push(`${w / 12 + 1}: ${words(6, 18)}`);
    return lines.join('\n');
  };
  const out = createWriteStream(file);
  let pending = [];
  let pendingBytes = 0;
  let bytes = 0;
  const write = async (msg) => {
    const line = JSON.stringify(msg) + '\n';
    pending.push(line);
    pendingBytes += line.length;
    bytes += Buffer.byteLength(line);
    if (pendingBytes > 1 << 20) {
      if (!out.write(pending.join(''))) await once(out, 'drain');
      pending = [];
      pendingBytes = 0;
    }
  };
  const update = (u) => write({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: SESSION_ID, update: u } });

  const kinds = {};
  const lastPlan = {};
  const planProgress = new Map();
  let agentText = 0;
  let thoughtText = 0;
  let messageSeq = 0;
  let chunksLeft = 0;
  let messageId = '';
  let toolSeq = 0;
  let tool = undefined; // { id, step, steps }
  const toolIds = new Set();
  let planEntriesTotal = 0;

  for (let i = 0; i < count; i++) {
    const x = r();
    let u;
    if (x < P.chunk) {
      if (chunksLeft === 0) {
        messageId = `msg-${++messageSeq}`;
        chunksLeft = int(20, 80);
      }
      chunksLeft--;
      const text = words(3, 40) + (r() < 0.1 ? '\n\n' : ' ');
      agentText += text.length;
      u = { sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text } };
    } else if (x < P.tool) {
      if (!tool || tool.step >= tool.steps) {
        tool = { id: `tc-${++toolSeq}`, step: 0, steps: int(2, 8) };
        toolIds.add(tool.id);
      }
      const path = `/work/project/src/${pick(WORDS)}/${pick(WORDS)}.ts`;
      if (tool.step === 0) {
        u = {
          sessionUpdate: 'tool_call_update',
          toolCallId: tool.id,
          title: `${pick(KINDS)} ${words(2, 6)}`,
          kind: pick(KINDS),
          status: 'pending',
          locations: [{ path, line: int(1, 900) }],
          rawInput: { path, query: words(2, 10) },
        };
      } else if (tool.step < tool.steps - 1) {
        u = {
          sessionUpdate: 'tool_call_update',
          toolCallId: tool.id,
          status: 'in_progress',
          content: [{ type: 'content', content: { type: 'text', text: toolText() } }],
        };
      } else {
        u = {
          sessionUpdate: 'tool_call_update',
          toolCallId: tool.id,
          status: r() < 0.9 ? 'completed' : 'failed',
          content: [{ type: 'content', content: { type: 'text', text: toolText() } }],
          rawOutput: { ok: true, lines: int(1, 500) },
        };
      }
      tool.step++;
    } else if (x < P.plan) {
      const planId = pick(P.planIds);
      let p = planProgress.get(planId);
      if (!p || p.done >= p.n) {
        p = { n: int(P.planEntries[0], P.planEntries[1]), done: 0, texts: [] };
        for (let k = 0; k < p.n; k++) p.texts.push(words(4, 12));
        planProgress.set(planId, p);
      }
      p.done += r() < 0.5 ? 1 : 0;
      const entries = p.texts.map((content, k) => ({
        content,
        priority: PRIORITIES[k % 3],
        status: k < p.done ? (r() < 0.97 ? 'completed' : 'cancelled') : k === p.done ? 'in_progress' : r() < 0.02 ? pick(STATUSES) : 'pending',
      }));
      planEntriesTotal += entries.length;
      lastPlan[planId] = entries;
      u = { sessionUpdate: 'plan_update', plan: { type: 'items', planId, entries } };
    } else {
      const y = r();
      if (y < 0.3) {
        const text = words(3, 30) + ' ';
        thoughtText += text.length;
        u = { sessionUpdate: 'agent_thought_chunk', messageId: `thought-${messageSeq}`, content: { type: 'text', text } };
      } else if (y < 0.5) {
        u = { sessionUpdate: 'usage_update', used: int(1000, 190000), size: 200000, cost: { amount: r() * 3, currency: 'USD' } };
      } else if (y < 0.6) {
        u = { sessionUpdate: 'state_update', state: 'running' };
      } else if (y < 0.7) {
        u = { sessionUpdate: 'session_info_update', title: words(2, 8), updatedAt: new Date(1764460800000 + i * 1000).toISOString() };
      } else if (y < 0.8) {
        const id = tool ? tool.id : 'tc-0';
        toolIds.add(id);
        u = { sessionUpdate: 'tool_call_content_chunk', toolCallId: id, content: { type: 'content', content: { type: 'text', text: words(5, 20) } } };
      } else if (y < 0.9) {
        u = { sessionUpdate: 'terminal_output_chunk', terminalId: `term-${(toolSeq % 5) + 1}`, data: Buffer.from(words(5, 20) + '\n').toString('base64') };
      } else if (y < 0.95) {
        u = { sessionUpdate: 'notice', severity: 'info', title: words(2, 6) };
      } else {
        u = { sessionUpdate: '_bench/custom', value: int(0, 1000), note: words(2, 6) };
      }
    }
    kinds[u.sessionUpdate] = (kinds[u.sessionUpdate] ?? 0) + 1;
    await update(u);
  }
  if (pending.length) out.write(pending.join(''));
  out.end();
  await once(out, 'finish');
  return {
    count,
    seed,
    profile,
    bytes,
    kinds,
    sessionId: SESSION_ID,
    expected: { lastPlan, agentText, thoughtText, toolCalls: toolIds.size, messages: messageSeq, planEntriesTotal },
  };
}

/** The initialize answer of the producer (v2 shape). */
export const INITIALIZE_RESULT = {
  protocolVersion: 2,
  info: { name: 'acp-plans-bench-producer', title: 'Benchmark producer', version: '1.0.0' },
  capabilities: { session: {} },
  authMethods: [],
};
