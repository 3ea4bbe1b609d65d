// A scripted fake model server for the interop suite: OpenAI Responses, OpenAI Chat Completions
// and Anthropic Messages (+ count_tokens), streamed as SSE, on 127.0.0.1 and an ephemeral port.
// No dependencies. The next step of a scenario is chosen statelessly from the request history
// (how many tool results it already holds), so retries and side requests do no harm.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One tool call the "model" makes. `input` is a JSON object, or a string for a freeform tool. */
export interface ScriptedCall {
  name: string;
  input: Record<string, unknown> | string;
  /** Responses API: the tool namespace of the function (codex's `collaboration` tools). */
  namespace?: string;
}

export type Step = { kind: 'tools'; calls: ScriptedCall[]; text?: string; delayMs?: number } | { kind: 'text'; text: string; delayMs?: number };

export interface Scenario {
  steps: Step[];
  /** Text once the steps are used up. */
  finalText?: string;
  /**
   * Other scripts for other conversations of the same agent (a subagent's, or the turn after a plan
   * approval): the first phase whose `marker` occurs in a user message's text answers instead.
   */
  phases?: { marker: string; scenario: Scenario }[];
}

export type Api = 'responses' | 'chat' | 'messages' | 'count_tokens' | 'other';

export interface SeenRequest {
  api: Api;
  path: string;
  stream: boolean;
  /** Tool names offered in the request. */
  tools: string[];
  /** Tool results present in the history. */
  toolResults: number;
  /** What was answered: a step index, `stock` or `final`. */
  answer: string;
  body: unknown;
}

export const STOCK_TEXT = 'Interop title';

export interface FakeModel {
  readonly port: number;
  /** Base URL without a version suffix, e.g. `http://127.0.0.1:4711`. */
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Resolves when a request is answered with step `index` (after its delay started). */
  stepStarted(index: number): Promise<void>;
  /** Answers every request held now (a step with `delayMs`) at once; later ones are held as usual. */
  release(): void;
  close(): Promise<void>;
}

type JsonObj = Record<string, unknown>;
const isObj = (v: unknown): v is JsonObj => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function toolNames(api: Api, body: JsonObj): string[] {
  return arr(body.tools).map((t) => {
    if (!isObj(t)) return '?';
    if (api === 'chat' && isObj(t.function)) return String(t.function.name);
    return String(t.name ?? t.type ?? '?');
  });
}

/** The history items of a request (Responses `input`, Chat / Messages `messages`). */
const history = (api: Api, body: JsonObj): unknown[] => (api === 'responses' ? arr(body.input) : arr(body.messages));

function countToolResults(api: Api, items: unknown[]): number {
  if (api === 'responses') return items.filter((i) => isObj(i) && /(^|_)call_output$/.test(String(i.type))).length;
  if (api === 'chat') return items.filter((m) => isObj(m) && m.role === 'tool').length;
  let n = 0;
  for (const m of items) {
    if (isObj(m) && m.role === 'user') n += arr(m.content).filter((c) => isObj(c) && c.type === 'tool_result').length;
  }
  return n;
}

/** The text of a user message (not tool results), or of a codex `agent_message` (a subagent's task). */
function userText(m: unknown): string {
  if (!isObj(m)) return '';
  if (m.type === 'agent_message')
    return arr(m.content)
      .map((c) => (isObj(c) ? String(c.text ?? c.encrypted_content ?? '') : ''))
      .join('');
  if (m.role !== 'user') return '';
  if (typeof m.content === 'string') return m.content;
  return arr(m.content)
    .map((c) => (isObj(c) && (c.type === 'text' || c.type === 'input_text') && typeof c.text === 'string' ? c.text : ''))
    .join('');
}

/**
 * The script that answers this request and the tool results that count for it: the first phase
 * whose marker a user message holds, counting only the results after the last such message.
 */
function scriptFor(scenario: Scenario, items: unknown[], api: Api): { script: Scenario; results: number } {
  for (const p of scenario.phases ?? []) {
    let at = -1;
    items.forEach((m, i) => {
      if (userText(m).includes(p.marker)) at = i;
    });
    if (at >= 0) return scriptFor(p.scenario, items.slice(at + 1), api);
  }
  return { script: scenario, results: countToolResults(api, items) };
}

/** The step whose calls start at `results` tool results (steps may hold several calls). */
function pickStep(scenario: Scenario, results: number): { index: number; step: Step } | undefined {
  let seen = 0;
  for (let index = 0; index < scenario.steps.length; index++) {
    const step = scenario.steps[index];
    if (seen === results) return { index, step };
    seen += step.kind === 'tools' ? step.calls.length : 0;
    if (seen > results) return undefined;
  }
  return undefined;
}

// ---------------------------------------------------------------- encoders

interface Out {
  text?: string;
  calls: (ScriptedCall & { id: string })[];
}

function sse(res: http.ServerResponse, event: string | undefined, data: unknown): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

function startSse(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

function writeResponses(res: http.ServerResponse, model: string, out: Out, seq: number): void {
  const id = `resp_${seq}`;
  const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model };
  startSse(res);
  sse(res, 'response.created', { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } });
  const items: JsonObj[] = [];
  if (out.text !== undefined) {
    const msgId = `msg_${seq}`;
    const item = { type: 'message', id: msgId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: out.text, annotations: [] }] };
    sse(res, 'response.output_item.added', {
      type: 'response.output_item.added',
      output_index: items.length,
      item: { ...item, status: 'in_progress', content: [] },
    });
    sse(res, 'response.output_text.delta', {
      type: 'response.output_text.delta',
      item_id: msgId,
      output_index: items.length,
      content_index: 0,
      delta: out.text,
    });
    sse(res, 'response.output_item.done', { type: 'response.output_item.done', output_index: items.length, item });
    items.push(item);
  }
  for (const c of out.calls) {
    const item =
      typeof c.input === 'string'
        ? { type: 'custom_tool_call', id: `ctc_${c.id}`, call_id: c.id, name: c.name, input: c.input, status: 'completed' }
        : {
            type: 'function_call',
            id: `fc_${c.id}`,
            call_id: c.id,
            name: c.name,
            ...(c.namespace ? { namespace: c.namespace } : {}),
            arguments: JSON.stringify(c.input),
            status: 'completed',
          };
    sse(res, 'response.output_item.added', { type: 'response.output_item.added', output_index: items.length, item });
    sse(res, 'response.output_item.done', { type: 'response.output_item.done', output_index: items.length, item });
    items.push(item);
  }
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 120,
  };
  sse(res, 'response.completed', { type: 'response.completed', response: { ...base, status: 'completed', output: items, usage } });
  res.end();
}

function writeChat(res: http.ServerResponse, model: string, out: Out, seq: number, stream: boolean): void {
  const id = `chatcmpl-${seq}`;
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = out.calls.map((c, index) => ({
    index,
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input) },
  }));
  const finish = toolCalls.length ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model,
        usage,
        choices: [
          {
            index: 0,
            finish_reason: finish,
            message: { role: 'assistant', content: out.text ?? null, ...(toolCalls.length ? { tool_calls: toolCalls.map(({ index: _i, ...t }) => t) } : {}) },
          },
        ],
      }),
    );
    return;
  }
  startSse(res);
  const chunk = (delta: JsonObj, finish_reason: string | null, extra: JsonObj = {}) =>
    sse(res, undefined, { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason }], ...extra });
  chunk({ role: 'assistant', content: '' }, null);
  if (out.text !== undefined) chunk({ content: out.text }, null);
  if (toolCalls.length) chunk({ tool_calls: toolCalls }, null);
  chunk({}, finish, { usage });
  sse(res, undefined, '[DONE]');
  res.end();
}

function writeMessages(res: http.ServerResponse, model: string, out: Out, seq: number, stream: boolean): void {
  const id = `msg_fake_${seq}`;
  const stopReason = out.calls.length ? 'tool_use' : 'end_turn';
  const blocks: JsonObj[] = [];
  if (out.text !== undefined) blocks.push({ type: 'text', text: out.text });
  for (const c of out.calls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: typeof c.input === 'string' ? { input: c.input } : c.input });
  const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage }));
    return;
  }
  startSse(res);
  sse(res, 'message_start', {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } });
    } else {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      const json = JSON.stringify(b.input);
      const mid = Math.floor(json.length / 2); // two deltas: agents must join streamed input
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(0, mid) } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(mid) } });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 20 } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

// ---------------------------------------------------------------- server

function apiOf(method: string, url: string): Api {
  const p = url.split('?')[0];
  if (method !== 'POST') return 'other';
  if (p.endsWith('/responses')) return 'responses';
  if (p.endsWith('/chat/completions')) return 'chat';
  if (p.endsWith('/messages/count_tokens')) return 'count_tokens';
  if (p.endsWith('/messages')) return 'messages';
  return 'other';
}

/**
 * Waits `ms`, or less when the client goes away (a cancelled turn: false) or `release` fires (true).
 * Liveness is the response's: a request stream is destroyed once its body was read.
 */
function hold(ms: number, res: http.ServerResponse, releases: Set<() => void>): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (alive: boolean) => {
      clearTimeout(timer);
      res.off('close', gone);
      releases.delete(release);
      resolve(alive && !res.destroyed);
    };
    const gone = () => done(false);
    const release = () => done(true);
    const timer = setTimeout(() => done(true), ms);
    res.on('close', gone);
    releases.add(release);
  });
}

export async function startFakeModel(scenario: Scenario): Promise<FakeModel> {
  const requests: SeenRequest[] = [];
  const waiters = new Map<number, (() => void)[]>();
  const started = new Set<number>();
  const releases = new Set<() => void>();
  let seq = 0;

  const markStarted = (index: number) => {
    started.add(index);
    for (const w of waiters.get(index) ?? []) w();
    waiters.delete(index);
  };

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    const api = apiOf(req.method ?? 'GET', req.url ?? '/');
    const path = req.url ?? '/';
    if (api === 'other') {
      requests.push({ api, path, stream: false, tools: [], toolResults: 0, answer: '404', body: raw });
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'not_found_error', message: `fake model: no route ${req.method} ${path}` } }));
      return;
    }
    let body: JsonObj = {};
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isObj(parsed)) body = parsed;
    } catch {
      /* answered below */
    }
    if (api === 'count_tokens') {
      requests.push({ api, path, stream: false, tools: toolNames(api, body), toolResults: 0, answer: 'count', body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: 100 }));
      return;
    }
    const tools = toolNames(api, body);
    const { script, results: toolResults } = scriptFor(scenario, history(api, body), api);
    const stream = api === 'responses' || body.stream === true;
    const model = typeof body.model === 'string' ? body.model : 'fake-model';
    const n = ++seq;
    let out: Out;
    let label: string;
    let delayMs = 0;
    if (tools.length === 0) {
      out = { text: STOCK_TEXT, calls: [] };
      label = 'stock';
    } else {
      const picked = pickStep(script, toolResults);
      if (!picked) {
        out = { text: script.finalText ?? 'Done.', calls: [] };
        label = 'final';
      } else {
        const { index, step } = picked;
        label = `step${index}`;
        delayMs = step.delayMs ?? 0;
        out =
          step.kind === 'text'
            ? { text: step.text, calls: [] }
            : { text: step.text, calls: step.calls.map((c, i) => ({ ...c, id: `call_${index}_${i}_${n}` })) };
        markStarted(index);
      }
    }
    requests.push({ api, path, stream, tools, toolResults, answer: label, body });
    if (delayMs > 0 && !(await hold(delayMs, res, releases))) return;
    if (api === 'responses') writeResponses(res, model, out, n);
    else if (api === 'chat') writeChat(res, model, out, n, stream);
    else writeMessages(res, model, out, n, stream);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      answer(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    stepStarted(index) {
      if (started.has(index)) return Promise.resolve();
      return new Promise((resolve) => waiters.set(index, [...(waiters.get(index) ?? []), resolve]));
    },
    release() {
      for (const r of [...releases]) r();
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
