// Elicitation through the whole extension, against the Demo Agent's `/elicitation` over real pipes
// (v2): the form card in the conversation webview (every field kind, client-side checks), filled
// and submitted, the agent echoing the values; the session waiting for the user meanwhile (tree
// row, status bar); the link card naming its host before anything opens; declining; opening the
// link and the agent's `elicitation/complete`; a pending form cancelled when the agent stops.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestApi as AcpPlansApi } from './support/ext';
import type { DomSnapshot } from '../../src/ui/conversation';
import { prompt, session, startDemo, turnEnd, type SessionRef } from './support/demo';
import { waitFor } from './support/ext';
import { sessionKey } from '../../src/state/sessionStore';
import { hasUiHook, screenshot } from './ui';

/** The webview has no event the extension host can wait on; poll its DOM snapshot. */
async function dom(a: AcpPlansApi, pred: (s: DomSnapshot) => boolean, what: string, ms = 20000): Promise<DomSnapshot> {
  const end = Date.now() + ms;
  let last: DomSnapshot | undefined;
  while (Date.now() < end) {
    last = await a.internals.conversation.requestDomSnapshot().catch(() => undefined);
    if (last && pred(last)) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the conversation never showed ${what}; it showed:\n${last?.text.slice(-3000)}`);
}

async function act(a: AcpPlansApi, selector: string, value?: string | boolean, text?: string): Promise<DomSnapshot> {
  const snap = await a.internals.conversation.requestDomSnapshot({ selector, ...(text ? { text } : {}), ...(value !== undefined ? { value } : {}) });
  assert.ok(snap.clicked, `nothing matched ${selector} ${text ?? ''}`);
  return snap;
}

const PENDING_FORM = '.elicitation.mode-form.state-pending';
const PENDING_URL = '.elicitation.mode-url.state-pending';
const field = (name: string, control = 'input'): string => `${PENDING_FORM} .elic-field[data-field="${name}"] ${control}`;

const agentSaid = (a: AcpPlansApi, ref: SessionRef, prefix: string): Promise<void> =>
  waitFor(
    a.internals.transcript.onDidChange,
    () => {
      const s = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId));
      return (
        !!s &&
        s
          .slice(s.firstIndex)
          .some((i) => i.kind === 'message' && i.role === 'agent' && i.parts.some((p) => p.type === 'text' && p.chunks.join('').startsWith(prefix)))
      );
    },
    20000,
    `the agent saying "${prefix}…"`,
  );

async function rowDescription(a: AcpPlansApi, ref: SessionRef): Promise<string> {
  const tree = a.internals.plansUi.tree;
  const agent = tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === ref.agentId);
  const node = agent && tree.getChildren(agent).find((n) => n.kind === 'session' && n.sessionId === ref.sessionId);
  assert.ok(node, 'the session has a row in the Plans tree');
  return String((await tree.getTreeItem(node)).description ?? '');
}

describe('Elicitation with the Demo Agent on v2', function () {
  this.timeout(90000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;
  before(async () => {
    ({ a, ref, restore } = await startDemo('2'));
    // The conversation in an editor panel (room for the whole form), the Plans tree beside it.
    await a.internals.conversation.openPanel(vscode.ViewColumn.One).whenReady();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
  });
  after(async () => {
    await vscode.commands.executeCommand('acp.stopAgent', 'demo');
    await restore();
    // The conversation panel opened here goes, so later tests see only the side bar's conversation.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows the form, checks it, sends what the user filled in; the agent echoes it', async () => {
    await prompt(ref, '/elicitation');
    let snap = await dom(a, (s) => s.text.includes('Tell the Demo Agent about your project.') && s.text.includes('Your name *'), 'the form');
    for (const label of ['Email', 'Language *', 'Experience (1–5)', 'Budget (hours)', 'Write tests', 'Areas', 'TypeScript', 'docs'])
      assert.ok(snap.text.includes(label), `the form shows "${label}"`);
    // While it waits: the session's row and the status bar say so.
    await waitFor(a.internals.store.onDidChange, () => (session(a, ref)?.pendingElicitations ?? 0) === 1, 10000, 'the session counting the elicitation');
    assert.match(await rowDescription(a, ref), /waiting for you/);
    await a.internals.plansUi.statusBar.whenIdle();
    assert.match(a.internals.plansUi.statusBar.view.text, /waiting for you/);

    // Submitting it empty: messages for people, nothing sent.
    await act(a, `${PENDING_FORM} .elic-accept`);
    snap = await dom(a, (s) => s.text.includes('Required.'), 'the "Required." messages');
    assert.equal(session(a, ref)?.pendingElicitations, 1, 'still waiting');

    await act(a, field('name'), 'Ada');
    await act(a, field('email'), 'ada@example.com');
    await act(a, field('language', 'select'), 'rs');
    await act(a, field('level'), '4');
    await act(a, field('budget'), '2.5');
    await act(a, `${field('areas')}[value="docs"]`, true);
    await act(a, `${field('areas')}[value="ui"]`, true);
    if (hasUiHook()) console.log(`      screenshot: ${await screenshot('elicitation-form')}`);
    await act(a, `${PENDING_FORM} .elic-accept`);
    await agentSaid(a, ref, 'form: accepted');
    snap = await dom(a, (s) => s.text.includes('form: accepted'), 'the echo');
    assert.ok(
      snap.text.includes('form: accepted name=Ada; email=ada@example.com; language=rs; level=4; budget=2.5; tests=true; areas=docs,ui'),
      snap.text.slice(-2000),
    );
    assert.ok(snap.text.includes('Submitted') && snap.text.includes('Language: Rust'), 'the card shows what was sent');
  });

  it('asks before opening a link, showing its host; declining is answered "decline"', async () => {
    const snap = await dom(a, (s) => s.text.includes('Opens a page on example.com'), 'the link card');
    assert.ok(snap.text.includes('Open example.com'), 'the button names the host');
    assert.ok(!snap.text.includes('url:'), 'nothing happens before the user answers');
    assert.equal(session(a, ref)?.pendingElicitations, 1);
    if (hasUiHook()) console.log(`      screenshot: ${await screenshot('elicitation-url')}`);
    await act(a, `${PENDING_URL} .elic-decline`);
    await agentSaid(a, ref, 'url: decline');
    assert.equal(await turnEnd(a, ref), 'end_turn');
    assert.equal(session(a, ref)?.pendingElicitations ?? 0, 0);
    assert.doesNotMatch(await rowDescription(a, ref), /waiting for you/);
  });

  it('declines a form; a link that was not opened leaves the request waiting; cancel is answered "cancel"', async () => {
    await prompt(ref, '/elicitation');
    await waitFor(a.internals.store.onDidChange, () => (session(a, ref)?.pendingElicitations ?? 0) === 1, 20000, 'the new form pending');
    await dom(a, (s) => s.items.filter((i) => i.kind === 'elicitation').length === 3, 'a new form card');
    await act(a, `${PENDING_FORM} .elic-decline`);
    await agentSaid(a, ref, 'form: decline');
    await dom(a, (s) => s.items.filter((i) => i.kind === 'elicitation').length === 4 && s.text.includes('Open example.com'), 'the second link card');
    // Opening goes through VS Code, whose own "open the external website?" check is refused in
    // the test workbench: nothing is answered, the card says so and can still be answered.
    await act(a, `${PENDING_URL} .elic-accept`);
    await dom(a, (s) => s.text.includes('example.com was not opened. Try again, or decline.'), 'the link not opened');
    assert.equal(session(a, ref)?.pendingElicitations, 1, 'still waiting');
    await act(a, `${PENDING_URL} .elic-cancel`);
    await agentSaid(a, ref, 'url: cancel');
    assert.equal(await turnEnd(a, ref), 'end_turn');
  });

  it('cancels a pending form when the agent stops, and the card says so', async () => {
    await prompt(ref, '/elicitation');
    await waitFor(a.internals.store.onDidChange, () => (session(a, ref)?.pendingElicitations ?? 0) === 1, 20000, 'a pending form');
    await vscode.commands.executeCommand('acp.stopAgent', 'demo');
    const snap = await dom(a, (s) => /Cancelled: the (agent withdrew|agent stopped)/.test(s.text), 'the cancelled card');
    const last = snap.items.filter((i) => i.kind === 'elicitation').pop();
    assert.match(last?.text ?? '', /Cancelled/, 'the last card says it was cancelled');
    assert.ok(!(last?.text ?? '').includes('Submit'), 'and offers no buttons any more');
    assert.equal(session(a, ref)?.pendingElicitations ?? 0, 0);
  });
});
