// SessionActions.steer over fake agents (test/unit/app/fakeAgents.ts): while a turn runs and the
// agent advertises steering, the message goes to the agent now; taken (`injected`) it is not
// queued; not taken (failed, the turn had ended, an answer we do not know) it lands in the queue
// with a typed note the view words, and goes out when the turn ends. Without the advertisement,
// or with no turn running, steer is the prompt box's old path: queued, or sent.
import * as assert from 'node:assert/strict';
import { SessionActions } from '../../../src/app/sessionActions';
import { canSteer } from '../../../src/app/steering/steerTurn';
import { PermissionBroker, type KeyValueStore } from '../../../src/app/permissionBroker';
import { SessionStore, type SessionKey } from '../../../src/state/sessionStore';
import { FakeAgent, FakeAgents, FakeSessionUi, FakeSignInUi, fakeLog, fakeWorkspace } from './fakeAgents';

const text = (t: string) => [{ type: 'text' as const, text: t }];

function memory(): KeyValueStore {
  const m = new Map<string, unknown>();
  return { get: (k) => m.get(k), update: (k, v) => Promise.resolve(void m.set(k, v)) };
}

describe('SessionActions.steer', () => {
  let store: SessionStore;
  let agents: FakeAgents;
  let agent: FakeAgent;
  let broker: PermissionBroker;
  let actions: SessionActions;
  let ref: SessionKey;

  beforeEach(async () => {
    store = new SessionStore();
    agents = new FakeAgents();
    agent = agents.add(new FakeAgent('a', 'Agent A'));
    broker = new PermissionBroker(memory(), store, undefined);
    actions = new SessionActions({ agents, store, broker, workspace: fakeWorkspace(), log: fakeLog(), ui: new FakeSessionUi(), signInUi: new FakeSignInUi() });
    agent.lifecycle = (e) => actions.applyLifecycle(agent.id, e);
    ref = await actions.newSession('a');
    agent.connection!.steering = true;
    assert.equal(actions.prompt(ref, text('build it')), 'sent');
  });
  afterEach(() => {
    actions.dispose();
    broker.dispose();
    store.dispose();
  });

  const queue = () => store.session('a', ref.sessionId)!.queued.map((q) => ({ text: q.text, note: q.note }));
  const sent = () => agent.sent.map((s) => s.text);
  const turnEnds = () => store.applyEvent('a', { kind: 'state', sessionId: ref.sessionId, state: 'idle' });

  it('sends into the running turn when the agent takes it: nothing queued, no new prompt', async () => {
    assert.equal(canSteer({ agents, store }, ref), true);
    assert.equal(await actions.steer(ref, text('use the fixtures')), 'steered');
    assert.deepEqual(agent.connection!.steered, ['use the fixtures']);
    assert.deepEqual(queue(), []);
    turnEnds();
    assert.deepEqual(sent(), ['build it'], 'a steered message is not sent again as a prompt');
  });

  it('a steer the agent failed goes to the queue with its reason, and is sent when the turn ends', async () => {
    agent.connection!.steerAnswer = { kind: 'failed', reason: 'the model cannot take input now' };
    assert.equal(await actions.steer(ref, text('use the fixtures')), 'queued');
    assert.deepEqual(queue(), [{ text: 'use the fixtures', note: { code: 'steerFailed', reason: 'the model cannot take input now' } }]);
    turnEnds();
    assert.deepEqual(sent(), ['build it', 'use the fixtures']);
  });

  it('prompt required (the turn had ended) and an unknown answer go to the queue, saying so', async () => {
    agent.connection!.steerAnswer = { kind: 'promptRequired', reason: 'noRunningTurn' };
    assert.equal(await actions.steer(ref, text('one')), 'queued');
    agent.connection!.steerAnswer = { kind: 'unknown', raw: { outcome: 'later' } };
    assert.equal(await actions.steer(ref, text('two')), 'queued');
    assert.deepEqual(queue(), [
      { text: 'one', note: { code: 'steerPromptRequired' } },
      { text: 'two', note: { code: 'steerUnknown' } },
    ]);
  });

  it('a new turn the agent started with it is not queued', async () => {
    agent.connection!.steerAnswer = { kind: 'newTurn' };
    assert.equal(await actions.steer(ref, text('next')), 'newTurn');
    assert.deepEqual(queue(), []);
  });

  it('without the advertisement steer is not offered: the message is queued as before, the agent never asked', async () => {
    agent.connection!.steering = false;
    assert.equal(canSteer({ agents, store }, ref), false);
    assert.equal(await actions.steer(ref, text('later')), 'queued');
    assert.deepEqual(agent.connection!.steered, []);
    assert.deepEqual(queue(), [{ text: 'later', note: undefined }]);
  });

  it('with no turn running it is a prompt, sent at once', async () => {
    turnEnds();
    assert.equal(canSteer({ agents, store }, ref), false);
    assert.equal(await actions.steer(ref, text('now')), 'sent');
    assert.deepEqual(agent.connection!.steered, []);
    assert.deepEqual(sent(), ['build it', 'now']);
  });
});
