// What a person reads when an agent fails: the notifications in the real workbench (read from the
// notification list, where every toast also lands) are sentences that
// name the agent and tell what happened (a missing command is not "during initialize"; an agent
// that dies during a turn is not "while idle"), and offer what to do next.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { nextPermission, prompt, startDemo, turnEnd, withSetting } from './support/demo';
import { api, waitFor } from './support/ext';
import { hasUiHook, uiClick, waitForUi } from './ui';

const NOTIFICATION = '.notifications-list-container .notification-list-item-message';

/** Opens the notification list and waits until a notification satisfies `match`; returns its text. */
async function notification(match: (text: string) => boolean, ms = 15_000): Promise<string> {
  await vscode.commands.executeCommand('notifications.showList');
  const texts = await waitForUi(NOTIFICATION, (t) => t.some(match), ms);
  return texts.find(match)!;
}

describe('Agent failures in toasts', function () {
  this.timeout(60_000);
  before(function () {
    if (!hasUiHook()) this.skip();
  });
  beforeEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
  });

  it('a missing command: "<name> could not start: the command … was not found"', async () => {
    const a = await api();
    const restore = await withSetting('agents', [{ name: 'Missing Agent', command: '/nonexistent/acp-agent-bin' }]);
    try {
      await waitFor(a.internals.agents.onDidChangeDefinitions, () => !!a.internals.agents.get('agent:Missing Agent'), 10_000, 'the configured agent');
      const ref = await vscode.commands.executeCommand('acp.startAgent', 'agent:Missing Agent');
      assert.equal(ref, undefined, 'no session');
      const toast = await notification((x) => x.includes('Missing Agent'));
      assert.match(toast, /^Missing Agent could not start: the command "\/nonexistent\/acp-agent-bin" was not found/);
      assert.doesNotMatch(toast, /during initialize|Agent the command/);
      assert.equal(a.internals.store.agent('agent:Missing Agent')?.status, 'failed', 'the tree shows it failed');
    } finally {
      await restore();
    }
  });

  it('Stop Agent with a prompt queued: "A queued prompt was not sent: <name> was stopped" and its text can be copied', async () => {
    const { a, ref, restore } = await startDemo('2');
    try {
      await prompt(ref, '/permission'); // the turn waits for an answer
      await nextPermission(a, ref);
      await prompt(ref, 'Add a farewell function (queued)');
      assert.strictEqual(a.internals.store.session(ref.agentId, ref.sessionId)?.queued.length, 1, 'queued behind the turn');
      await vscode.commands.executeCommand('acp.stopAgent', 'demo');
      assert.strictEqual(a.internals.store.session(ref.agentId, ref.sessionId)?.queued.length, 0, 'the queue is dropped');
      const toast = await notification((x) => x.includes('queued prompt'));
      assert.match(toast, /^A queued prompt was not sent: Demo Agent was stopped\./);
      await vscode.env.clipboard.writeText('');
      await uiClick('.notifications-list-container .monaco-button', 'Copy Prompts');
      let copied = '';
      for (const end = Date.now() + 5000; Date.now() < end && !copied;) copied = await vscode.env.clipboard.readText(); // written when the click's promise settles
      assert.strictEqual(copied, 'Add a farewell function (queued)', "the prompt's text is on the clipboard");
    } finally {
      await restore();
    }
  });

  it('an agent that dies during a turn: "<name> exited with code 3 during a turn … Restarting…"', async () => {
    const { a, ref, restore } = await startDemo('2');
    try {
      await prompt(ref, 'Add a farewell function');
      await a.internals.broker.respond((await nextPermission(a, ref)).id, 'allow_once');
      await turnEnd(a, ref);
      await vscode.commands.executeCommand('notifications.clearAll');
      // The notice says why while the agent restarts, then that it is back, and goes (a restart is
      // quick: the sentence is read from the report, what stays on screen from the notice).
      const reports: string[] = [];
      const sub = a.internals.agents.onDidReport((r) => reports.push(r.message));
      try {
        await prompt(ref, '/crash');
        const notice = await notification((x) => x.includes('Restarting') || x.includes('reconnected'));
        assert.match(notice, /Demo Agent exited with code 3 during a turn\. Last output: .*Restarting…$|Demo Agent reconnected\.$/s);
      } finally {
        sub.dispose();
      }
      const said = reports.find((m) => m.includes('Restarting'));
      assert.match(said ?? '', /^Demo Agent exited with code 3 during a turn\. Last output: .*Restarting…$/s, reports.join('\n'));
      assert.doesNotMatch(said ?? '', /while idle/);
      await waitFor(a.internals.store.onDidChange, () => a.internals.store.session(ref.agentId, ref.sessionId)?.live === true, 20_000, 'the resume');
    } finally {
      await restore();
    }
  });
});
