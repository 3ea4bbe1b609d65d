// Subagents and background work on the wire, both versions: subagent_update, session_message(_chunk),
// state_update.background, item controls; malformed known kinds reported, unknown items kept; the
// requests we send (v1 subagents opt-in, v2 terminal/cancel and tool_call/cancel) valid.
import * as assert from 'node:assert/strict';
import { createAdapter, ProtocolShapeError } from '../../../src/protocol/adapter';
import type { SessionEvent } from '../../../src/protocol/domain';
import { V1_REQUEST_PARAMS } from '../../../src/protocol/v1/outgoing';
import { V2_REQUEST_PARAMS } from '../../../src/protocol/v2/outgoing';

const one = (version: 1 | 2, update: object): SessionEvent => {
  const events = createAdapter(version).decodeUpdate({ sessionId: 'parent', update });
  assert.equal(events.length, 1);
  return events[0]!;
};

describe('subagents and background work: decoding', () => {
  for (const version of [1, 2] as const) {
    it(`v${version}: subagent_update announces a child with its metadata; omitted stays omitted, null clears`, () => {
      const e = one(version, {
        sessionUpdate: 'subagent_update',
        sessionId: 'parent:subagent:1',
        title: 'Researcher',
        description: null,
        capabilities: { cancel: {} },
        state: { state: 'running' },
        cwd: '/w',
        _meta: { k: 1 },
      });
      assert.deepEqual(e, {
        sessionId: 'parent',
        kind: 'subagent',
        childSessionId: 'parent:subagent:1',
        title: 'Researcher',
        description: null,
        state: 'running',
        cwd: '/w',
        capabilities: { cancel: true },
        _meta: { k: 1 },
      });
      const bare = one(version, { sessionUpdate: 'subagent_update', sessionId: 'c' });
      assert.deepEqual(bare, { sessionId: 'parent', kind: 'subagent', childSessionId: 'c' });
      const cleared = one(version, { sessionUpdate: 'subagent_update', sessionId: 'c', capabilities: null, state: null, title: null });
      assert.deepEqual(cleared, { sessionId: 'parent', kind: 'subagent', childSessionId: 'c', title: null, state: null, capabilities: null });
    });

    it(`v${version}: capabilities are read strictly (cancel only as an object), a malformed set offers nothing`, () => {
      for (const [caps, cancel] of [
        [{}, false],
        [{ cancel: null }, false],
        [{ cancel: true }, false],
        ['yes', false],
        [{ cancel: { _meta: {} } }, true],
      ] as const) {
        const e = one(version, { sessionUpdate: 'subagent_update', sessionId: 'c', capabilities: caps });
        assert.deepEqual(e.kind === 'subagent' && e.capabilities, { cancel }, JSON.stringify(caps));
      }
    });

    it(`v${version}: a subagent_update without a child id is malformed (reported), not shown as unknown`, () => {
      assert.throws(
        () => createAdapter(version).decodeUpdate({ sessionId: 'p', update: { sessionUpdate: 'subagent_update', title: 'x' } }),
        ProtocolShapeError,
      );
    });

    it(`v${version}: session_message upserts its route; chunks carry content only`, () => {
      const m = one(version, {
        sessionUpdate: 'session_message',
        messageId: 'sm1',
        senderSessionId: 'a',
        recipientSessionId: null,
        content: [{ type: 'text', text: 'hi' }],
      });
      assert.deepEqual(m, {
        sessionId: 'parent',
        kind: 'session_message',
        messageId: 'sm1',
        senderSessionId: 'a',
        recipientSessionId: null,
        content: [{ type: 'text', text: 'hi' }],
      });
      const c = one(version, { sessionUpdate: 'session_message_chunk', messageId: 'sm1', content: { type: 'text', text: ' there' } });
      assert.deepEqual(c, { sessionId: 'parent', kind: 'session_message_chunk', messageId: 'sm1', content: { type: 'text', text: ' there' } });
      assert.throws(
        () => createAdapter(version).decodeUpdate({ sessionId: 'p', update: { sessionUpdate: 'session_message_chunk', messageId: 'x' } }),
        ProtocolShapeError,
      );
    });
  }

  it('v2: state_update.background is a snapshot; unknown items kept, a malformed list is "not reported"', () => {
    const e = one(2, {
      sessionUpdate: 'state_update',
      state: 'idle',
      stopReason: 'end_turn',
      background: [
        { type: 'terminal', terminalId: 't1' },
        { type: 'tool_call', toolCallId: 'c1' },
        { type: 'subagent', sessionId: 's1' },
        { type: '_cron', every: '1h' },
      ],
    });
    assert.ok(e.kind === 'state');
    assert.deepEqual(e.background, [
      { type: 'terminal', terminalId: 't1' },
      { type: 'tool_call', toolCallId: 'c1' },
      { type: 'subagent', sessionId: 's1' },
      { type: 'unknown', rawType: '_cron', raw: { type: '_cron', every: '1h' } },
    ]);
    const empty = one(2, { sessionUpdate: 'state_update', state: 'running', background: [] });
    assert.deepEqual(empty.kind === 'state' && empty.background, []);
    const bad = one(2, { sessionUpdate: 'state_update', state: 'running', background: [{ type: 'terminal' }] });
    assert.ok(bad.kind === 'state' && !('background' in bad), 'a malformed list reads as not reported');
    const none = one(2, { sessionUpdate: 'state_update', state: 'running' });
    assert.ok(none.kind === 'state' && !('background' in none));
  });

  it('v2: tool_call_update and terminal_update carry their controls (null clears)', () => {
    const t = one(2, { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress', capabilities: { cancel: {} } });
    assert.deepEqual(t.kind === 'tool_call' && t.fields.capabilities, { cancel: true });
    const plain = one(2, { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' });
    assert.ok(plain.kind === 'tool_call' && !('capabilities' in plain.fields), 'the fast path keeps "omitted"');
    const term = one(2, { sessionUpdate: 'terminal_update', terminalId: 't1', capabilities: null });
    assert.equal(term.kind === 'terminal_update' && term.capabilities, null);
  });
});

describe('subagents and background work: what we send', () => {
  it('v1 advertises clientCapabilities.subagents, valid against our v1 outbound schema', () => {
    const params = createAdapter(1).initializeParams({ clientInfo: { name: 'c', version: '1' }, unstablePlans: true });
    assert.deepEqual((params.clientCapabilities as { subagents?: object }).subagents, {});
    assert.equal(V1_REQUEST_PARAMS.initialize!.safeParse(params).success, true);
  });

  it('v2 terminal/cancel and tool_call/cancel: exact params, valid; v1 has neither', () => {
    const v2 = createAdapter(2);
    const t = v2.cancelTerminal!('s', 't1');
    assert.deepEqual([t.method, t.params], ['terminal/cancel', { sessionId: 's', terminalId: 't1' }]);
    const c = v2.cancelToolCall!('s', 'c1');
    assert.deepEqual([c.method, c.params], ['tool_call/cancel', { sessionId: 's', toolCallId: 'c1' }]);
    for (const call of [t, c]) assert.equal(V2_REQUEST_PARAMS[call.method]!.safeParse(call.params).success, true, call.method);
    assert.deepEqual(t.decode({}).value, undefined);
    const v1 = createAdapter(1);
    assert.equal(v1.cancelTerminal, undefined);
    assert.equal(v1.cancelToolCall, undefined);
  });
});
