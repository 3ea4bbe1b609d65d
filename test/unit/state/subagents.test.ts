// Subagents and background work in the stores: the SessionStore nests a child under the parent
// that announced it, keeps the background snapshot and the cancel controls; the transcript shows
// inter-session messages with their route; the gate admits announced children, and only those.
import * as assert from 'node:assert/strict';
import { SessionGate } from '../../../src/agents/sessionGate';
import type { SessionEvent } from '../../../src/protocol/domain';
import { SessionStore } from '../../../src/state/sessionStore';
import { MAX_CONTROLS } from '../../../src/state/subagentState';
import { Transcript } from '../../../src/state/transcript';
import { messageText } from '../../../src/state/transcript/model';

const A = 'agent';
const sub = (sessionId: string, child: string, extra: Partial<Extract<SessionEvent, { kind: 'subagent' }>> = {}): SessionEvent => ({
  sessionId,
  kind: 'subagent',
  childSessionId: child,
  ...extra,
});

function store(): SessionStore {
  const s = new SessionStore();
  s.setAgent({ id: A, name: 'Agent', status: 'running' });
  s.attachSession(A, 'p');
  return s;
}

describe('SessionStore: subagents and background work', () => {
  it('a subagent_update adds the child under its parent, with title, role, state and cancel capability', () => {
    const s = store();
    s.applyEvent(A, sub('p', 'c1', { title: 'Researcher', description: 'reads code', state: 'running', capabilities: { cancel: true } }));
    const c = s.session(A, 'c1')!;
    assert.equal(c.parentSessionId, 'p');
    assert.equal(c.title, 'Researcher');
    assert.equal(c.turnState, 'running');
    assert.deepEqual(c.subagent, { description: 'reads code', cancellable: true, state: 'running' });
    assert.deepEqual(
      s.children(A, 'p').map((x) => x.sessionId),
      ['c1'],
    );
    // Another session can neither move the child nor patch it.
    s.attachSession(A, 'q');
    s.applyEvent(A, sub('q', 'c1', { title: 'Hijacked', description: null, capabilities: null }));
    assert.equal(s.session(A, 'c1')!.parentSessionId, 'p');
    assert.equal(s.session(A, 'c1')!.title, 'Researcher');
    assert.deepEqual(s.session(A, 'c1')!.subagent, { description: 'reads code', cancellable: true, state: 'running' });
    // From its parent: omitted keeps, null clears.
    s.applyEvent(A, sub('p', 'c1', { description: null, capabilities: null }));
    assert.deepEqual(s.session(A, 'c1')!.subagent, { cancellable: false, state: 'running' });
  });

  it('a session that exists never becomes a child (no cycles): p announcing its own parent changes no parent', () => {
    const s = store();
    s.applyEvent(A, sub('p', 'c1'));
    s.applyEvent(A, sub('c1', 'p'));
    assert.equal(s.session(A, 'p')!.parentSessionId, undefined);
    assert.equal(s.session(A, 'c1')!.parentSessionId, 'p');
  });

  it('keeps the background snapshot of state updates; an omitted list keeps it, null drops it', () => {
    const s = store();
    s.applyEvent(A, { sessionId: 'p', kind: 'state', state: 'idle', stopReason: 'end_turn', background: [{ type: 'terminal', terminalId: 't1' }] });
    assert.deepEqual(s.session(A, 'p')!.background, [{ type: 'terminal', terminalId: 't1' }]);
    s.applyEvent(A, { sessionId: 'p', kind: 'state', state: 'running' });
    assert.equal(s.session(A, 'p')!.background?.length, 1);
    s.applyEvent(A, { sessionId: 'p', kind: 'state', state: 'idle', background: [] });
    assert.deepEqual(s.session(A, 'p')!.background, []);
    s.applyEvent(A, { sessionId: 'p', kind: 'state', state: 'idle', background: null });
    assert.equal(s.session(A, 'p')!.background, undefined);
  });

  it('controls: cancel offered by a tool call or terminal until cleared, finished or exited; bounded', () => {
    const s = store();
    s.applyEvent(A, { sessionId: 'p', kind: 'tool_call', toolCallId: 'c1', fields: { status: 'in_progress', capabilities: { cancel: true } } });
    s.applyEvent(A, { sessionId: 'p', kind: 'terminal_update', terminalId: 't1', capabilities: { cancel: true } });
    assert.deepEqual(s.session(A, 'p')!.controls, { terminals: ['t1'], toolCalls: ['c1'] });
    s.applyEvent(A, { sessionId: 'p', kind: 'terminal_update', terminalId: 't1', output: '' });
    assert.deepEqual(s.session(A, 'p')!.controls?.terminals, ['t1'], 'an update without capabilities keeps them');
    s.applyEvent(A, { sessionId: 'p', kind: 'terminal_update', terminalId: 't1', exitStatus: { exitCode: 0 } });
    s.applyEvent(A, { sessionId: 'p', kind: 'tool_call', toolCallId: 'c1', fields: { status: 'completed' } });
    assert.equal(s.session(A, 'p')!.controls, undefined);
    for (let i = 0; i < MAX_CONTROLS + 50; i++)
      s.applyEvent(A, { sessionId: 'p', kind: 'tool_call', toolCallId: `x${i}`, fields: { capabilities: { cancel: true } } });
    assert.equal(s.session(A, 'p')!.controls!.toolCalls.length, MAX_CONTROLS);
  });
});

describe('Transcript: inter-session messages', () => {
  it('a session_message and its chunks form one message with its sender and recipient; the route follows patch semantics', () => {
    const t = new Transcript();
    t.apply({
      sessionId: 'b',
      kind: 'session_message',
      messageId: 'm1',
      senderSessionId: 'a',
      recipientSessionId: 'b',
      content: [{ type: 'text', text: 'Found 3' }],
    });
    t.apply({ sessionId: 'b', kind: 'session_message_chunk', messageId: 'm1', content: { type: 'text', text: ' entry points' } });
    t.apply({ sessionId: 'b', kind: 'session_message', messageId: 'm1', recipientSessionId: null });
    const item = t.session('b')!.item('m:session:m1');
    assert.ok(item?.kind === 'message');
    assert.equal(item.role, 'session');
    assert.equal(messageText(item), 'Found 3 entry points');
    assert.deepEqual(item.route, { from: 'a', to: null });
    // An agent message with the same id is another item.
    t.apply({ sessionId: 'b', kind: 'message_chunk', role: 'agent', messageId: 'm1', content: { type: 'text', text: 'x' } });
    assert.equal(t.session('b')!.size, 2);
  });
});

describe('Transcript: background tool calls at the end of a turn', () => {
  it('a tool call listed as background work is not marked unfinished; another open one is', () => {
    const t = new Transcript();
    t.apply({ sessionId: 's', kind: 'state', state: 'running' });
    for (const id of ['bg', 'open']) t.apply({ sessionId: 's', kind: 'tool_call', toolCallId: id, fields: { title: id, status: 'in_progress' } });
    t.apply({ sessionId: 's', kind: 'state', state: 'idle', stopReason: 'end_turn', background: [{ type: 'tool_call', toolCallId: 'bg' }] });
    const unfinished = (id: string) => {
      const i = t.session('s')!.item(`t:${id}`);
      return i?.kind === 'tool_call' && i.unfinished === true;
    };
    assert.equal(unfinished('bg'), false);
    assert.equal(unfinished('open'), true);
  });
});

describe('SessionGate: children', () => {
  const chunk = (sessionId: string): SessionEvent => ({
    sessionId,
    kind: 'message_chunk',
    role: 'agent',
    messageId: 'm',
    content: { type: 'text', text: 'x' },
  });

  it('admits a child announced by a known session, and not one announced by an unknown session', () => {
    const warnings: string[] = [];
    const gate = new SessionGate((m) => warnings.push(m));
    gate.allow('p');
    assert.equal(gate.admit(chunk('p:subagent:1')), false, 'before its announcement');
    assert.equal(gate.admit(sub('p', 'p:subagent:1')), true);
    assert.equal(gate.admit(chunk('p:subagent:1')), true);
    assert.equal(gate.has('p:subagent:1'), true, 'its permission requests reach the user');
    assert.equal(gate.admit(sub('p:subagent:1', 'p:subagent:1:1')), true, 'grandchildren too');
    assert.equal(gate.admit(sub('stranger', 'stolen')), false);
    assert.equal(gate.admit(chunk('stolen')), false);
    gate.reset();
    assert.equal(gate.admit(chunk('p:subagent:1')), false, 'a new connection knows no children');
  });

  it('admits at most 100 children per session and 500 per connection; the announcement past them still reaches the store', () => {
    const gate = new SessionGate(() => undefined);
    for (let p = 0; p < 7; p++) gate.allow(`p${p}`);
    let admitted = 0;
    for (let i = 0; i < 150; i++) if (gate.admit(sub('p0', `c${i}`)) && gate.has(`c${i}`)) admitted++;
    assert.equal(admitted, 100);
    assert.equal(gate.admit(sub('p0', 'c140')), true, 'delivered, for the SessionStore to ignore and say once');
    assert.equal(gate.admit(chunk('c140')), false, 'the child stays unknown');
    for (let p = 1; p < 7; p++) for (let i = 0; i < 100; i++) if (gate.admit(sub(`p${p}`, `c${p}-${i}`)) && gate.has(`c${p}-${i}`)) admitted++;
    assert.equal(admitted, 500);
  });
});
