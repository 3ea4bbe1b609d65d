// A session its agent cannot resume after a restart ends everywhere: the real AgentSupervisor
// (the scripted agent over real pipes, fake time) feeds the real SessionActions and SessionStore
// as the extension does; then the store marks it ended (no turn running, not live), a prompt is
// refused with a sentence (never queued or left "running"), and the status bar and conversation
// say it ended.
import * as assert from 'node:assert/strict';
import type { LifecycleEvent } from '../../../src/agents/supervisor';
import type { AgentSupervisor } from '../../../src/agents/supervisor';
import type { SessionEvent } from '../../../src/protocol/domain';
import { SessionActions } from '../../../src/app/sessionActions';
import { PermissionBroker, type KeyValueStore } from '../../../src/app/permissionBroker';
import { SessionStore } from '../../../src/state/sessionStore';
import { statusBarView } from '../../../src/ui/statusBarText';
import { sessionView } from '../../../src/ui/conversation/viewModel';
import { TestHost, scriptedAgent } from '../agents/support/supervisorHost';
import { cwd, text, useSupervisor } from '../agents/support/supervisorFixture';
import { FakeSessionUi, FakeSignInUi, fakeLog, fakeWorkspace } from './fakeAgents';

function memory(): KeyValueStore {
  const m = new Map<string, unknown>();
  return { get: (k) => m.get(k), update: (k, v) => Promise.resolve(void m.set(k, v)) };
}

/** Feeds the store and SessionActions as the extension does (core.ts). */
class WiredHost extends TestHost {
  readonly store = new SessionStore();
  actions: SessionActions | undefined;
  override onEvent(agentId: string, e: SessionEvent): void {
    super.onEvent(agentId, e);
    this.store.applyEvent(agentId, e);
  }
  override lifecycle(agentId: string, e: LifecycleEvent): void {
    super.lifecycle(agentId, e);
    this.actions?.applyLifecycle(agentId, e);
  }
}

describe('a session that could not be resumed ends everywhere', () => {
  let host: WiredHost;
  beforeEach(() => {
    host = new WiredHost();
  });
  const { supervise, crash, runRestart } = useSupervisor(() => host);

  it('ended in the store, no turn left running; a prompt is refused with a sentence; status bar and conversation say it', async () => {
    const sup: AgentSupervisor = supervise(scriptedAgent('v1', { noLoad: true }));
    const broker = new PermissionBroker(memory(), host.store, undefined);
    const ui = new FakeSessionUi();
    // A turn only starts once what runs before it settles (checkpoints in the product).
    const actions = new SessionActions({
      agents: { get: (id) => (id === sup.id ? sup : undefined), all: () => [sup], start: async () => (await sup.start(), sup) },
      store: host.store,
      broker,
      workspace: fakeWorkspace([cwd]),
      log: fakeLog(),
      ui,
      signInUi: new FakeSignInUi(),
      beforeTurn: () => Promise.resolve(),
    });
    host.actions = actions;
    try {
      const ref = await actions.newSession(sup.id);
      await crash(sup);
      await runRestart();
      const s = host.store.session(ref.agentId, ref.sessionId)!;
      assert.equal(s.ended, 'cannot_resume');
      assert.equal(s.live, false);
      assert.equal(s.turnState, 'idle');

      assert.throws(() => actions.prompt(ref, text('still there?')), /This session has ended/);
      const after = host.store.session(ref.agentId, ref.sessionId)!;
      assert.equal(after.turnState, 'idle', 'never "running" with nothing to end it');
      assert.deepEqual(after.queued, [], 'never queued forever');

      host.store.setActiveSession(ref);
      const bar = statusBarView({ sessionId: ref.sessionId, turnState: after.turnState, pendingPermissions: 0, ended: 'It ended.' }, []);
      assert.match(bar.text, /Session ended/);
      const view = sessionView(ref.sessionId, { commands: [] } as never, after);
      assert.equal(view.busy, false);
      assert.match(view.ended ?? '', /cannot resume sessions after a restart/);
    } finally {
      actions.dispose();
      broker.dispose();
      host.store.dispose();
    }
  });
});
