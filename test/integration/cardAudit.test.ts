// Every kind of card that waits for the user, audited by axe-core in the three kinds of theme a
// person picks (Dark Modern, Light Modern, Default High Contrast): the Demo Agent's (v2) edit
// permission with its diff preview, a command permission, a form and a link (elicitation), a plan
// approval. None may have a serious or critical violation (contrast of the diff's lines against
// the code block, a scrolling preview the keyboard cannot reach, unnamed controls…).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { nextPermission, prompt, session, startDemo, turnEnd, type SessionRef } from './support/demo';
import { waitFor, type TestApi as AcpPlansApi } from './support/ext';
import { hasUiHook, screenshot, waitForWebview, webviewAxe } from './ui';

const THEMES = ['Default Dark Modern', 'Default Light Modern', 'Default High Contrast'];

/** A card kind: the prompt that brings it, the selector it shows as while it waits, how to answer it. */
interface Card {
  readonly name: string;
  readonly prompt: string;
  readonly pending: string;
  /** Also shown with it (the edit's diff preview, in its tool call above the card). */
  readonly with?: string;
  readonly answer: (a: AcpPlansApi, ref: SessionRef) => Promise<void>;
}

async function reject(a: AcpPlansApi, ref: SessionRef): Promise<void> {
  const p = await nextPermission(a, ref);
  const i = p.request.options.findIndex((o) => o.kind.startsWith('reject'));
  assert.ok(await a.internals.broker.choose(p.id, { index: i >= 0 ? i : p.request.options.length - 1 }));
}

async function click(a: AcpPlansApi, selector: string): Promise<void> {
  assert.ok((await a.internals.conversation.requestDomSnapshot({ selector })).clicked, `nothing matched ${selector}`);
}

const CARDS: Card[] = [
  {
    name: 'an edit permission with its diff',
    prompt: 'audit the cards',
    pending: '.permission.state-pending',
    with: '.diff-preview .line.del',
    answer: reject,
  },
  { name: 'a command permission', prompt: '/command-permission', pending: '.permission.state-pending', answer: reject },
  {
    name: 'a form, then a link',
    prompt: '/elicitation',
    pending: '.elicitation.mode-form.state-pending',
    answer: async (a) => {
      await click(a, '.elicitation.mode-form.state-pending .elic-decline');
      await waitForWebview('.elicitation.mode-url.state-pending', (t) => t.length > 0);
      await audit(a, 'a link');
      await click(a, '.elicitation.mode-url.state-pending .elic-decline');
    },
  },
  { name: 'a plan approval', prompt: '/planmode noplan', pending: '.permission.plan-mode.state-pending', answer: reject },
];

let theme = '';
const found: string[] = [];

async function audit(_a: AcpPlansApi, card: string): Promise<void> {
  const audits = await webviewAxe('.transcript');
  assert.ok(audits.length > 0, 'a conversation webview was audited');
  for (const v of audits.flatMap((x) => x.violations))
    if (v.impact === 'serious' || v.impact === 'critical')
      found.push(`${theme}, ${card}: ${v.impact} ${v.id} (${v.help}) on ${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target}: ${v.nodes[0]?.summary ?? ''}`);
}

describe('Citizen: every card kind passes axe-core in dark, light and high-contrast themes (Demo Agent, v2)', function () {
  this.timeout(300_000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;
  let themeBefore: unknown;

  before(async function () {
    if (!hasUiHook()) this.skip();
    ({ a, ref, restore } = await startDemo('2'));
    themeBefore = vscode.workspace.getConfiguration('workbench').inspect('colorTheme')?.globalValue;
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await vscode.commands.executeCommand('acp.conversation.focus');
  });
  after(async () => {
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', themeBefore, vscode.ConfigurationTarget.Global);
    await restore?.();
  });

  for (const t of THEMES)
    it(`${t}: no serious or critical violation on any card`, async () => {
      theme = t;
      found.length = 0;
      await vscode.workspace.getConfiguration('workbench').update('colorTheme', t, vscode.ConfigurationTarget.Global);
      for (const card of CARDS) {
        await prompt(ref, card.prompt);
        await waitForWebview(card.pending, (x) => x.length > 0, 30_000);
        if (card.with) await waitForWebview(card.with, (x) => x.length > 0, 30_000);
        await audit(a, card.name);
        if (card === CARDS[0]) console.log(`      screenshot: ${await screenshot(`card-audit-${t.replace(/\W+/g, '-').toLowerCase()}`)}`);
        await card.answer(a, ref);
        await turnEnd(a, ref, 30_000);
        await waitFor(a.internals.store.onDidChange, () => session(a, ref)?.turnState === 'idle', 10_000, 'the session idle');
      }
      assert.deepStrictEqual(found, [], found.join('\n'));
    });
});
