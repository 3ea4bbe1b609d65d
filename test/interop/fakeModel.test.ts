// The fake model server on its own: each API's stream shape, stateless step choice, stock text
// for tool-less requests, and a held step that a client can abandon, that ends with its delay or
// on `release()`.
import assert from 'node:assert/strict';
import http from 'node:http';
import { startFakeModel, STOCK_TEXT, type FakeModel } from './support/fakeModel';

function post(model: FakeModel, path: string, body: unknown, signal?: AbortSignal): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${model.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, signal }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const dataLines = (sse: string) =>
  sse
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6));
const tool = { type: 'function', name: 'x', function: { name: 'x' } };

describe('interop: fake model server', () => {
  let model: FakeModel;
  beforeEach(async () => {
    model = await startFakeModel({
      finalText: 'fin',
      steps: [
        {
          kind: 'tools',
          calls: [
            { name: 'a', input: { n: 1 } },
            { name: 'b', input: 'freeform' },
          ],
        },
        { kind: 'tools', calls: [{ name: 'c', input: {} }], delayMs: 60_000 },
      ],
    });
  });
  afterEach(() => model.close());

  it('binds to 127.0.0.1 on an ephemeral port', () => {
    assert.match(model.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(model.port > 0);
  });

  it('Responses: function_call and custom_tool_call items, then response.completed', async () => {
    const r = await post(model, '/v1/responses', { model: 'm', tools: [tool], input: [{ type: 'message', role: 'user', content: 'hi' }] });
    const events = dataLines(r.text).map((d) => JSON.parse(d) as { type: string; item?: { type: string; name: string } });
    assert.equal(events[0].type, 'response.created');
    assert.equal(events.at(-1)?.type, 'response.completed');
    const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => `${e.item?.type}:${e.item?.name}`);
    assert.deepEqual(done, ['function_call:a', 'custom_tool_call:b']);
  });

  it('Chat Completions: streamed tool_calls chunk, finish_reason, [DONE]; the final text after all tool results', async () => {
    const first = dataLines((await post(model, '/v1/chat/completions', { model: 'm', stream: true, tools: [tool], messages: [] })).text);
    assert.equal(first.at(-1), '[DONE]');
    const chunks = first
      .slice(0, -1)
      .map((d) => JSON.parse(d) as { choices: { delta: { tool_calls?: { function: { name: string } }[] }; finish_reason: string | null }[] });
    assert.deepEqual(
      chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []).map((t) => t.function.name),
      ['a', 'b'],
    );
    assert.equal(chunks.at(-1)?.choices[0].finish_reason, 'tool_calls');
    const history = { model: 'm', tools: [tool], messages: [{ role: 'tool' }, { role: 'tool' }, { role: 'tool' }] };
    const last = await post(model, '/v1/chat/completions', { ...history, stream: false });
    assert.equal((JSON.parse(last.text) as { choices: { message: { content: string } }[] }).choices[0].message.content, 'fin');
    assert.deepEqual(
      model.requests.map((q) => q.answer),
      ['step0', 'final'],
    );
  });

  it('Anthropic Messages: tool_use with input split over input_json_delta; count_tokens; stock text without tools', async () => {
    const r = await post(model, '/v1/messages?beta=true', { model: 'm', stream: true, tools: [{ name: 'a' }], messages: [{ role: 'user', content: 'hi' }] });
    const events = dataLines(r.text).map((d) => JSON.parse(d) as { type: string; delta?: { partial_json?: string } });
    assert.equal(events[0].type, 'message_start');
    assert.equal(events.at(-1)?.type, 'message_stop');
    const json = events
      .filter((e) => e.delta?.partial_json !== undefined)
      .map((e) => e.delta?.partial_json)
      .join('');
    assert.ok(json.includes('{"n":1}'), json);
    const count = await post(model, '/v1/messages/count_tokens', { messages: [] });
    assert.deepEqual(JSON.parse(count.text), { input_tokens: 100 });
    const stock = await post(model, '/v1/messages', { model: 'm', messages: [] });
    assert.equal((JSON.parse(stock.text) as { content: { text: string }[] }).content[0].text, STOCK_TEXT);
  });

  it('a held step can be abandoned by the client; stepStarted reports it', async () => {
    const ac = new AbortController();
    const body = {
      model: 'm',
      stream: true,
      tools: [{ name: 'a' }],
      messages: [{ role: 'user', content: [{ type: 'tool_result' }, { type: 'tool_result' }] }],
    };
    const pending = post(model, '/v1/messages', body, ac.signal).catch((e: Error) => e.name);
    await model.stepStarted(1);
    ac.abort();
    assert.equal(await pending, 'AbortError');
  });

  it('a held step is answered once its delay ran out', async () => {
    const short = await startFakeModel({ steps: [{ kind: 'text', text: 'late', delayMs: 50 }] });
    try {
      const r = await post(short, '/v1/messages', { model: 'm', stream: true, tools: [{ name: 'a' }], messages: [] });
      assert.ok(r.text.includes('late') && r.text.includes('message_stop'), r.text);
    } finally {
      await short.close();
    }
  });

  it('release() answers a held step at once', async () => {
    const body = { model: 'm', input: [{ type: 'function_call_output' }, { type: 'function_call_output' }], tools: [tool] };
    const pending = post(model, '/v1/responses', body);
    await model.stepStarted(1);
    model.release();
    const r = await pending;
    assert.ok(r.text.includes('"name":"c"') && r.text.includes('response.completed'), r.text);
  });

  it('unknown routes get a 404', async () => {
    assert.equal((await post(model, '/v1/embeddings', {})).status, 404);
  });
});
