// The outbound validator itself: it must accept exact messages and catch wrong ones, or the
// "every outbound message validates" checks in the connect/negotiation tests prove nothing.
import * as assert from 'node:assert/strict';
import { OutboundRecorder } from './outbound';

type Obj = Record<string, unknown>;

function record(messages: { direction: 'send' | 'receive'; message: Obj }[]): OutboundRecorder {
  const r = new OutboundRecorder();
  for (const m of messages) r.logger.wire?.(m.direction, m.message);
  return r;
}
const send = (message: Obj) => ({ direction: 'send' as const, message });
const receive = (message: Obj) => ({ direction: 'receive' as const, message });

const info = { name: 'c', version: '1' };
const v1Caps = { fs: { readTextFile: true, writeTextFile: false }, terminal: false, plan: {} };

describe('outbound validator', () => {
  it('accepts exact v2 requests, notifications and responses', () => {
    const r = record([
      send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 2, info, capabilities: {} } }),
      send({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/tmp' } }),
      send({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] } }),
      send({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } }),
      send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 2 } }),
      receive({ jsonrpc: '2.0', id: 'p', method: 'session/request_permission', params: {} }),
      send({ jsonrpc: '2.0', id: 'p', result: { outcome: { outcome: 'selected', optionId: 'allow' } } }),
      send({ jsonrpc: '2.0', id: 'x', error: { code: -32601, message: 'Method not found' } }),
    ]);
    assert.deepEqual(r.violations(2), []);
  });

  it('accepts the hybrid initialize, checking each half exactly', () => {
    const ok = record([
      send({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: 2, info, capabilities: {}, clientCapabilities: v1Caps, clientInfo: info },
      }),
    ]);
    assert.deepEqual(ok.violations(1), []);
    assert.deepEqual(ok.violations(2), []);
    const badV1Half = record([
      send({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: 2, info, capabilities: {}, clientCapabilities: { terminal: 'yes' }, clientInfo: info },
      }),
    ]);
    assert.equal(badV1Half.violations(1).length, 1);
    const badV2Half = record([
      send({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: 2, info: { name: 'c' }, capabilities: {}, clientCapabilities: v1Caps, clientInfo: info },
      }),
    ]);
    assert.equal(badV2Half.violations(2).length, 1);
  });

  it('flags wrong messages', () => {
    const r = record([
      send({ jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { prompt: [] } }), // no sessionId
      send({ jsonrpc: '2.0', id: 2, method: 'session/set_mode', params: { sessionId: 's', modeId: 'm' } }), // v1 only
      send({ jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: 1, info } }), // v1 with a v2 field
      receive({ jsonrpc: '2.0', id: 9, method: 'session/request_permission', params: {} }),
      send({ jsonrpc: '2.0', id: 9, result: { outcome: { outcome: 'selected' } } }), // no optionId
      send({ jsonrpc: '2.0', id: 10, result: {} }), // answers nothing the agent asked
      send({ jsonrpc: '2.0', id: 11, error: { code: 'bad', message: 'x' } }),
      send({ jsonrpc: '1.0', method: 'session/cancel', params: { sessionId: 's' } }),
    ]);
    const flagged = r.violations(2).map((v) => v.message as Obj);
    assert.equal(flagged.length, 7, JSON.stringify(r.violations(2), null, 1));
    assert.throws(() => r.assertAllValid(2), /7 outbound message\(s\)/);
  });

  it('validates v1 client-service responses against the v1 schema', () => {
    const r = record([
      receive({ jsonrpc: '2.0', id: 'a', method: 'fs/read_text_file', params: {} }),
      send({ jsonrpc: '2.0', id: 'a', result: { content: 'text' } }),
      receive({ jsonrpc: '2.0', id: 'b', method: 'fs/write_text_file', params: {} }),
      send({ jsonrpc: '2.0', id: 'b', result: null }), // the schema wants {}
    ]);
    const v = r.violations(1);
    assert.equal(v.length, 1);
    assert.equal((v[0].message as Obj).id, 'b');
  });
});
