// Steering (`_session/steering`) in the protocol layer: the advertisement read from the
// initialize answer's `_meta.steering`, the outcome decoded into a typed result (an answer we do
// not know kept whole), and the request over a real connection on v1 and v2 (the test plays the
// agent on an in-memory stream): what goes on the wire (schema-valid: the ext-method rule), the
// steered message reported inside the running turn, an error answer as `failed` with its message.
import * as assert from 'node:assert/strict';
import type { AcpConnection } from '../../../src/protocol/api';
import { connect, memoryStreamPair } from '../../../src/protocol/connect';
import { decodeSteerOutcome, steeringAdvertised } from '../../../src/protocol/common/steering';
import type { SessionEvent } from '../../../src/protocol/domain';
import { OutboundRecorder } from './outbound';
import { SentLines } from './transportHarness';

type Msg = Record<string, unknown>;
const text = (t: string) => [{ type: 'text' as const, text: t }];

describe('steering (protocol)', () => {
  it('decodes each outcome; an answer it does not know is kept whole', () => {
    assert.deepEqual(decodeSteerOutcome({ outcome: 'injected' }), { kind: 'injected' });
    assert.deepEqual(decodeSteerOutcome({ outcome: 'startedNewTurn' }), { kind: 'newTurn' });
    assert.deepEqual(decodeSteerOutcome({ outcome: 'promptRequired', reason: 'noRunningTurn' }), { kind: 'promptRequired', reason: 'noRunningTurn' });
    assert.deepEqual(decodeSteerOutcome({ outcome: 'failed' }), { kind: 'failed' });
    assert.deepEqual(decodeSteerOutcome({ outcome: 'failed', reason: 'the model is busy' }), { kind: 'failed', reason: 'the model is busy' });
    assert.deepEqual(decodeSteerOutcome({ outcome: 'queuedForLater', extra: 1 }), { kind: 'unknown', raw: { outcome: 'queuedForLater', extra: 1 } });
    assert.deepEqual(decodeSteerOutcome(null), { kind: 'unknown', raw: null });
    const long = decodeSteerOutcome({ outcome: 'failed', reason: 'x'.repeat(5000) });
    assert.ok(long.kind === 'failed' && long.reason !== undefined && long.reason.length <= 301, 'an agent reason is bounded');
  });

  it('reads the advertisement leniently from the initialize answer', () => {
    assert.equal(steeringAdvertised({ _meta: { steering: { supported: true } } }), true);
    assert.equal(steeringAdvertised({ _meta: { steering: {} } }), true);
    assert.equal(steeringAdvertised({ _meta: { steering: true } }), true);
    assert.equal(steeringAdvertised({ _meta: { steering: { supported: false } } }), false);
    assert.equal(steeringAdvertised({ _meta: { steering: 'yes' } }), false);
    assert.equal(steeringAdvertised({ _meta: {} }), false);
    assert.equal(steeringAdvertised({}), false);
    assert.equal(steeringAdvertised(undefined), false);
  });

  for (const version of [1, 2] as const) {
    describe(`v${version}, over a connection`, () => {
      let conn: AcpConnection | undefined;
      afterEach(() => conn?.dispose());

      it('sends `_session/steering` (schema-valid) and reports the steered message inside the running turn; an error is `failed`', async () => {
        const pair = memoryStreamPair();
        const fromClient = new SentLines(pair.agent.readable);
        const send = (m: Msg): void => void pair.agent.writable.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
        const events: SessionEvent[] = [];
        const recorder = new OutboundRecorder();
        const connecting = connect(pair.client, {
          protocol: version,
          clientInfo: { name: 'acp-plans-tests', version: '0.0.1' },
          logger: recorder.logger,
          handlers: { onEvent: (e) => events.push(e), requestPermission: () => Promise.resolve({ outcome: 'cancelled' }) },
        });
        const init = await fromClient.next();
        const meta = { steering: { supported: true } };
        send({
          id: init.id as number,
          result:
            version === 1
              ? { protocolVersion: 1, agentCapabilities: {}, authMethods: [], _meta: meta }
              : { protocolVersion: 2, info: { name: 'memory-agent', version: '1.0.0' }, capabilities: {}, _meta: meta },
        });
        conn = await connecting;
        assert.equal(conn.steering, true);

        const opening = conn.newSession({ cwd: '/tmp' });
        const open = await fromClient.next();
        send({ id: open.id as number, result: { sessionId: 'mem-1' } });
        await opening;
        void conn.prompt('mem-1', text('write the tests')).catch(() => undefined);
        const prompt = await fromClient.next();
        assert.equal(prompt.method, 'session/prompt');

        const steering = conn.steer('mem-1', text('use mocha, not jest'));
        const req = await fromClient.next();
        assert.equal(req.method, '_session/steering');
        assert.deepEqual(req.params, {
          sessionId: 'mem-1',
          prompt: [{ type: 'text', text: 'use mocha, not jest' }],
          _meta: { steering: { idleBehavior: 'promptRequired' } },
        });
        send({ id: req.id as number, result: { outcome: 'injected' } });
        assert.deepEqual(await steering, { kind: 'injected' });
        const steered = events.find((e) => e.kind === 'message' && e.steered === true);
        assert.ok(steered?.kind === 'message' && steered.role === 'user', JSON.stringify(events));
        assert.deepEqual(steered.content, text('use mocha, not jest'));
        if (version === 1) {
          // Inside the prompt's turn (v1:<turn>:user:<segment>): the same turn as the prompt, a later segment.
          const first = events.find((e) => e.kind === 'message' && e.role === 'user' && !e.steered);
          assert.ok(first?.kind === 'message');
          assert.equal(steered.messageId.split(':')[1], first.messageId.split(':')[1], 'the same turn');
          assert.notEqual(steered.messageId, first.messageId);
        }

        const failing = conn.steer('mem-1', text('and lint'));
        const req2 = await fromClient.next();
        send({ id: req2.id as number, error: { code: -32603, message: 'Internal error', data: 'no active turn' } });
        const failed = await failing;
        assert.equal(failed.kind, 'failed');
        assert.equal(events.filter((e) => e.kind === 'message' && e.steered).length, 1, 'a steer not taken is not shown in the turn');

        recorder.assertAllValid(version);
      });

      it('is off when the initialize answer does not advertise it', async () => {
        const pair = memoryStreamPair();
        const fromClient = new SentLines(pair.agent.readable);
        const connecting = connect(pair.client, {
          protocol: version,
          clientInfo: { name: 'acp-plans-tests', version: '0.0.1' },
          handlers: { onEvent: () => undefined, requestPermission: () => Promise.resolve({ outcome: 'cancelled' }) },
        });
        const init = await fromClient.next();
        const result =
          version === 1
            ? { protocolVersion: 1, agentCapabilities: {}, authMethods: [] }
            : { protocolVersion: 2, info: { name: 'm', version: '1' }, capabilities: {} };
        pair.agent.writable.write(`${JSON.stringify({ jsonrpc: '2.0', id: init.id, result })}\n`);
        conn = await connecting;
        assert.equal(conn.steering, false);
      });
    });
  }
});
