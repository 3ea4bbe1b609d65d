// Plan mode through the whole extension with the Demo Agent's `/planmode` (Claude-like: an
// "Approve Plan" tool call with the plan in its input, a 4-option switch_mode permission, then a
// Markdown plan_update): the plan in full on the card (webview DOM), each option explained, no
// rule answers it, approval keeps the plan in the tree (also when the agent never sends it). Also:
// New Session right after Start Agent leaves no extra empty session (tree rows), a cost below a
// cent keeps its digits, and an image attached with "Attach…" reaches the agent.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TestApi as AcpPlansApi } from './support/ext';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { sessionKey } from '../../src/state/sessionStore';
import { messageText } from '../../src/state/transcript';
import { PLAN_MODE_PLAN } from '../../src/demo/scenarios/planMode';
import { nextPermission, prompt, startDemo, turnEnd, type SessionRef } from './support/demo';
import { waitFor } from './support/ext';
import { hasUiHook, screenshot, waitForUi, waitForWebview, webviewClick, webviewTexts } from './ui';

const ROWS = '.part.sidebar .pane-body .monaco-list-row';
const EXT_ID = 'acp-plans.acp-plans';

interface Row {
  label: string;
  description: string;
  tooltip: string;
  context: string;
}

async function rows(a: AcpPlansApi, node?: PlanTreeNode): Promise<{ node: PlanTreeNode; row: Row }[]> {
  const tree = a.internals.plansUi.tree;
  return Promise.all(
    ((await tree.getChildren(node)) ?? []).map(async (n) => {
      const item = await tree.getTreeItem(n);
      const tooltip = typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '');
      return {
        node: n,
        row: {
          label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''),
          description: String(item.description ?? ''),
          tooltip,
          context: item.contextValue ?? '',
        },
      };
    }),
  );
}

async function sessionRows(a: AcpPlansApi): Promise<{ node: PlanTreeNode; row: Row }[]> {
  await a.internals.plansUi.tree.whenIdle();
  const agent = (await rows(a)).find((r) => r.row.label === 'Demo Agent') ?? assert.fail('no Demo Agent row');
  return rows(a, agent.node);
}

/** Agent messages of the session, as text. */
function agentTexts(a: AcpPlansApi, ref: SessionRef): string[] {
  const s = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId));
  return (s?.slice(s.firstIndex) ?? []).flatMap((i) => (i.kind === 'message' && i.role === 'agent' ? [messageText(i)] : []));
}

describe('Plan mode, prompt images and session fixes (Demo Agent, v2)', function () {
  this.timeout(120_000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;

  before(async () => {
    ({ a, ref, restore } = await startDemo('2'));
    await vscode.commands.executeCommand('workbench.view.extension.acp');
  });
  after(async () => {
    await vscode.commands.executeCommand('acp.stopAgent', 'demo');
    await restore();
  });

  it('New Session right after Start Agent opens no extra empty session', async () => {
    const again = await vscode.commands.executeCommand<SessionRef>('acp.newSession', 'demo');
    assert.deepStrictEqual(again, ref, 'the untouched session is reused');
    assert.strictEqual((await sessionRows(a)).length, 1, 'one session row under the Demo Agent');
    assert.deepStrictEqual(
      a.internals.store.sessions('demo').map((s) => s.sessionId),
      [ref.sessionId],
    );
  });

  it('shows the plan in full on the plan-mode card with each option explained; approval keeps the plan in the tree', async () => {
    // `noplan`: the agent never sends the plan as a plan_update; it is only in the tool call's input.
    await prompt(ref, '/planmode noplan');
    const pending = await nextPermission(a, ref);
    assert.strictEqual(pending.request.title, 'Ready to code?');
    assert.deepStrictEqual(
      a.internals.broker.optionViews(pending.id)?.map((v) => v.mayCreateRule || v.mayAutoPick),
      [false, false, false, false],
      'no rule may answer or be created from a plan approval',
    );

    if (hasUiHook()) {
      const card = await waitForWebview('.permission.plan-mode', (t) => t.some((x) => x.includes('Add a unit test for both greetings')));
      const text = card.join('\n');
      for (const part of [
        'Plan approval',
        'Ready to code?',
        'Plan: add a farewell to hello.ts',
        'The greeting module says hello but never goodbye.',
        'Callers that import',
      ]) {
        assert.ok(text.includes(part), `the card shows "${part}": ${text}`);
      }
      // Rendered as Markdown (headings and list items), not as raw text.
      const headings = await webviewTexts('.permission.plan-mode .perm-plan h1, .permission.plan-mode .perm-plan h2');
      assert.deepStrictEqual(headings, ['Plan: add a farewell to hello.ts', 'Steps', 'Risks']);
      const explain = await webviewTexts('.permission.plan-mode .perm-explain');
      assert.strictEqual(explain.length, 4, JSON.stringify(explain));
      assert.match(explain[0]!, /asks you before each edit or command/);
      assert.match(explain[1]!, /decides by itself/);
      assert.match(explain[2]!, /bypass permissions: the agent will edit files and run commands WITHOUT asking you/);
      assert.match(explain[3]!, /Stay in plan mode: the agent changes nothing/);
      // Scroll the plan into view (a click on its summary folds it, a second one unfolds it).
      assert.ok(await webviewClick('.permission.plan-mode .perm-plan > summary'));
      assert.ok(await webviewClick('.permission.plan-mode .perm-plan > summary'));
      await waitForWebview('.permission.plan-mode .perm-plan h2', (t) => t.includes('Risks'));
      console.log(`screenshot: ${await screenshot('planmode-card')}`);
      assert.ok(await webviewClick('button.perm-option', 'manually approve edits'), 'clicked the approve option in the webview');
    } else {
      assert.ok(await a.internals.broker.choose(pending.id, { index: 0 }));
    }
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    assert.ok(agentTexts(a, ref).includes('plan approved: leaving plan mode (default)'), JSON.stringify(agentTexts(a, ref)));

    // The approved plan is a Markdown plan of the session, titled by its first heading (planId in the tooltip).
    const plan = a.internals.plans.get({ ...ref, planId: 'plan-mode' }) ?? assert.fail('no plan-mode plan');
    assert.ok(plan.plan.type === 'markdown' && plan.plan.content === PLAN_MODE_PLAN);
    const session = (await sessionRows(a))[0] ?? assert.fail('no session row');
    const planRow = (await rows(a, session.node)).find((r) => r.row.tooltip.includes('Plan plan-mode')) ?? assert.fail('no plan row');
    assert.strictEqual(planRow.row.label, 'Plan: add a farewell to hello.ts');
    assert.match(planRow.row.description, /^markdown · 0\/3/);

    // The cost of 0.004 USD keeps its digits.
    if (hasUiHook()) {
      const header = await waitForWebview('.session-header .usage', (t) => t.some((x) => x.includes('USD')));
      assert.ok(
        header.some((x) => x.includes('0.004 USD')),
        JSON.stringify(header),
      );
      await a.internals.plansUi.treeView.reveal(planRow.node, { expand: true, select: true });
      await waitForUi(ROWS, (t) => t.some((x) => x.includes('Plan: add a farewell to hello.ts')));
      console.log(`screenshot: ${await screenshot('planmode-approved-tree')}`);
    }
  });

  it('sends an image attached with "Attach…" as an image block the agent receives', async function () {
    if (!hasUiHook()) this.skip();
    const fixture = path.join(vscode.extensions.getExtension(EXT_ID)!.extensionPath, 'test', 'fixtures', 'media', 'red-8x8.png');
    const w = vscode.window as { showOpenDialog: typeof vscode.window.showOpenDialog };
    const original = w.showOpenDialog;
    w.showOpenDialog = () => Promise.resolve([vscode.Uri.file(fixture)]);
    try {
      if (w.showOpenDialog === original) this.skip(); // the API object refused the stub
      await waitForWebview('button.attach', (t) => t.some((x) => x.includes('Attach')));
      assert.ok(await webviewClick('button.attach'));
      await waitForWebview('.media-chip', (t) => t.some((x) => x.includes('red-8x8.png')));
      assert.ok(await webviewClick('button.send'));
      await waitFor(
        a.internals.transcript.onDidChange,
        () => agentTexts(a, ref).some((x) => x.startsWith('Received 1 image')),
        20_000,
        'the image acknowledged',
      );
      assert.ok(agentTexts(a, ref).includes('Received 1 image: image/png, 74 bytes'), JSON.stringify(agentTexts(a, ref)));
      // The prompt was the image alone (no empty text block before it), as the agent echoed it.
      const t = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId))!;
      const echoed = t
        .slice(t.firstIndex)
        .filter((i) => i.kind === 'message' && i.role === 'user')
        .pop();
      assert.deepStrictEqual(echoed?.kind === 'message' && echoed.parts.map((p) => (p.type === 'text' ? `text:${p.chunks.join('')}` : p.block.type)), [
        'image',
      ]);
      // The prompt echoed in the conversation shows the image; the default turn it started is cancelled.
      await waitForWebview('.message.role-user img.block-image', (t) => t.length > 0);
      assert.ok(await webviewClick('.message.role-user img.block-image'), 'the image is shown (clicked into view)');
      console.log(`screenshot: ${await screenshot('planmode-image-received')}`);
      await vscode.commands.executeCommand('acp.cancelTurn', ref);
      assert.strictEqual(await turnEnd(a, ref), 'cancelled');
    } finally {
      w.showOpenDialog = original;
    }
  });

  it('offers "Open Plan File" for a Markdown plan whose file is in the workspace, never outside', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail('no workspace folder');
    const file = path.join(folder, '.acp-demo', 'PLANMODE.md');
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file), new TextEncoder().encode('# From the file\n'));
    const inside = { ...ref, planId: 'md-with-path' };
    a.internals.plans.update(ref.agentId, ref.sessionId, { type: 'markdown', planId: inside.planId, content: '# Shown from content\n- [ ] step', path: file });
    a.internals.plans.update(ref.agentId, ref.sessionId, { type: 'markdown', planId: 'md-outside', content: '# Outside', path: '/etc/hostname' });
    const session = (await sessionRows(a))[0] ?? assert.fail('no session row');
    const planRows = await rows(a, session.node);
    const row = planRows.find((r) => r.row.tooltip.includes('Plan md-with-path')) ?? assert.fail('no row');
    assert.strictEqual(row.row.label, 'Shown from content', 'the content is shown, its heading as the title');
    assert.match(row.row.context, /^plan:markdown:file/);
    assert.strictEqual(await vscode.commands.executeCommand('acp.openPlanFile', inside), true);
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, file);
    assert.strictEqual(
      await vscode.commands.executeCommand('acp.openPlanFile', { ...ref, planId: 'md-outside' }),
      false,
      'a file outside the workspace is not opened',
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
