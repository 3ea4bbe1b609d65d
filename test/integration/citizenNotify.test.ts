// Notifications that follow the user, in the real workbench with the Demo Agent: with the ACP views
// hidden (the Explorer in the side bar), a finished turn shows a notification whose "Show Session"
// brings the ACP views back with that session active; a permission request's notification offers
// "Show Session" too, and a click on its "Allow once" after the request was answered in the
// conversation says it was already answered and answers nothing.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { nextPermission, prompt, startDemo, turnEnd, type SessionRef } from './support/demo';
import type { TestApi as AcpPlansApi } from './support/ext';
import { waitFor } from './support/ext';
import { clearNotes, NOTES, toastWith } from './support/notifications';
import { screenshot, uiClick, uiTexts } from './ui';

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const BUTTON = '.notifications-list-container .notification-list-item .monaco-button';

/** Clicks a button of the notification whose message contains `message`. */
async function clickIn(message: string, button: string): Promise<void> {
  await toastWith(message);
  const items = await uiTexts(NOTES);
  assert.ok(
    items.some((t) => t.includes(message) && t.includes(button)),
    `no "${button}" in the notification: ${JSON.stringify(items)}`,
  );
  await uiClick(BUTTON, button);
}

describe('Citizen: notifications that follow the user', function () {
  this.timeout(120_000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;

  before(async () => {
    ({ a, ref, restore } = await startDemo('2'));
    // The new session is revealed in the Plans view (settled before the tests hand the side bar to the Explorer).
    await until(() => a.internals.plansUi.treeView.visible, 'the Plans view').catch(() => undefined);
    await a.internals.plansUi.tree.whenIdle();
    console.log(`      window focused: ${vscode.window.state.focused}`);
  });
  after(async () => {
    await clearNotes();
    await restore();
  });

  it('a turn that ends while the ACP views are hidden is notified; Show Session brings the user back', async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
    await until(() => !a.internals.plansUi.treeView.visible && !a.internals.conversation.visible, 'the ACP views hidden');
    await clearNotes();
    a.internals.store.setActiveSession(undefined);
    await prompt(ref, '/burst 20');
    await turnEnd(a, ref);
    await clickIn('Demo Agent finished', 'Show Session');
    await waitFor(a.internals.store.onDidChange, () => a.internals.store.activeSession?.sessionId === ref.sessionId, 5000, 'the session active');
    await until(() => a.internals.conversation.visible, 'the conversation on screen again');
    await screenshot('citizen-show-session');
  });

  it('a permission notification offers Show Session; a late click on an answered one answers nothing', async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
    await clearNotes();
    await prompt(ref, '/permission');
    const p = await nextPermission(a, ref);
    const text = await toastWith('May the Demo Agent continue?');
    assert.ok(text.includes('Show Session'), `Show Session offered while the views are hidden: ${text}`);
    // Answered in the conversation: "Reject".
    assert.strictEqual(await a.internals.broker.choose(p.id, { index: 2 }), true);
    await turnEnd(a, ref);
    await screenshot('citizen-stale-permission');
    await uiClick(BUTTON, 'Allow once');
    const said = await toastWith('already answered');
    assert.match(said, /Demo Agent was already answered; nothing was changed/);
    const s = a.internals.store.session(ref.agentId, ref.sessionId)!;
    assert.strictEqual(s.pendingPermissions.length, 0);
    assert.strictEqual(s.turnState, 'idle', 'no new turn, no answer sent');
  });
});
