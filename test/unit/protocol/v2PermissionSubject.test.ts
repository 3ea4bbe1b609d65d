// A v2 permission's tool call is applied like a tool_call_update, except that an empty rawInput
// (`{}`) or content (`[]`) does not clear what the call shows: claude-agent-acp 0.101 repeats the
// call's first, empty snapshot in its plan approval (test/fixtures/recordings, replayNewest).
import * as assert from 'node:assert/strict';
import { createAdapter, permissionEvents } from '../../../src/protocol/adapter';

const S = 'sess_p';
const options = [{ optionId: 'y', name: 'Allow', kind: 'allow_once' }];
const decode = (toolCall: Record<string, unknown>) =>
  createAdapter(2).decodePermissionRequest({ sessionId: S, title: 'Ready to code?', subject: { type: 'tool_call', toolCall }, options });
const fieldsOf = (toolCall: Record<string, unknown>) => {
  const s = decode(toolCall).subject;
  assert.ok(s?.type === 'tool_call');
  return s.fields;
};

describe('v2 permission subject: empty rawInput / content', () => {
  it('an empty rawInput or content leaves the call as it was; the other fields apply', () => {
    assert.deepEqual(fieldsOf({ toolCallId: 't', title: 'Approve Plan', kind: 'switch_mode', rawInput: {}, content: [] }), {
      title: 'Approve Plan',
      kind: 'switch_mode',
    });
    const [e] = permissionEvents(decode({ toolCallId: 't', rawInput: {}, content: [] }));
    assert.deepEqual(e, { sessionId: S, kind: 'tool_call', toolCallId: 't', fields: {} });
  });

  it('a non-empty rawInput or content, and null, apply as in a tool_call_update', () => {
    const content = [{ type: 'content', content: { type: 'text', text: '# Plan' } }];
    assert.deepEqual(fieldsOf({ toolCallId: 't', rawInput: { plan: '# Plan' }, content }), { rawInput: { plan: '# Plan' }, content });
    assert.deepEqual(fieldsOf({ toolCallId: 't', content: null }), { content: null });
    assert.deepEqual(fieldsOf({ toolCallId: 't', rawInput: [] }), { rawInput: [] });
  });
});
