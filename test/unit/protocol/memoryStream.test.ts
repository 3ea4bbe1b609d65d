// connect() over an in-memory MessageStream (memoryStreamPair): no process, the test plays the
// agent by writing NDJSON lines on the agent's end and reading what the client sent. Covers the
// initialize negotiation, a client request and its response, a session/update arriving as an
// event, an agent → client request answered, and the close (pending requests rejected with
// ConnectionClosedError, onClose fired) — the path every transport (socket, worktree) shares.
import * as assert from 'node:assert/strict';
import type { AcpConnection } from '../../../src/protocol/api';
import { ConnectionClosedError, connect, memoryStreamPair } from '../../../src/protocol/connect';
import type { SessionEvent } from '../../../src/protocol/domain';
import { SentLines } from './transportHarness';

type Msg = Record<string, unknown>;

/** The agent's end, driven by the test. */
function playAgent() {
  const pair = memoryStreamPair();
  const fromClient = new SentLines(pair.agent.readable);
  const send = (m: Msg): void => {
    pair.agent.writable.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  };
  return { pair, fromClient, send };
}

/** Waits for the next event the connection delivers (events, not polling). */
function eventLog() {
  const events: SessionEvent[] = [];
  let waiter: ((e: SessionEvent) => void) | undefined;
  return {
    events,
    onEvent: (e: SessionEvent) => {
      events.push(e);
      waiter?.(e);
    },
    until(pred: (e: SessionEvent) => boolean): Promise<SessionEvent> {
      const seen = events.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => {
        waiter = (e) => {
          if (pred(e)) resolve(e);
        };
      });
    },
  };
}

describe('connect() over memoryStreamPair (in-memory agent)', () => {
  let conn: AcpConnection | undefined;
  afterEach(() => conn?.dispose());

  it('negotiates, answers requests, delivers updates, and rejects pending requests with ConnectionClosedError on close', async () => {
    const { pair, fromClient, send } = playAgent();
    const log = eventLog();
    const asked: string[] = [];
    const connecting = connect(pair.client, {
      protocol: 1,
      clientInfo: { name: 'acp-plans-tests', version: '0.0.1' },
      handlers: {
        onEvent: log.onEvent,
        requestPermission: (req) => {
          asked.push(req.sessionId);
          return Promise.resolve({ outcome: 'selected', optionId: 'allow' });
        },
      },
    });

    // initialize: the client offers v1 (as asked); the agent answers v1 with its capabilities.
    const init = await fromClient.next();
    assert.equal(init.method, 'initialize');
    assert.equal((init.params as Msg).protocolVersion, 1);
    send({
      id: init.id as number,
      result: { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [], agentInfo: { name: 'memory-agent', version: '1.0.0' } },
    });
    conn = await connecting;
    assert.equal(conn.version, 1);
    assert.equal(conn.agentInfo?.name, 'memory-agent');
    assert.equal(conn.capabilities.loadSession, true);

    // A request and its response.
    const opening = conn.newSession({ cwd: '/tmp' });
    const newSession = await fromClient.next();
    assert.equal(newSession.method, 'session/new');
    assert.equal((newSession.params as Msg).cwd, '/tmp');
    send({ id: newSession.id as number, result: { sessionId: 'mem-1' } });
    assert.equal((await opening).sessionId, 'mem-1');

    // A prompt: the agent streams an update, asks a permission, then answers the prompt.
    const prompting = conn.prompt('mem-1', [{ type: 'text', text: 'hello' }]);
    const prompt = await fromClient.next();
    assert.equal(prompt.method, 'session/prompt');
    send({
      method: 'session/update',
      params: { sessionId: 'mem-1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi there' } } },
    });
    const chunk = await log.until((e) => e.kind === 'message_chunk');
    assert.equal(chunk.sessionId, 'mem-1');
    assert.match(JSON.stringify(chunk), /Hi there/);

    send({
      id: 'agent-1',
      method: 'session/request_permission',
      params: {
        sessionId: 'mem-1',
        toolCall: { toolCallId: 'call-1', title: 'Run tests', status: 'pending' },
        options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
      },
    });
    const answer = await fromClient.next();
    assert.equal(answer.id, 'agent-1');
    assert.deepEqual(answer.result, { outcome: { outcome: 'selected', optionId: 'allow' } });
    assert.deepEqual(asked, ['mem-1']);

    send({ id: prompt.id as number, result: { stopReason: 'end_turn' } });
    assert.equal((await prompting).stopReason, 'end_turn');
    const idle = await log.until((e) => e.kind === 'state' && e.state === 'idle');
    assert.ok(idle.kind === 'state' && idle.stopReason === 'end_turn');

    // Close: the agent's end goes away with a request pending.
    const closed = new Promise<{ error?: Error }>((resolve) => conn!.onClose(resolve));
    const pending = conn.prompt('mem-1', [{ type: 'text', text: 'never answered' }]);
    assert.equal((await fromClient.next()).method, 'session/prompt');
    pair.agent.writable.end();
    await assert.rejects(pending, ConnectionClosedError);
    assert.deepEqual(await closed, {});
    await assert.rejects(conn.newSession({ cwd: '/tmp' }), ConnectionClosedError);
  });

  it('an agent end that closes before answering initialize rejects connect() with ConnectionClosedError', async () => {
    const { pair, fromClient } = playAgent();
    const connecting = connect(pair.client, {
      protocol: 'auto',
      clientInfo: { name: 'acp-plans-tests', version: '0.0.1' },
      handlers: { onEvent: () => undefined, requestPermission: () => Promise.resolve({ outcome: 'cancelled' }) },
    });
    assert.equal((await fromClient.next()).method, 'initialize');
    pair.agent.writable.end();
    await assert.rejects(connecting, ConnectionClosedError);
  });
});
