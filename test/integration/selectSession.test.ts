// Picking a session in the Plans tree shows it: a click on a session's row (the real workbench,
// through the UI hook) makes it the active session, so the conversation shows its transcript and
// the row says "active".
import * as assert from 'assert';
import * as vscode from 'vscode';
import { waitFor, type TestApi as AcpPlansApi } from './support/ext';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { prompt, startDemo, turnEnd, type SessionRef } from './support/demo';
import { hasUiHook, uiClick, waitForUi, waitForWebview } from './ui';

const ROWS = '.part.sidebar .monaco-list-row';

/** The tree node of a Demo Agent session, found as VS Code finds it: through getChildren. */
async function sessionNode(a: AcpPlansApi, sessionId: string): Promise<PlanTreeNode> {
  const tree = a.internals.plansUi.tree;
  for (const agent of (await tree.getChildren(undefined)) ?? []) {
    for (const n of (await tree.getChildren(agent)) ?? []) if (n.id === `demo/${encodeURIComponent(sessionId)}`) return n;
  }
  throw new Error(`no row for session ${sessionId}`);
}

describe('Picking a session in the Plans tree', function () {
  this.timeout(60000);

  it('a click on a session row shows that session: the conversation switches to its transcript', async function () {
    if (!hasUiHook()) this.skip();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors'); // a conversation panel an earlier suite left open
    const { ref: first, a, restore } = await startDemo('2');
    try {
      await prompt(first, '/burst 7');
      await turnEnd(a, first);
      const second = await vscode.commands.executeCommand<SessionRef | undefined>('acp.newSession', 'demo');
      assert.ok(second && second.sessionId !== first.sessionId, 'a second session');
      await prompt(second, '/burst 9');
      await turnEnd(a, second);
      assert.strictEqual(a.internals.store.activeSession?.sessionId, second.sessionId);
      await vscode.commands.executeCommand('workbench.view.extension.acp');
      await waitForWebview('body', (t) => t.some((x) => x.includes('sent 9 plan updates')));

      const s = a.internals.store.session(first.agentId, first.sessionId)!;
      const label = s.title || `Session ${first.sessionId.replace(/^sess_/, '').slice(0, 8)}`;
      // The list draws only the rows in view (earlier suites leave rows above): scroll the first session's row in.
      // A reveal that lands while the tree refreshes its rows can be lost: reveal again until the row is drawn.
      for (let attempt = 1; ; attempt++) {
        await a.internals.plansUi.treeView.reveal(await sessionNode(a, first.sessionId), { select: false, focus: false, expand: false });
        const drawn = await waitForUi(ROWS, (t) => t.some((x) => x.startsWith(label)), 4000).then(
          () => true,
          (e: unknown) => (attempt < 4 ? false : Promise.reject(e)),
        );
        if (drawn) break;
      }
      // A click that lands while the tree re-renders its rows hits a row being replaced; a person clicks again, once.
      const firstActive = () => a.internals.store.activeSession?.sessionId === first.sessionId;
      await uiClick(ROWS, label);
      await waitFor(a.internals.store.onDidChange, firstActive, 5000, 'the first session active').catch(async () => {
        console.log('[selectSession] the first click did not make the session active; clicking again');
        await uiClick(ROWS, label);
        await waitFor(a.internals.store.onDidChange, firstActive, 10000, 'the first session active after a second click');
      });
      // Every conversation shown (the view; no panel is open) switches to the first session and shows nothing of the second.
      await waitForWebview('.transcript', (t) => t.some((x) => x.includes('sent 7 plan updates')) && !t.some((x) => x.includes('sent 9 plan updates')));
      await waitForUi(ROWS, (t) => t.some((x) => x.startsWith(label) && x.includes('active')));
    } finally {
      await restore();
    }
  });
});
