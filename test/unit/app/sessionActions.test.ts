// SessionActions without VS Code, over fake agents (test/unit/app/fakeAgents.ts): a prompt is sent
// when the session is idle and queued while a turn runs; a queue keeps its order across a crash the
// agent recovers from; cancel drops the queue and answers pending permissions `cancelled`; Stop
// drops the queues and tells the user with their texts; an auth_required refusal is retried once
// after the user signs in; a crash report's Restart goes through restartAgent; pickers get the
// agents as plain data with the SessionStore's status.
import * as assert from 'node:assert/strict';
import { SessionActions } from '../../../src/app/sessionActions';
import { PermissionBroker, type KeyValueStore } from '../../../src/app/permissionBroker';
import { SessionStore, type SessionKey } from '../../../src/state/sessionStore';
import { ErrorCodes, RpcError } from '../../../src/protocol/transport/errors';
import type { CancelToken } from '../../../src/protocol/api';
import type { PermissionOutcome } from '../../../src/protocol/domain';
import { FakeAgent, FakeAgents, FakeSessionUi, FakeSignInUi, fakeLog, fakeWorkspace } from './fakeAgents';

const text = (t: string) => [{ type: 'text' as const, text: t }];
const noToken: CancelToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };

function memory(): KeyValueStore {
  const m = new Map<string, unknown>();
  return { get: (k) => m.get(k), update: (k, v) => Promise.resolve(void m.set(k, v)) };
}

describe('SessionActions', () => {
  let store: SessionStore;
  let agents: FakeAgents;
  let agent: FakeAgent;
  let broker: PermissionBroker;
  let ui: FakeSessionUi;
  let signInUi: FakeSignInUi;
  let actions: SessionActions;

  beforeEach(() => {
    store = new SessionStore();
    agents = new FakeAgents();
    agent = agents.add(new FakeAgent('a', 'Agent A'));
    broker = new PermissionBroker(memory(), store, undefined);
    ui = new FakeSessionUi();
    signInUi = new FakeSignInUi();
    actions = new SessionActions({ agents, store, broker, workspace: fakeWorkspace(), log: fakeLog(), ui, signInUi });
    agent.lifecycle = (e) => actions.applyLifecycle(agent.id, e);
  });
  afterEach(() => {
    actions.dispose();
    broker.dispose();
    store.dispose();
  });

  const turnEnds = (ref: SessionKey) => store.applyEvent(ref.agentId, { kind: 'state', sessionId: ref.sessionId, state: 'idle' });
  const queued = (ref: SessionKey) => store.session(ref.agentId, ref.sessionId)!.queued.map((q) => q.text);

  it('sends a prompt when the session is idle and queues one while a turn runs; the queue drains when the turn ends', async () => {
    const ref = await actions.newSession('a');
    assert.equal(actions.prompt(ref, text('one')), 'sent');
    assert.equal(store.session('a', ref.sessionId)!.turnState, 'running');
    assert.equal(actions.prompt(ref, text('two')), 'queued');
    assert.equal(actions.prompt(ref, text('three')), 'queued');
    assert.deepEqual(
      agent.sent.map((s) => s.text),
      ['one'],
    );
    assert.deepEqual(queued(ref), ['two', 'three']);
    turnEnds(ref);
    assert.deepEqual(
      agent.sent.map((s) => s.text),
      ['one', 'two'],
      'one queued prompt per ended turn',
    );
    turnEnds(ref);
    assert.deepEqual(
      agent.sent.map((s) => s.text),
      ['one', 'two', 'three'],
    );
  });

  it('keeps the queue, in order, across a crash the agent recovers from and sends it once the session is back and idle', async () => {
    const ref = await actions.newSession('a');
    actions.prompt(ref, text('running'));
    // The agent crashes mid-turn; the supervisor will resume the session.
    agent.detach(ref.sessionId, true);
    agent.setStatus('restarting');
    assert.equal(actions.prompt(ref, text('first')), 'queued');
    assert.equal(actions.prompt(ref, text('second')), 'queued');
    assert.equal(ui.dropped.length, 0, 'nothing is dropped while the agent recovers');
    agent.setStatus('running');
    // Resuming, the agent replays the session (its last turn ended) before the session is attached.
    turnEnds(ref);
    assert.deepEqual(
      agent.sent.map((s) => s.text),
      ['running'],
      'not before the session is attached again',
    );
    agent.attach(ref.sessionId);
    assert.deepEqual(
      agent.sent.map((s) => s.text),
      ['running', 'first'],
      'the oldest once attached and idle',
    );
    turnEnds(ref);
    assert.deepEqual(
      agent.sent.map((s) => s.text),
      ['running', 'first', 'second'],
    );
  });

  it('cancel drops the queue and answers the pending permission requests `cancelled`', async () => {
    const ref = await actions.newSession('a');
    actions.prompt(ref, text('one'));
    actions.prompt(ref, text('later'));
    const answer = broker.request(
      'a',
      'Agent A',
      { sessionId: ref.sessionId, title: 'Run', options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] },
      noToken,
    );
    assert.equal(store.session('a', ref.sessionId)!.pendingPermissions.length, 1);
    actions.cancel(ref);
    assert.equal(broker.pending.length, 0, 'no permission request left waiting');
    assert.deepEqual<PermissionOutcome>(await answer, { outcome: 'cancelled' });
    assert.deepEqual(queued(ref), []);
    assert.deepEqual(agent.cancelled, [ref.sessionId]);
    turnEnds(ref);
    assert.deepEqual(
      agent.sent.map((s) => s.text),
      ['one'],
      'the dropped prompt is never sent',
    );
  });

  it('Stop drops the queues and tells the user, with the texts to copy', async () => {
    const ref = await actions.newSession('a');
    actions.prompt(ref, text('one'));
    actions.prompt(ref, text('x'));
    actions.prompt(ref, text('y'));
    await actions.stopAgent('a');
    assert.deepEqual(ui.dropped, [{ message: '2 queued prompts were not sent: Agent A was stopped.', texts: ['x', 'y'] }]);
    assert.deepEqual(queued(ref), []);
    assert.equal(agent.stops, 1);
  });

  it('retries an operation refused with auth_required once, after the user signed in with an agent method', async () => {
    let calls = 0;
    agent.onNewSession = () => (++calls === 1 ? Promise.reject(new RpcError(ErrorCodes.AuthRequired, 'Authentication required')) : Promise.resolve('s-signed'));
    await agents.start('a');
    agent.connection!.authMethods = [{ id: 'login', name: 'Log in', type: 'agent', raw: {} }];
    const ref = await actions.newSession('a');
    assert.deepEqual(ref, { agentId: 'a', sessionId: 's-signed' });
    assert.equal(calls, 2, 'session/new sent again once');
    assert.deepEqual(agent.connection!.authenticated, ['login']);
    assert.deepEqual(signInUi.asked, ['Agent A / open a session']);
  });

  it('says what to do when the user declines sign-in, and does not retry', async () => {
    let calls = 0;
    agent.onNewSession = () => (++calls, Promise.reject(new RpcError(ErrorCodes.AuthRequired, 'Authentication required')));
    signInUi.signIn = false;
    await assert.rejects(actions.newSession('a'), /Agent A asks you to sign in before it can open a session\. Run "ACP: Sign In", then try again\./);
    assert.equal(calls, 1);
    assert.deepEqual(agent.connection!.authenticated, []);
  });

  it("a crash report's Restart goes through restartAgent (pending permissions answered first)", async () => {
    const ref = await actions.newSession('a');
    const answer = broker.request(
      'a',
      'Agent A',
      { sessionId: ref.sessionId, title: 'Run', options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] },
      noToken,
    );
    ui.reportAnswer = 'restart';
    const restarted = new Promise<void>((resolve) => (agent.onRestart = resolve));
    actions.agentReported('a', 'Agent A exited with code 3.', 'error');
    await restarted;
    assert.equal(broker.pending.length, 0, 'restartAgent answered the waiting request first');
    assert.deepEqual<PermissionOutcome>(await answer, { outcome: 'cancelled' });
    assert.equal(agent.restarts, 1);
    assert.deepEqual(ui.reports, ['Agent A exited with code 3.']);
  });

  it('gives pickers plain data: status from the SessionStore, stopped for an agent not started yet', async () => {
    const b = agents.add(new FakeAgent('b', 'Agent B'));
    await actions.newSession('a');
    // The supervisor's own status before it reported it: pickers show what the SessionStore (and the tree) says.
    b.status = 'starting';
    assert.deepEqual(actions.agentChoices(), [
      { id: 'a', name: 'Agent A', status: 'running', detail: '/usr/bin/fake-agent --acp' },
      { id: 'b', name: 'Agent B', status: 'stopped', detail: '/usr/bin/fake-agent --acp' },
    ]);
    assert.deepEqual(
      actions.agentChoices('running').map((c) => c.id),
      ['a'],
    );
  });

  it('signs out only where the agent supports it, and lists sessions only where it can', async () => {
    await agents.start('a');
    agent.connection!.capabilities = { ...agent.connection!.capabilities, logout: false, list: false };
    assert.equal(await actions.signOut('a'), false);
    assert.equal(actions.canListSessions('a'), false);
    assert.deepEqual(ui.notices, ['Agent A does not support signing out.', 'Agent A cannot list its sessions.']);
    await assert.rejects(actions.listSessions('a', undefined), /Agent A cannot list its sessions/);
    agent.connection!.capabilities = { ...agent.connection!.capabilities, logout: true, list: true };
    assert.equal(await actions.signOut('a'), true);
    assert.equal(agent.connection!.loggedOut, 1);
    assert.deepEqual((await actions.listSessions('a', 'c2')).sessions, [{ sessionId: 'listed-c2', cwd: '/work/project' }]);
  });
});
