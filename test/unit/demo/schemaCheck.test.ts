// The checker the Demo Agent tests rely on must reject what the schemas reject.

import assert from 'node:assert/strict';
import { schemaCheck } from './support/harness';

const update = (u: object): object => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: u } });

describe('Demo Agent test schema checker', () => {
  it('accepts a valid v2 plan_update and rejects `id` in place of `planId`', () => {
    const check = schemaCheck();
    const good = { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries: [{ content: 'a', priority: 'high', status: 'pending' }] } };
    assert.deepEqual(check.check('v2.unstable', update(good)), []);
    const bad = { sessionUpdate: 'plan_update', plan: { type: 'items', id: 'p', entries: [] } };
    assert.notDeepEqual(check.check('v2.unstable', update(bad)), []);
  });

  it('rejects plan_update under stable v1, a v2 chunk without messageId, and a v2 body as a v1 answer', () => {
    const check = schemaCheck();
    const planUpdate = { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p', content: '# x' } };
    assert.deepEqual(check.check('v1.unstable', update(planUpdate)), []);
    assert.notDeepEqual(check.check('v1', update(planUpdate)), []);
    assert.notDeepEqual(check.check('v2.unstable', update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } })), []);
    const v2Init = { jsonrpc: '2.0', id: 1, result: { protocolVersion: 2, capabilities: {} } };
    assert.notDeepEqual(check.check('v2.unstable', v2Init, 'initialize'), [], 'info is required');
    assert.notDeepEqual(check.check('v1.unstable', { jsonrpc: '2.0', id: 3, result: {} }, 'session/prompt'), [], 'v1 needs stopReason');
  });

  it('rejects methods a version does not have', () => {
    const check = schemaCheck();
    const read = { jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: { sessionId: 's', path: '/a' } };
    assert.deepEqual(check.check('v1.unstable', read), []);
    assert.notDeepEqual(check.check('v2.unstable', read), []);
  });
});
