// Recording an agent's traffic: the file is redacted (secrets in env, args, headers and free text
// never reach it), has both directions with times, begins with the initialize exchange even
// when recording started mid-connection, stops at its size limit, and decodes back.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isInitialize } from '../../../src/recording/decoder';
import { indexRecording, readMessage } from '../../../src/recording/format';
import { AgentRecorders, type RecordingSummary } from '../../../src/recording/recorder';
import { decodeAll } from './support';

const SECRETS = ['sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234', 'hunter2-very-secret-pw', 'Zq9xW8vU7tS6rQ5pO4nM3lK2', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'];

/** Messages of one v2 connection, some carrying secrets where agents and clients put them. */
function traffic(): { dir: 'send' | 'receive'; msg: Record<string, unknown> }[] {
  return [
    { dir: 'send', msg: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 2, info: { name: 'c', version: '1' }, capabilities: {} } } },
    { dir: 'receive', msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: 2, info: { name: 'agent', version: '1' }, capabilities: {} } } },
    {
      dir: 'send',
      msg: {
        jsonrpc: '2.0',
        id: 1,
        method: 'session/new',
        params: {
          cwd: '/w',
          mcpServers: [
            { type: 'stdio', name: 'tools', command: 'tool', args: ['--api-key', SECRETS[0]], env: [{ name: 'OPENAI_API_KEY', value: SECRETS[1] }] },
            { type: 'http', name: 'remote', url: 'https://mcp.example/x', headers: [{ name: 'Authorization', value: `Bearer ${SECRETS[2]}` }] },
          ],
        },
      },
    },
    { dir: 'receive', msg: { jsonrpc: '2.0', id: 1, result: { sessionId: 's1' } } },
    {
      dir: 'receive',
      msg: {
        jsonrpc: '2.0',
        method: 'session/update',
        params: {
          sessionId: 's1',
          update: { sessionUpdate: 'agent_message', messageId: 'm1', content: [{ type: 'text', text: `run git push https://x:${SECRETS[3]}@github.com/o/r` }] },
        },
      },
    },
    {
      dir: 'receive',
      msg: {
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId: 's1', update: { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p1', content: '# Plan\n- [ ] one' } } },
      },
    },
  ];
}

describe('traffic recording', () => {
  let dir: string;
  let now: number;
  let recorders: AgentRecorders;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-rec-'));
    now = Date.UTC(2025, 0, 2, 3, 4, 5, 0);
    recorders = new AgentRecorders(isInitialize, () => (now += 10));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes every message redacted, with direction and time; no secret is in the file', async () => {
    const tap = recorders.tap('a');
    const file = path.join(dir, 'sub', 'a.jsonl');
    recorders.start('a', file, { agent: 'Agent A', agentId: 'a', redacted: true }, false);
    assert.equal(recorders.isRecording('a'), true);
    for (const { dir: d, msg } of traffic()) tap(d, msg);
    const summary = await recorders.stop('a');
    assert.equal(recorders.isRecording('a'), false);
    assert.equal(summary?.messages, 6);
    const text = fs.readFileSync(file, 'utf8');
    for (const s of SECRETS) for (let i = 0; i + 8 <= s.length; i++) assert.ok(!text.includes(s.slice(i, i + 8)), `a piece of ${s} leaked`);
    assert.ok(text.includes('OPENAI_API_KEY'), 'names stay readable');
    const bytes = Buffer.from(text);
    const index = indexRecording(bytes);
    assert.equal(index.header?.redacted, true);
    const lines = index.messages.map((r) => readMessage(bytes, r));
    assert.deepEqual(
      lines.map((l) => l.dir),
      ['send', 'receive', 'send', 'receive', 'receive', 'receive'],
    );
    assert.ok(lines.every((l, i) => typeof l.time === 'number' && (i === 0 || l.time > lines[i - 1].time!)));
    assert.equal((fs.statSync(file).mode & 0o777).toString(8), '600');
    // Redaction keeps the traffic decodable.
    const { decoder, outputs } = decodeAll(bytes);
    assert.equal(decoder.version, 2);
    assert.deepEqual(
      outputs.map((o) => o.kind),
      ['connected', 'session', 'event', 'event'],
    );
  });

  it("started mid-connection: the connection's initialize exchange comes first, so the version is known", async () => {
    const tap = recorders.tap('a');
    const [init, answer, ...rest] = traffic();
    tap(init.dir, init.msg);
    tap(answer.dir, answer.msg);
    tap(rest[0].dir, rest[0].msg); // session/new, not recorded
    const file = path.join(dir, 'mid.jsonl');
    recorders.start('a', file, { agent: 'A' }, true);
    for (const m of rest.slice(2)) tap(m.dir, m.msg);
    await recorders.stop('a');
    const bytes = fs.readFileSync(file);
    const methods = indexRecording(bytes).messages.map((r) => readMessage(bytes, r).msgs[0].method ?? 'response');
    assert.deepEqual(methods, ['initialize', 'response', 'session/update', 'session/update']);
    assert.equal(decodeAll(bytes).decoder.version, 2);
  });

  it('nothing is written while not recording, and a second start is refused', async () => {
    const tap = recorders.tap('a');
    for (const { dir: d, msg } of traffic()) tap(d, msg);
    assert.deepEqual(fs.readdirSync(dir), []);
    const file = path.join(dir, 'x.jsonl');
    recorders.start('a', file, {}, false);
    assert.throws(() => recorders.start('a', path.join(dir, 'y.jsonl'), {}, false), /already being recorded/);
    await recorders.stop('a');
    assert.equal(await recorders.stop('a'), undefined);
  });

  it('stops at its size limit, says so once, and the file stays within it', async () => {
    const tap = recorders.tap('a');
    const file = path.join(dir, 'big.jsonl');
    const stopped: RecordingSummary[] = [];
    recorders.start('a', file, {}, false, (s) => stopped.push(s), 2000);
    const chunk = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x'.repeat(300) } } },
    };
    for (let i = 0; i < 50; i++) tap('receive', chunk);
    assert.equal(stopped.length, 1);
    assert.equal(stopped[0].truncated, true);
    const s = await recorders.stop('a');
    assert.ok(fs.statSync(file).size <= 2000);
    assert.equal(s?.bytes, fs.statSync(file).size);
    assert.ok(s!.messages >= 2 && s!.messages < 50, String(s!.messages));
  });

  it('a recording never replaces an existing file; the failure is reported, the wire goes on', async () => {
    const file = path.join(dir, 'taken.jsonl');
    fs.writeFileSync(file, 'keep me');
    const stopped = new Promise<RecordingSummary>((resolve) => recorders.start('a', file, {}, false, resolve));
    const tap = recorders.tap('a');
    tap('send', traffic()[0].msg);
    const s = await stopped;
    assert.match(s.error ?? '', /EEXIST/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'keep me');
    await recorders.stop('a');
  });
});
