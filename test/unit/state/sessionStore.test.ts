import assert from 'node:assert/strict';
import { SessionStore, type PendingPermission, type StoreChange } from '../../../src/state/sessionStore';

function setup(): { store: SessionStore; changes: StoreChange[] } {
  const store = new SessionStore();
  const changes: StoreChange[] = [];
  store.onDidChange((c) => changes.push(c));
  return { store, changes };
}

function pending(id: string, sessionId = 's1'): PendingPermission {
  return { id, agentId: 'a', agentName: 'A', request: { sessionId, title: 'Run', options: [] } as never, flags: [], createdAt: 0 };
}

describe('SessionStore', () => {
  it('tracks agents and their status, firing only on real changes', () => {
    const { store, changes } = setup();
    store.setAgent({ id: 'a', name: 'Demo', status: 'starting' });
    store.setAgent({ id: 'a', name: 'Demo', status: 'running', protocolVersion: 2 });
    store.setAgent({ id: 'a', name: 'Demo', status: 'running', protocolVersion: 2 });
    store.setAgent({ id: 'a', name: 'Demo', status: 'restarting', detail: 'Demo exited with code 1 while idle.' });
    assert.deepEqual(store.agent('a'), { id: 'a', name: 'Demo', status: 'restarting', protocolVersion: 2, detail: 'Demo exited with code 1 while idle.' });
    store.setAgent({ id: 'a', name: 'Demo', status: 'running' });
    assert.equal(store.agent('a')?.detail, undefined, 'a status without detail clears it');
    assert.equal(store.agent('a')?.protocolVersion, 2, 'the version is kept');
    assert.deepEqual(
      changes.map((c) => c.scope === 'agent' && c.kind),
      ['added', 'updated', 'updated', 'updated'],
    );
  });

  it('attaches, detaches and removes sessions, and keeps the active one consistent', () => {
    const { store, changes } = setup();
    store.setAgent({ id: 'a', name: 'Demo', status: 'running' });
    store.attachSession('a', 's1', { cwd: '/w' });
    store.setActiveSession({ agentId: 'a', sessionId: 's1' });
    assert.deepEqual(store.session('a', 's1'), {
      agentId: 'a',
      sessionId: 's1',
      live: true,
      turnState: 'idle',
      queued: [],
      configOptions: [],
      pendingPermissions: [],
      cwd: '/w',
    });
    store.enqueue('a', 's1', [{ type: 'text', text: 'next' }]);
    store.detachSession('a', 's1');
    assert.equal(store.session('a', 's1')?.live, false);
    assert.equal(store.session('a', 's1')?.queued.length, 1, 'a detached session keeps its queue (sent once it is back)');
    store.attachSession('a', 's1');
    assert.equal(store.session('a', 's1')?.live, true);
    assert.equal(store.session('a', 's1')?.cwd, '/w', 'reattaching keeps what was known');
    store.removeSession('a', 's1');
    assert.equal(store.activeSession, undefined);
    assert.deepEqual(changes.slice(-2), [
      { scope: 'session', kind: 'removed', agentId: 'a', sessionId: 's1' },
      { scope: 'active', previous: { agentId: 'a', sessionId: 's1' } },
    ]);
  });

  it('keys sessions by agent: the same session id under two agents is two sessions', () => {
    const { store } = setup();
    store.attachSession('a', 's', { title: 'A' });
    store.attachSession('b', 's', { title: 'B' });
    store.applyEvent('b', { sessionId: 's', kind: 'state', state: 'running' });
    assert.equal(store.session('a', 's')?.turnState, 'idle');
    assert.equal(store.session('b', 's')?.turnState, 'running');
    assert.equal(store.session('a', 's')?.title, 'A');
  });

  it('applies state, session_info and config_options events with patch semantics', () => {
    const { store } = setup();
    store.applyEvent('a', { sessionId: 's', kind: 'state', state: 'running' });
    assert.equal(store.session('a', 's')?.turnState, 'running', 'an unannounced session is added');
    store.applyEvent('a', { sessionId: 's', kind: 'state', state: 'idle', stopReason: 'end_turn' });
    assert.equal(store.session('a', 's')?.stopReason, 'end_turn');
    store.applyEvent('a', { sessionId: 's', kind: 'state', state: 'running' });
    assert.equal(store.session('a', 's')?.stopReason, undefined, 'a new turn forgets the stop reason');
    store.applyEvent('a', { sessionId: 's', kind: 'state', state: 'idle', stopReason: 'refusal', error: { code: 1, message: 'boom' } });
    assert.deepEqual(store.session('a', 's')?.error, { code: 1, message: 'boom' });
    store.applyEvent('a', { sessionId: 's', kind: 'session_info', title: 'Fix bug' });
    store.applyEvent('a', { sessionId: 's', kind: 'session_info', updatedAt: '2025-01-01' });
    assert.equal(store.session('a', 's')?.title, 'Fix bug', 'omitted title unchanged');
    store.applyEvent('a', { sessionId: 's', kind: 'session_info', title: null });
    assert.equal(store.session('a', 's')?.title, undefined, 'null clears');
    store.applyEvent('a', { sessionId: 's', kind: 'config_options', options: [{ kind: 'boolean', id: 'x', name: 'X', currentValue: true }] as never });
    assert.equal(store.session('a', 's')?.configOptions.length, 1);
  });

  it('owns the turn and the prompt queue: a sent prompt starts the turn, queued prompts come out in order', () => {
    const { store } = setup();
    store.attachSession('a', 's1');
    store.applyEvent('a', { sessionId: 's1', kind: 'state', state: 'idle', stopReason: 'end_turn' });
    store.turnStarted('a', 's1');
    assert.equal(store.session('a', 's1')?.turnState, 'running');
    assert.equal(store.session('a', 's1')?.stopReason, undefined);
    const q1 = store.enqueue('a', 's1', [{ type: 'text', text: 'one' }])!;
    const q2 = store.enqueue('a', 's1', [{ type: 'text', text: 'two' }, { type: 'resource_link', name: 'app.ts', uri: 'file:///w/app.ts' } as never])!;
    assert.equal(q2.text, 'two @app.ts');
    assert.notEqual(q1.id, q2.id);
    assert.equal(store.enqueue('a', 'nope', [{ type: 'text', text: 'x' }]), undefined, 'no queue for an unknown session');
    assert.equal(store.removeQueued('a', 's1', q1.id), true);
    assert.equal(store.removeQueued('a', 's1', q1.id), false);
    assert.equal(store.dequeue('a', 's1')?.id, q2.id);
    assert.equal(store.dequeue('a', 's1'), undefined);
  });

  it('holds pending permission requests per session', () => {
    const { store } = setup();
    store.setAgent({ id: 'a', name: 'A', status: 'running' });
    store.attachSession('a', 's1');
    store.addPendingPermission(pending('p1'));
    store.addPendingPermission(pending('p2'));
    assert.deepEqual(
      store.session('a', 's1')?.pendingPermissions.map((p) => p.id),
      ['p1', 'p2'],
    );
    store.removePendingPermission('a', 's1', 'p1');
    assert.deepEqual(
      store.pendingPermissions().map((p) => p.id),
      ['p2'],
    );
  });

  it('lists child sessions of a parent', () => {
    const { store } = setup();
    store.attachSession('a', 'parent');
    store.attachSession('a', 'child', { parentSessionId: 'parent' });
    assert.deepEqual(
      store.children('a', 'parent').map((s) => s.sessionId),
      ['child'],
    );
  });

  it('removes an agent with its sessions and gives plain snapshots', () => {
    const { store } = setup();
    store.setAgent({ id: 'a', name: 'A', status: 'running', protocolVersion: 1 });
    store.attachSession('a', 's1', { title: 'T' });
    store.setActiveSession({ agentId: 'a', sessionId: 's1' });
    const snap = store.snapshot();
    assert.deepEqual(snap, JSON.parse(JSON.stringify(snap)));
    assert.equal(snap.sessions[0]?.title, 'T');
    assert.deepEqual(snap.activeSession, { agentId: 'a', sessionId: 's1' });
    store.removeAgent('a');
    assert.deepEqual(store.snapshot(), { agents: [], sessions: [] });
  });
});

describe('Transcript keyed by (agent, session)', () => {
  it('two agents using the same session id get two transcripts', async () => {
    const { Transcript } = await import('../../../src/state/transcript');
    const { sessionKey, parseSessionKey } = await import('../../../src/state/sessionStore');
    const t = new Transcript();
    const ev = (text: string) => ({
      sessionId: 'sess-1',
      kind: 'message_chunk' as const,
      role: 'agent' as const,
      messageId: 'm1',
      content: { type: 'text' as const, text },
    });
    t.apply(ev('from A'), sessionKey('a', 'sess-1'));
    t.apply(ev('from B'), sessionKey('b', 'sess-1'));
    const text = (key: string) =>
      t
        .session(key)!
        .slice(0)
        .map((i) => (i.kind === 'message' ? i.parts.map((p) => (p.type === 'text' ? p.chunks.join('') : '')).join('') : ''))
        .join('');
    assert.equal(text(sessionKey('a', 'sess-1')), 'from A');
    assert.equal(text(sessionKey('b', 'sess-1')), 'from B');
    assert.deepEqual(parseSessionKey(sessionKey('agent:x', 'id\u0000odd')), { agentId: 'agent:x', sessionId: 'id\u0000odd' });
    assert.equal(parseSessionKey('plain'), undefined);
  });
});
