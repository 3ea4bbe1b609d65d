import assert from 'node:assert/strict';
import { SessionGate } from '../../../src/agents/sessionGate';
import type { SessionEvent } from '../../../src/protocol/domain';

const chunk = (sessionId: string, text = 'x'): SessionEvent => ({
  sessionId,
  kind: 'message_chunk',
  role: 'agent',
  messageId: 'm',
  content: { type: 'text', text },
});

describe('SessionGate (updates only for sessions the agent opened here)', () => {
  it('drops and reports updates for sessions the agent never opened or resumed', () => {
    const warnings: string[] = [];
    const gate = new SessionGate((m) => warnings.push(m));
    gate.allow('mine');
    assert.equal(gate.admit(chunk('mine')), true);
    assert.equal(gate.admit(chunk('other-agents-session')), false);
    assert.equal(gate.admit(chunk('other-agents-session')), false);
    assert.equal(gate.droppedCount, 2);
    assert.equal(warnings.length, 1, 'one line per unknown session id');
    assert.match(warnings[0]!, /never opened or resumed here/);
  });

  it('admits a child a known session announces, but never one taken from the agent (closed, failed resume)', () => {
    const gate = new SessionGate(() => undefined);
    const child = (id: string): SessionEvent => ({ sessionId: 'parent', kind: 'subagent', childSessionId: id });
    gate.allow('parent');
    gate.allow('closed');
    gate.forget('closed');
    assert.equal(gate.admit(child('kid')), true);
    assert.equal(gate.admit(chunk('kid')), true);
    assert.equal(gate.admit(child('closed')), false, 'a closed session does not come back as a child');
    assert.equal(gate.admit(chunk('closed')), false);
    gate.allow('closed'); // the user resumes it
    assert.equal(gate.admit(chunk('closed')), true);
  });

  it('refuses a session the user closed (updates, services, child announcements, a new connection) until it is allowed again', async () => {
    const warnings: string[] = [];
    const gate = new SessionGate((m) => warnings.push(m));
    const child = (id: string): SessionEvent => ({ sessionId: 'parent', kind: 'subagent', childSessionId: id });
    let written = 0;
    const services = gate.guard({
      writeTextFile: () => {
        written++;
        return Promise.resolve();
      },
    });
    gate.allow('parent');
    gate.allow('s');
    gate.close('s');
    for (let i = 0; i < 1_001; i++) gate.forget(`other-${i}`); // the bookkeeping of failed resumes is cleared; closes stay
    gate.creatingStarted();
    assert.equal(gate.admit(chunk('s')), false, 'not even held while a session/new is in flight');
    assert.deepEqual(gate.creatingEnded('new'), []);
    assert.equal(gate.admit(child('s')), false, 'a child announcement does not re-admit it');
    assert.equal(gate.has('s'), false);
    await assert.rejects(services.writeTextFile!({ sessionId: 's', path: '/x', content: '' }), /was closed in this client/);
    gate.reset(); // a new connection
    gate.allow('parent');
    assert.equal(gate.admit(child('s')), false);
    assert.equal(written, 0);
    assert.equal(warnings.length, 1, 'reported once');
    assert.match(warnings[0]!, /"s", which was closed here/);
    gate.allow('s'); // the user resumes it
    assert.equal(gate.admit(chunk('s')), true);
    await services.writeTextFile!({ sessionId: 's', path: '/x', content: '' });
    assert.equal(written, 1);
  });

  it('100,000 invented session ids: all dropped, the log stays short', () => {
    const warnings: string[] = [];
    const gate = new SessionGate((m) => warnings.push(m));
    for (let i = 0; i < 100_000; i++) assert.equal(gate.admit(chunk(`invented-${i}`)), false);
    assert.equal(gate.droppedCount, 100_000);
    assert.ok(warnings.length <= 30, `${warnings.length} log lines`);
  });

  it('holds updates for the session a session/new in flight announces, and delivers them in order once it answers', () => {
    const gate = new SessionGate(() => undefined);
    gate.creatingStarted();
    assert.equal(gate.admit(chunk('new-1', 'a')), false);
    assert.equal(gate.admit(chunk('stranger')), false);
    assert.equal(gate.admit(chunk('new-1', 'b')), false);
    const held = gate.creatingEnded('new-1');
    assert.deepEqual(
      held.map((e) => e.kind === 'message_chunk' && e.content.type === 'text' && e.content.text),
      ['a', 'b'],
    );
    assert.equal(gate.droppedCount, 1, 'the stranger is dropped when no creation is in flight any more');
    assert.equal(gate.admit(chunk('new-1')), true);
  });

  it('holds a bounded number of updates, and forgets everything on a new connection', () => {
    const gate = new SessionGate(() => undefined);
    gate.creatingStarted();
    for (let i = 0; i < 5_000; i++) gate.admit(chunk('new-1'));
    assert.equal(gate.creatingEnded('new-1').length, 1_000);
    gate.reset();
    assert.equal(gate.admit(chunk('new-1')), false);
  });
});
