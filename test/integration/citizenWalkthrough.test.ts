// The Getting Started walkthrough in the real workbench: each step is checked off when the user has
// done it — the Demo Agent running, a plan shown for the active session (context keys the extension
// sets), Add Agent from Registry… run from the walkthrough's own button (its onCommand event).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, waitFor } from './support/ext';
import { resetDemo, session, turnEnd, withSetting } from './support/demo';
import { screenshot, uiAttrs, uiClick, uiPress, uiTexts, uiType, uiViewport, waitForUi, waitForWebview } from './ui';

const STEP = '.getting-started-step';
const WALKTHROUGH = 'acp-plans.acp-plans#gettingStarted';

/** The titles of the walkthrough's steps shown as done (their check icon filled). */
async function done(): Promise<string[]> {
  const titles = await uiTexts(`${STEP} h3`);
  const icons = await uiAttrs(`${STEP} .codicon:first-child`, 'class');
  return titles.flatMap((t, i) => (/complete|pass-filled/.test(icons[i] ?? '') ? [t.trim()] : []));
}

async function until(want: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  let last: string[] = [];
  while (Date.now() < end) {
    last = await done();
    if (last.includes(want)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  await screenshot(`FAILED-walkthrough-${want}`);
  const icons = await uiAttrs(`${STEP} .codicon`, 'class');
  assert.fail(`step ${want} not checked off; done: ${JSON.stringify(last)}; icons: ${JSON.stringify(icons)}`);
}

describe('Citizen: walkthrough', function () {
  this.timeout(150_000);
  let restore: (() => Promise<void>) | undefined;
  after(async () => {
    await restore?.();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('checks off Start the Demo Agent, Watch a plan and Add an agent as the user does them', async () => {
    // VS Code marks an `onContext` step only when its key changes while the walkthrough is registered; a key already true
    // (the Demo Agent run by an earlier suite) is never marked. The steps' own buttons (`onCommand`) always are: used here.
    const a = await api();
    await resetDemo();
    const r1 = await withSetting('demo.protocol', '2');
    const r2 = await withSetting('demo.stepDelayMs', 0);
    restore = async () => {
      await resetDemo();
      await r2();
      await r1();
    };
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
    const titles = await waitForUi(`${STEP} h3`, (t) => t.length === 4);
    assert.deepStrictEqual(
      titles.map((t) => t.trim()),
      ['Start the Demo Agent', 'Add an agent from the registry', 'Watch a plan', 'Review a step'],
    );
    assert.deepStrictEqual(await done(), [], 'nothing is done yet');
    // A window wide enough for the step's page beside the steps: the page (package.nls names it per language) renders.
    await uiViewport(1800, 1000);
    try {
      await waitForWebview('body', (t) => t.some((x) => x.includes('The Demo Agent is built in')));
      await screenshot('citizen-walkthrough-page');
    } finally {
      await uiViewport(1280, 800);
    }
    await screenshot('citizen-walkthrough-start');
    const running = waitFor(a.internals.store.onDidChange, () => !!a.internals.store.sessions('demo')[0], 30_000, 'a Demo Agent session');
    await uiClick(`${STEP} .monaco-button`, 'Start Demo Agent');
    await running;
    await until('Start the Demo Agent');
    const ref = { agentId: 'demo', sessionId: a.internals.store.sessions('demo')[0].sessionId };
    // Send Prompt… goes to the active session: the one just started, once the start has made it active.
    const store = a.internals.store;
    await waitFor(store.onDidChange, () => store.activeSession?.sessionId === ref.sessionId, 15_000, 'the new session active');
    // Watch a plan: the step's Send Prompt… button, the prompt typed in its input box.
    await uiClick(`${STEP} h3`, 'Watch a plan');
    await uiClick(`${STEP} .monaco-button`, 'Send Prompt');
    // The input box itself (its prompt shown), not the quick input's hidden leftovers of an earlier suite.
    await waitForUi('.quick-input-widget .quick-input-message:visible', (t) => t.some((x) => x.includes('Prompt for the agent')));
    // The walkthrough takes the keyboard focus back to its step after running the command; the box stays open
    // (ignoreFocusOut) and the user clicks into it. When the focus comes back after that click, the typing is
    // lost and Enter presses the step's button, which opens the box again: the user types the prompt again.
    const started = (): boolean => {
      const s = session(a, ref);
      return !!s && (s.turnState !== 'idle' || !!s.stopReason);
    };
    for (let attempt = 1; !started(); attempt++) {
      await uiClick('.quick-input-widget input:visible');
      await uiType('/burst 3');
      await uiPress('Enter');
      const sent = await waitFor(store.onDidChange, started, 5_000, 'the turn to start').then(
        () => true,
        (err: unknown) => {
          if (attempt === 3) throw err;
          return false;
        },
      );
      if (!sent) await waitForUi('.quick-input-widget .quick-input-message:visible', (t) => t.some((x) => x.includes('Prompt for the agent')));
    }
    await turnEnd(a, ref);
    await until('Watch a plan');
    // The walkthrough's own button runs Add Agent from Registry…; its list is closed again.
    await uiClick(`${STEP} h3`, 'Add an agent from the registry');
    await uiClick(`${STEP} .monaco-button`, 'Add Agent from Registry');
    await until('Add an agent from the registry');
    await uiPress('Escape');
    await screenshot('citizen-walkthrough-done');
    const now = await done();
    assert.ok(!now.includes('Review a step'), 'Review a step is not done until a step is reviewed');
  });
});
