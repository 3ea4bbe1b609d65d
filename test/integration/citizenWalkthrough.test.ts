// The Getting Started walkthrough in the real workbench: each step is checked off when the user has
// done it — the Demo Agent running, a plan shown for the active session (context keys the extension
// sets), Add Agent from Registry… run from the walkthrough's own button (its onCommand event).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { prompt, startDemo, turnEnd } from './support/demo';
import { screenshot, uiAttrs, uiClick, uiPress, uiTexts } from './ui';

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
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
    await new Promise((r) => setTimeout(r, 1500));
    const titles = await uiTexts(`${STEP} h3`);
    assert.deepStrictEqual(
      titles.map((t) => t.trim()),
      ['Start the Demo Agent', 'Add an agent from the registry', 'Watch a plan', 'Review a step'],
    );
    assert.deepStrictEqual(await done(), [], 'nothing is done yet');
    await screenshot('citizen-walkthrough-start');
    const demo = await startDemo('2');
    restore = demo.restore;
    await until('Start the Demo Agent');
    await prompt(demo.ref, '/burst 3');
    await turnEnd(demo.a, demo.ref);
    await until('Watch a plan');
    // The walkthrough's own button runs Add Agent from Registry…; its list is closed again.
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
    await uiClick(`${STEP} h3`, 'Add an agent from the registry');
    await uiClick(`${STEP} .monaco-button`, 'Add Agent from Registry');
    await until('Add an agent from the registry');
    await uiPress('Escape');
    await screenshot('citizen-walkthrough-done');
    const now = await done();
    assert.ok(!now.includes('Review a step'), 'Review a step is not done until a step is reviewed');
  });
});
