// Room for the cards that wait for the user, in a 1400×900 window (the workbench's page resized):
// a plan-mode approval from the Demo Agent (`/planmode noplan`) is taller than the side bar's
// Conversation, which says so; with `acp.conversation.cardRoom` = "ask" an editor tab is offered
// (again once an offer is dismissed; "Keep in Side Bar" is written to the setting); with "editor" the conversation opens in
// an editor tab where the whole card is inside the visible area (webview DOM rects). Then an
// axe-core audit of the conversation webview (0 serious or critical violations) and the cards and
// the Plans tree under the Default High Contrast theme (a screenshot).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { nextPermission, prompt, startDemo, turnEnd, withSetting, type SessionRef } from './support/demo';
import { waitFor, type TestApi as AcpPlansApi } from './support/ext';
import { clearNotes, NOTES, toastWith } from './support/notifications';
import { hasUiHook, screenshot, uiClick, uiViewport, waitForWebview, webviewAxe, webviewRects, type FrameRects } from './ui';

/** The plan approval that waits (the answered ones of earlier turns are collapsed). */
const CARD = '.permission.plan-mode.state-pending';
const OFFER = 'A card waiting for your answer needs';

/** The frames where the whole card is inside both the transcript's visible area and the frame's viewport. */
const fitting = (frames: FrameRects[]): FrameRects[] =>
  frames.filter((f) => f.area && f.rects.some((r) => r.top >= f.area!.top - 0.5 && r.bottom <= f.area!.bottom + 0.5 && r.bottom <= f.innerHeight));

async function pollRects(ok: (f: FrameRects[]) => boolean, what: string, ms = 20_000): Promise<FrameRects[]> {
  const end = Date.now() + ms;
  let last = await webviewRects(CARD, '.transcript');
  while (!ok(last)) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 200));
    last = await webviewRects(CARD, '.transcript');
  }
  return last;
}

describe('Citizen: layout, audit and high contrast (Demo Agent, v2, 1400×900)', function () {
  this.timeout(180_000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  const restores: (() => Promise<void>)[] = [];

  before(async function () {
    if (!hasUiHook()) this.skip();
    await uiViewport(1400, 900);
    let restore: () => Promise<void>;
    ({ a, ref, restore } = await startDemo('2'));
    restores.push(restore);
    restores.push(await withSetting('conversation.cardRoom', 'ask'));
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await vscode.commands.executeCommand('acp.conversation.focus');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const r of restores.reverse()) await r();
    if (hasUiHook()) await uiViewport(1280, 800);
  });

  it('Citizen: layout: asked, the editor tab is offered again after a dismissed offer; "Keep in Side Bar" is written to the setting', async () => {
    await clearNotes();
    const conv = a.internals.conversation;
    await prompt(ref, '/planmode noplan');
    let pending = await nextPermission(a, ref);
    await toastWith(OFFER);
    await clearNotes();
    assert.ok(await a.internals.broker.choose(pending.id, { index: 3 }));
    await turnEnd(a, ref);
    // The same session's next card: offered again (the dismissed offer holds nothing back).
    await prompt(ref, '/planmode noplan');
    pending = await nextPermission(a, ref);
    await toastWith(OFFER);
    const changed = waitFor(
      vscode.workspace.onDidChangeConfiguration,
      () => vscode.workspace.getConfiguration('acp').inspect('conversation.cardRoom')?.globalValue === 'sideBar',
      15_000,
      'the setting written',
    );
    await uiClick(`${NOTES} .monaco-button`, 'Keep in Side Bar');
    await changed;
    assert.strictEqual(vscode.workspace.getConfiguration('acp').inspect('conversation.cardRoom')?.globalValue, 'sideBar');
    assert.ok(
      conv.hosts.every((h) => h.kind === 'view'),
      'no editor tab was opened',
    );
    assert.ok(await a.internals.broker.choose(pending.id, { index: 3 }));
    await turnEnd(a, ref);
    await clearNotes();
    await vscode.workspace.getConfiguration('acp').update('conversation.cardRoom', 'editor', vscode.ConfigurationTarget.Global);
  });

  it('Citizen: layout: a plan approval too tall for the side bar opens the conversation in an editor tab, where the whole card is visible', async () => {
    await prompt(ref, '/planmode noplan');
    const pending = await nextPermission(a, ref);
    const frames = await pollRects((f) => f.length >= 2 && fitting(f).length > 0, 'the card in full in an editor tab');
    for (const f of frames)
      console.log(
        `card layout: frame ${f.innerWidth}×${f.innerHeight}, transcript area ${Math.round(f.area?.height ?? 0)} px, card ${f.rects.map((r) => `${Math.round(r.top)}..${Math.round(r.bottom)}`).join(', ')}`,
      );
    const side = frames.reduce((x, y) => (x.innerWidth < y.innerWidth ? x : y));
    assert.ok(side.area && side.rects[0]!.height > side.area.height, `the side bar's Conversation is too small for the card: ${JSON.stringify(side)}`);
    const tab = fitting(frames);
    assert.ok(
      tab.some((f) => f !== side),
      'the card fits in the editor tab',
    );
    const texts = await waitForWebview(CARD, (t) => t.length >= 2);
    assert.ok(texts.every((t) => t.includes('Add a unit test for both greetings') && t.includes('Stay in plan mode')));
    console.log(`screenshot: ${await screenshot('citizen-layout-plan-card')}`);
    assert.ok(await a.internals.broker.choose(pending.id, { index: 0 }));
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
  });

  it('Citizen: audit: axe-core finds no serious or critical violation in the conversation webview', async () => {
    const audits = await webviewAxe('.transcript');
    assert.ok(audits.length > 0, 'a conversation webview was audited');
    for (const audit of audits) {
      for (const v of audit.violations) console.log(`axe ${audit.url}: ${v.impact} ${v.id} (${v.help}) ${v.nodes.length} nodes: ${v.nodes[0]?.target}`);
      const bad = audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepStrictEqual(bad, [], `serious or critical violations: ${JSON.stringify(bad, null, 1).slice(0, 3000)}`);
    }
  });

  it('Citizen: high contrast: the cards and the Plans tree under Default High Contrast', async () => {
    restores.push(await withThemeRestored());
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', 'Default High Contrast', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await prompt(ref, '/planmode noplan');
    const pending = await nextPermission(a, ref);
    await waitForWebview(CARD, (t) => t.filter((x) => x.includes('Stay in plan mode')).length >= 2);
    console.log(`screenshot: ${await screenshot('citizen-high-contrast')}`);
    const audits = await webviewAxe('.transcript');
    const bad = audits.flatMap((x) => x.violations).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepStrictEqual(bad, [], `high contrast: ${JSON.stringify(bad, null, 1).slice(0, 3000)}`);
    assert.ok(await a.internals.broker.choose(pending.id, { index: 3 }));
    await turnEnd(a, ref);
  });
});

async function withThemeRestored(): Promise<() => Promise<void>> {
  const before = vscode.workspace.getConfiguration('workbench').inspect('colorTheme')?.globalValue;
  return async () => {
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', before, vscode.ConfigurationTarget.Global);
  };
}
