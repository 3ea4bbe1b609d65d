// ACP Plans in German, as a German user meets it (`npm run test:german`: the harness installs a
// German language pack from a VSIX and picks German as the display language): the Plans tree's
// agent row and its spoken label, the status bar item and a permission card in the conversation,
// all read from the page. Skipped in a window of another language.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { nextPermission, prompt, startDemo, turnEnd, type SessionRef } from './support/demo';
import type { TestApi as AcpPlansApi } from './support/ext';
import { hasUiHook, screenshot, uiAttrs, waitForUi, waitForWebview } from './ui';

const ROWS = '.part.sidebar .pane-body .monaco-list-row';
const STATUS = '.statusbar-item';

describe('German: the tree, the status bar and a card in a German window (Demo Agent, v2)', function () {
  this.timeout(120_000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;

  before(async function () {
    if (!hasUiHook() || vscode.env.language !== 'de') this.skip();
    ({ a, ref, restore } = await startDemo('2'));
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await vscode.commands.executeCommand('acp.conversation.focus');
  });
  after(async () => {
    await restore?.();
  });

  it('the display language is German, from the installed pack', () => {
    assert.strictEqual(vscode.env.language, 'de');
  });

  it('the agent row says "läuft", and so does its spoken label', async () => {
    const rows = await waitForUi(ROWS, (t) => t.some((x) => x.includes('Demo Agent') && x.includes('läuft')), 20_000);
    assert.ok(!rows.some((x) => x.includes('Demo Agent') && /\brunning\b/.test(x)), rows.join('\n'));
    const spoken = await uiAttrs(ROWS, 'aria-label');
    assert.ok(
      spoken.some((x) => x?.startsWith('Agent Demo Agent') && x.includes('läuft')),
      spoken.join('\n'),
    );
  });

  it('a permission card, the session row and the status bar wait for the user in German', async () => {
    await prompt(ref, 'Prüfe die Karten');
    const pending = await nextPermission(a, ref);
    const card = await waitForWebview('.permission.state-pending', (t) => t.length > 0, 30_000);
    assert.ok(card[0]!.includes('Berechtigung') && card[0]!.includes('Einmal erlauben'), card[0]);
    await waitForUi(ROWS, (t) => t.some((x) => x.includes('wartet auf Sie')), 20_000);
    const status = await waitForUi(STATUS, (t) => t.some((x) => x.includes('wartet auf Sie')), 20_000);
    assert.ok(!status.some((x) => x.includes('waiting for you')), status.join('\n'));
    console.log(`      screenshot: ${await screenshot('german-tree-status-card')}`);
    const i = pending.request.options.findIndex((o) => o.kind.startsWith('reject'));
    assert.ok(await a.internals.broker.choose(pending.id, { index: i }));
    await turnEnd(a, ref, 30_000);
  });
});
