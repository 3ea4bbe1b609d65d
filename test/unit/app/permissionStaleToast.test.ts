// A permission request's notification stays on screen after the request was answered in the
// conversation (VS Code cannot close a notification): a late click on one of its buttons must
// answer nothing, and the user is told the request was already answered.
import * as assert from 'node:assert/strict';
import { PermissionBroker, type ConsentUi } from '../../../src/app/permissionBroker';
import type { CancelToken } from '../../../src/protocol/api';
import type { OptionView, RuleOffer } from '../../../src/consent/permissionRules';
import { SessionStore, type PendingPermission } from '../../../src/state/sessionStore';

const noToken: CancelToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** A notification that is clicked only when the test says so. */
class ClickableUi implements ConsentUi {
  readonly clicks: ((v: OptionView | undefined) => void)[] = [];
  readonly views: (readonly OptionView[])[] = [];
  readonly stale: string[] = [];
  ask(_e: PendingPermission, views: readonly OptionView[]): Promise<OptionView | undefined> {
    this.views.push(views);
    return new Promise((r) => this.clicks.push(r));
  }
  pickRule(offer: RuleOffer) {
    return Promise.resolve(offer.candidates[0] ?? null);
  }
  ruleCreated(): void {}
  warn(): void {}
  alreadyAnswered(e: PendingPermission): void {
    this.stale.push(e.id);
  }
}

describe('Permission notifications after the request was answered', () => {
  it('a late click on a stale notification answers nothing and says it was already answered', async () => {
    const store = new SessionStore();
    store.applyEvent('a', { sessionId: 's1', kind: 'session_info', title: 't' });
    const ui = new ClickableUi();
    const broker = new PermissionBroker({ get: () => undefined, update: () => Promise.resolve() }, store, ui);
    const options = [
      { optionId: 'once', name: 'Allow once', kind: 'allow_once' as const },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
    ];
    const first = broker.request('a', 'Agent A', { sessionId: 's1', title: 'Write a file', options }, noToken);
    await tick();
    const [p1] = broker.pending;
    assert.ok(p1 && ui.clicks.length === 1, 'the first request is notified');
    // Answered in the conversation ("Reject"); its notification is still on screen.
    assert.equal(await broker.choose(p1.id, { index: 1 }), true);
    assert.deepEqual(await first, { outcome: 'selected', optionId: 'no' });
    // A second request arrives and is notified in turn.
    const second = broker.request('a', 'Agent A', { sessionId: 's1', title: 'Run a command', options }, noToken);
    await tick();
    assert.equal(ui.clicks.length, 2, 'the next request gets its own notification');
    // The user now clicks "Allow once" on the first, stale notification.
    ui.clicks[0]!(ui.views[0]![0]);
    await tick();
    assert.deepEqual(ui.stale, [p1.id], 'the user is told the first request was already answered');
    assert.equal(broker.pending.length, 1, 'the second request is still pending: the stale click answered nothing');
    ui.clicks[1]!(ui.views[1]![0]);
    assert.deepEqual(await second, { outcome: 'selected', optionId: 'once' });
    assert.deepEqual(ui.stale, [p1.id]);
    broker.dispose();
    store.dispose();
  });
});
