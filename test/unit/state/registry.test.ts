import assert from 'node:assert/strict';
import { Registry, type RegistryChange } from '../../../src/state/registry';

function setup(): { reg: Registry; changes: RegistryChange[] } {
  const reg = new Registry();
  const changes: RegistryChange[] = [];
  reg.onDidChange((c) => changes.push(c));
  return { reg, changes };
}

describe('Registry', () => {
  it('tracks agents and their status, firing only on real changes', () => {
    const { reg, changes } = setup();
    reg.upsertAgent({ id: 'a', name: 'Demo' });
    assert.equal(reg.agent('a')?.status, 'starting');
    reg.setAgentStatus('a', 'running');
    reg.setAgentStatus('a', 'running');
    reg.setProtocolVersion('a', 2);
    reg.setAgentStatus('a', 'crashed', 'exit code 1');
    assert.deepEqual(reg.agent('a'), { id: 'a', name: 'Demo', status: 'crashed', protocolVersion: 2, detail: 'exit code 1' });
    reg.setAgentStatus('a', 'starting');
    assert.equal(reg.agent('a')?.detail, undefined);
    assert.deepEqual(changes.map((c) => c.scope === 'agent' && c.kind), ['added', 'updated', 'updated', 'updated', 'updated']);
  });

  it('adds and removes sessions, and keeps the active one consistent', () => {
    const { reg, changes } = setup();
    reg.upsertAgent({ id: 'a', name: 'Demo', status: 'running' });
    reg.addSession({ agentId: 'a', sessionId: 's1', cwd: '/w' });
    reg.setActiveSession({ agentId: 'a', sessionId: 's1' });
    assert.deepEqual(reg.session('a', 's1'), { agentId: 'a', sessionId: 's1', turnState: 'idle', pendingPermissions: 0, cwd: '/w' });
    reg.setPendingPermissions('a', 's1', 2);
    assert.equal(reg.session('a', 's1')?.pendingPermissions, 2);
    reg.removeSession('a', 's1');
    assert.equal(reg.activeSession, undefined);
    assert.deepEqual(changes.slice(-2), [
      { scope: 'session', kind: 'removed', agentId: 'a', sessionId: 's1' },
      { scope: 'active', previous: { agentId: 'a', sessionId: 's1' } },
    ]);
  });

  it('applies state and session_info events with patch semantics', () => {
    const { reg } = setup();
    reg.apply('a', { sessionId: 's', kind: 'state', state: 'running' });
    assert.equal(reg.agent('a')?.status, 'running', 'an unknown agent is added');
    assert.equal(reg.session('a', 's')?.turnState, 'running');
    reg.apply('a', { sessionId: 's', kind: 'state', state: 'idle', stopReason: 'end_turn' });
    assert.equal(reg.session('a', 's')?.stopReason, 'end_turn');
    reg.apply('a', { sessionId: 's', kind: 'state', state: 'running' });
    assert.equal(reg.session('a', 's')?.stopReason, undefined, 'a new turn forgets the stop reason');
    reg.apply('a', { sessionId: 's', kind: 'state', state: 'idle', stopReason: 'refusal', error: { code: 1, message: 'boom' } });
    assert.deepEqual(reg.session('a', 's')?.error, { code: 1, message: 'boom' });
    reg.apply('a', { sessionId: 's', kind: 'session_info', title: 'Fix bug' });
    assert.equal(reg.session('a', 's')?.title, 'Fix bug');
    reg.apply('a', { sessionId: 's', kind: 'session_info', updatedAt: '2025-01-01' });
    assert.equal(reg.session('a', 's')?.title, 'Fix bug', 'omitted title unchanged');
    reg.apply('a', { sessionId: 's', kind: 'session_info', title: null });
    assert.equal(reg.session('a', 's')?.title, undefined, 'null clears');
    reg.apply('a', { sessionId: 's', kind: 'state', state: 'requires_action' });
    assert.equal(reg.session('a', 's')?.turnState, 'requires_action');
  });

  it('removes an agent with its sessions and gives plain snapshots', () => {
    const { reg } = setup();
    reg.upsertAgent({ id: 'a', name: 'A', status: 'running', protocolVersion: 1 });
    reg.addSession({ agentId: 'a', sessionId: 's1', title: 'T' });
    reg.setActiveSession({ agentId: 'a', sessionId: 's1' });
    const snap = reg.snapshot();
    assert.deepEqual(snap, JSON.parse(JSON.stringify(snap)));
    assert.equal(snap.sessions[0]?.title, 'T');
    assert.deepEqual(snap.activeSession, { agentId: 'a', sessionId: 's1' });
    reg.removeAgent('a');
    assert.deepEqual(reg.snapshot(), { agents: [], sessions: [] });
  });
});
