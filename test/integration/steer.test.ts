// Steer or queue, in the real VS Code with the Demo Agent (which advertises `_meta.steering`): while
// a long turn runs, the conversation's prompt box offers Steer beside Queue; a message typed and
// sent with Steer shows in the running turn, marked "steered", and the agent's acknowledgement
// follows in the same turn (the page shows both before the turn ends; nothing is queued). A turn
// that refuses steering (`/steer refuse`) puts the message in the queue with the agent's reason;
// that one is sent with the keyboard (Ctrl+Enter).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { messageText } from '../../src/state/transcript';
import { sessionKey } from '../../src/state/sessionStore';
import { prompt, session, startDemo, turnEnd, type SessionRef } from './support/demo';
import { waitFor, type TestApi } from './support/ext';
import { hasUiHook, screenshot, uiPress, uiType, waitForWebview, webviewClick } from './ui';

const STEER = 'button.steer:not([hidden])';

for (const protocol of ['2', '1'] as const) {
  describe(`Steer or queue (Demo Agent v${protocol})`, function () {
    this.timeout(120000);
    let a: TestApi;
    let ref: SessionRef;
    let restore: () => Promise<void>;

    before(async function () {
      if (!hasUiHook()) this.skip();
      ({ a, ref, restore } = await startDemo(protocol));
      const host = a.internals.conversation.openPanel(vscode.ViewColumn.Two);
      await host.whenReady();
      a.internals.store.setActiveSession(ref);
    });
    after(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await restore?.();
    });

    const items = () => {
      const t = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId))!;
      return t.slice(t.firstIndex);
    };
    const running = async (): Promise<void> => {
      await waitFor(a.internals.store.onDidChange, () => session(a, ref)?.turnState === 'running', 20000, 'the turn running');
      await waitForWebview('.message.role-agent', (t) => t.some((x) => x.includes('Working on it')));
    };
    const typeInPromptBox = async (text: string): Promise<void> => {
      assert.ok(await webviewClick('.prompt-input'), 'the prompt box is on the page');
      await uiType(text);
    };

    it('Steer sends into the running turn: the message shows there, marked steered, and the agent answers it in the same turn', async () => {
      await prompt(ref, '/steer');
      await running();
      const offered = await waitForWebview(STEER, (t) => t.length > 0); // the sidebar view and the panel
      assert.ok(offered[0]!.includes('Steer'), JSON.stringify(offered));
      await typeInPromptBox('use the fixtures');
      assert.ok(await webviewClick(STEER), 'Steer is on the page');

      const steered = await waitForWebview('.message.steered', (t) => t.some((x) => x.includes('use the fixtures')));
      assert.ok(
        steered.some((x) => x.includes('steered')),
        `marked: ${JSON.stringify(steered)}`,
      );
      await waitForWebview('.message.role-agent', (t) => t.some((x) => x.includes('Steering noted: "use the fixtures"')));
      assert.strictEqual(session(a, ref)?.turnState, 'running', 'still the same turn');
      assert.deepStrictEqual(session(a, ref)?.queued, [], 'nothing queued');

      // In the transcript: the /steer prompt, then the steered message, then the acknowledgement.
      const list = items();
      const at = (pred: (i: (typeof list)[number]) => boolean): number => list.findIndex(pred);
      const promptAt = at((i) => i.kind === 'message' && i.role === 'user' && messageText(i).includes('/steer'));
      const steeredAt = at((i) => i.kind === 'message' && i.steered === true);
      const ackAt = at((i) => i.kind === 'message' && i.role === 'agent' && messageText(i).includes('Steering noted'));
      assert.ok(promptAt >= 0 && promptAt < steeredAt && steeredAt < ackAt, `order: ${promptAt} < ${steeredAt} < ${ackAt}`);
      await screenshot(`steer-v${protocol}`);

      a.internals.actions.cancel(ref);
      assert.strictEqual(await turnEnd(a, ref), 'cancelled');
      await waitForWebview(STEER, (t) => t.length === 0); // no turn: Steer is not offered
    });

    it('a turn that refuses steering: Ctrl+Enter puts the message in the queue with the reason', async () => {
      await prompt(ref, '/steer refuse');
      await running();
      await waitForWebview(STEER, (t) => t.length > 0);
      await typeInPromptBox('faster please');
      await uiPress('Control+Enter');
      const note = await waitForWebview('.queued-note', (t) => t.length > 0);
      assert.ok(note[0]!.includes('this turn does not take steering'), JSON.stringify(note));
      assert.ok(note[0]!.includes('when the turn ends'), JSON.stringify(note));
      await waitForWebview('.queued-text', (t) => t.some((x) => x.includes('faster please')));
      assert.deepStrictEqual(
        session(a, ref)?.queued.map((q) => q.note),
        [{ code: 'steerFailed', reason: 'this turn does not take steering' }],
      );
      assert.ok(!items().some((i) => i.kind === 'message' && i.steered === true && messageText(i).includes('faster')), 'not shown in the turn');
      await screenshot(`steer-refused-v${protocol}`);
      a.internals.actions.cancel(ref);
      await turnEnd(a, ref);
    });
  });
}
