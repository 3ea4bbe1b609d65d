// Accessibility in the real workbench with the Demo Agent: the Plans rows and the status bar item
// carry sentences (read from the DOM's aria-label), and the conversation's live region announces
// the finished message once, while the transcript itself is not a live region.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { prompt, startDemo, turnEnd, type SessionRef } from './support/demo';
import type { TestApi as AcpPlansApi } from './support/ext';
import { screenshot, uiAttrs, waitForWebview } from './ui';

const ROWS = '.part.sidebar .pane-body .monaco-list-row';

async function poll<T>(f: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  let last = await f();
  while (!ok(last)) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(last).slice(0, 1500)}`);
    await new Promise((r) => setTimeout(r, 200));
    last = await f();
  }
  return last;
}

describe('Citizen: accessibility', function () {
  this.timeout(120_000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;

  before(async () => {
    ({ a, ref, restore } = await startDemo('2'));
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await vscode.commands.executeCommand('acp.conversation.focus');
  });
  after(async () => restore());

  it('Plans rows and the status bar item read as sentences; the conversation announces the finished message', async () => {
    await prompt(ref, '/burst 5');
    await turnEnd(a, ref);
    const tree = a.internals.plansUi.tree;
    await tree.whenIdle();
    const kids = async (n?: PlanTreeNode) => (await tree.getChildren(n)) ?? [];
    const agent = (await kids()).find((n) => n.kind === 'agent')!;
    const session = (await kids(agent)).find((n) => n.kind === 'session')!;
    const plan = (await kids(session)).find((n) => n.kind === 'plan')!;
    const step = (await kids(plan))[1]!;
    assert.strictEqual(tree.getTreeItem(step).accessibilityInformation?.label, 'Step 2 of 5, Burst step 2, done, priority medium');
    await a.internals.plansUi.treeView.reveal(step, { select: true, focus: false, expand: true });
    const labels = await poll(
      () => uiAttrs(ROWS, 'aria-label'),
      (v) => v.some((l) => l?.startsWith('Step 2 of 5, Burst step 2, done')),
      'the step row',
    );
    assert.ok(
      labels.some((l) => l?.startsWith('Agent Demo Agent')),
      `the agent row says what it is: ${JSON.stringify(labels)}`,
    );
    assert.ok(
      labels.some((l) => l?.startsWith('Plan burst')),
      `the plan row: ${JSON.stringify(labels)}`,
    );
    const bar = await poll(
      () => uiAttrs('.statusbar-item [aria-label], .statusbar-item[aria-label]', 'aria-label'),
      (v) => v.some((l) => l?.startsWith('ACP plan burst: 5 of 5 steps done')),
      'the status bar sentence',
    );
    assert.ok(!bar.some((l) => l?.includes('$(')), 'no icon syntax is read');
    // The conversation: the transcript is not a live region; the announcer said the finished message.
    const live = await poll(
      () => uiAttrs('.transcript', 'aria-live', true),
      (v) => v.length > 0,
      'the transcript',
    );
    assert.deepStrictEqual([...new Set(live)], ['off']);
    assert.deepStrictEqual([...new Set(await uiAttrs('.sr-only[role=status]', 'aria-live', true))], ['polite']);
    await prompt(ref, '/burst 3');
    await turnEnd(a, ref);
    await waitForWebview('.sr-only[role=status]', (t) => t.some((x) => x.startsWith('The agent finished: burst: sent 3 plan updates')));
    await screenshot('citizen-a11y');
  });
});
