// Notifications that follow the user (AttentionWatcher) without VS Code: a turn that ends or fails,
// or an elicitation that starts waiting, is notified only while the user is away and the setting is
// on; a cancelled turn, a subagent, a session of a stopped agent and a replayed recording are not;
// "Show Session" brings the user to the session, unless the request was already answered, which is
// said instead. Agent text cannot form a Markdown link in a notification.
import * as assert from 'node:assert/strict';
import { AttentionWatcher, toastText, type AttentionNotice, type AttentionUi } from '../../../src/app/attention';
import { SessionStore, type SessionKey } from '../../../src/state/sessionStore';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

class FakeUi implements AttentionUi {
  on = true;
  isAway = true;
  click = false;
  readonly notices: AttentionNotice[] = [];
  readonly shown: SessionKey[] = [];
  readonly said: string[] = [];
  enabled = (): boolean => this.on;
  away = (): boolean => this.isAway;
  notify(n: AttentionNotice): Promise<boolean> {
    this.notices.push(n);
    return Promise.resolve(this.click);
  }
  showSession(ref: SessionKey): void {
    this.shown.push(ref);
  }
  say(m: string): void {
    this.said.push(m);
  }
}

function setup(agentId = 'demo'): { store: SessionStore; ui: FakeUi; watcher: AttentionWatcher } {
  const store = new SessionStore();
  store.setAgent({ id: agentId, name: 'Demo Agent', status: 'running' });
  store.attachSession(agentId, 's1', { title: 'Fix the build' });
  const ui = new FakeUi();
  return { store, ui, watcher: new AttentionWatcher(store, ui) };
}

function turn(store: SessionStore, stopReason?: string, error?: { code: number; message: string }, agentId = 'demo'): void {
  store.turnStarted(agentId, 's1');
  store.applyEvent(agentId, { kind: 'state', sessionId: 's1', state: 'idle', ...(stopReason ? { stopReason } : {}), ...(error ? { error } : {}) });
}

describe('AttentionWatcher', () => {
  it('notifies a finished turn while the user is away, and not while they look', () => {
    const { store, ui, watcher } = setup();
    ui.isAway = false;
    turn(store, 'end_turn');
    assert.equal(ui.notices.length, 0, 'the user is looking: no notification');
    ui.isAway = true;
    turn(store, 'end_turn');
    assert.deepEqual(
      ui.notices.map((n) => [n.kind, n.message, n.severity]),
      [['turnEnded', 'Demo Agent finished in "Fix the build".', 'info']],
    );
    watcher.dispose();
  });

  it('a failed turn is a warning with the error; a cancelled one is not notified', () => {
    const { store, ui, watcher } = setup();
    turn(store, 'cancelled');
    assert.equal(ui.notices.length, 0, 'the user cancelled it');
    turn(store, undefined, { code: -32603, message: 'Model overloaded' });
    assert.deepEqual(
      ui.notices.map((n) => [n.kind, n.message, n.severity]),
      [['turnFailed', `Demo Agent's turn failed in "Fix the build": Model overloaded`, 'warning']],
    );
    watcher.dispose();
  });

  it('the setting off, a subagent, a stopped agent or a replayed recording: no notification', () => {
    const { store, ui, watcher } = setup();
    ui.on = false;
    turn(store, 'end_turn');
    ui.on = true;
    store.attachSession('demo', 'child', { parentSessionId: 's1' });
    store.turnStarted('demo', 'child');
    store.applyEvent('demo', { kind: 'state', sessionId: 'child', state: 'idle', stopReason: 'end_turn' });
    store.turnStarted('demo', 's1');
    store.setAgent({ id: 'demo', name: 'Demo Agent', status: 'stopped' });
    store.applyEvent('demo', { kind: 'state', sessionId: 's1', state: 'idle', stopReason: 'end_turn' });
    assert.equal(ui.notices.length, 0);
    watcher.dispose();
    const replay = setup('recording:demo.ndjson');
    turn(replay.store, 'end_turn', undefined, 'recording:demo.ndjson');
    assert.equal(replay.ui.notices.length, 0, 'a replayed turn is not news');
    replay.watcher.dispose();
  });

  it('an elicitation waiting: Show Session brings the user there; after it was answered, says so and does nothing else', async () => {
    const { store, ui, watcher } = setup();
    ui.click = true;
    store.setPendingElicitations('demo', 's1', 1);
    await tick();
    assert.deepEqual(
      ui.notices.map((n) => n.message),
      ['Demo Agent is waiting for your answer in "Fix the build".'],
    );
    assert.deepEqual(ui.shown, [{ agentId: 'demo', sessionId: 's1' }]);
    // The next one is answered in the conversation before the user clicks the notification.
    let release!: (v: boolean) => void;
    ui.notify = (n) => (ui.notices.push(n), new Promise<boolean>((r) => (release = r)));
    store.setPendingElicitations('demo', 's1', 0);
    store.setPendingElicitations('demo', 's1', 1);
    store.setPendingElicitations('demo', 's1', 0);
    release(true);
    await tick();
    assert.equal(ui.shown.length, 1, 'the late click did not move the user');
    assert.deepEqual(ui.said, ['That request was already answered; nothing was changed.']);
    watcher.dispose();
  });

  it('agent text cannot form a link in a notification, and is kept short', () => {
    assert.equal(toastText('see [here](command:workbench.action.terminal.new)'), 'see [here] (command:workbench.action.terminal.new)');
    assert.equal(toastText('a\n\nb'), 'a b');
    assert.equal(toastText('x'.repeat(500)).length, 120);
    const { store, ui, watcher } = setup();
    store.applyEvent('demo', { kind: 'session_info', sessionId: 's1', title: '[Open](https://evil.example)' });
    turn(store, 'end_turn');
    assert.ok(!/\]\(/.test(ui.notices[0]!.message), ui.notices[0]!.message);
    watcher.dispose();
  });
});
