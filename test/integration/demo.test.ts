// The Demo Agent's scripted turn through the whole extension: plans in the tree, status bar text,
// plan_removed → archive, plan commands, v1's single `main` plan.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestApi as AcpPlansApi } from './support/ext';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { nextPermission, prompt, session, startDemo, turnEnd, withSetting, type SessionRef } from './support/demo';
import { hasUiHook, screenshot, waitForUi } from './ui';
import { waitFor } from './support/ext';

const ROWS = '.part.sidebar .pane-body .monaco-list-row';
const STATUS = '.part.statusbar #acp-plans\\.acp-plans\\.acp\\.plans\\.status, .part.statusbar [id$="acp.plans.status"]';

interface Row {
  id: string;
  label: string;
  description: string;
  icon: string;
  color?: string;
  context?: string;
}

async function rows(a: AcpPlansApi, node?: PlanTreeNode): Promise<Row[]> {
  const tree = a.internals.plansUi.tree;
  const out: Row[] = [];
  for (const child of (await tree.getChildren(node)) ?? []) {
    const item = await tree.getTreeItem(child);
    const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath : undefined;
    out.push({
      id: String(item.id),
      label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''),
      description: String(item.description ?? ''),
      icon: icon?.id ?? '',
      color: icon?.color?.id,
      context: item.contextValue,
    });
  }
  return out;
}

async function child(a: AcpPlansApi, parent: PlanTreeNode | undefined, label: string): Promise<PlanTreeNode> {
  const tree = a.internals.plansUi.tree;
  for (const c of (await tree.getChildren(parent)) ?? []) {
    const item = await tree.getTreeItem(c);
    const l = typeof item.label === 'string' ? item.label : item.label?.label;
    if (l === label) return c;
  }
  throw new Error(`no tree node "${label}" under ${parent ? parent.id : 'the root'}: ${JSON.stringify((await rows(a, parent)).map((r) => r.label))}`);
}

async function statusText(a: AcpPlansApi): Promise<string> {
  await a.internals.plansUi.statusBar.whenIdle();
  return a.internals.plansUi.statusBar.view.text;
}

describe('Demo Agent turn on v2 (plans through the whole extension)', function () {
  this.timeout(60000);
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

  it('negotiates v2 and shows the agent and its session', async () => {
    const agent = (await rows(a))[0]!;
    assert.strictEqual(agent.label, 'Demo Agent');
    assert.match(agent.description, /^v2 · running/);
    assert.strictEqual(await statusText(a), '$(checklist) No plan');
  });

  it('shows both item plans, markdown, file and custom plans while the agent waits for permission', async () => {
    await prompt(ref, 'Add a farewell function');
    const perm = await nextPermission(a, ref);
    assert.strictEqual(perm.request.subject?.type, 'tool_call');
    assert.deepStrictEqual(
      perm.request.options.map((o) => o.kind),
      ['allow_once', 'allow_always', 'reject_once'],
    );

    // Status bar: attention while the agent waits for the user.
    assert.strictEqual(await statusText(a), '$(bell) 2/5 · waiting for you');
    assert.strictEqual(a.internals.plansUi.statusBar.view.attention, true);

    const agentNode = await child(a, undefined, 'Demo Agent');
    const sessionNode = (await a.internals.plansUi.tree.getChildren(agentNode))![0]!;
    const plans = await rows(a, sessionNode);
    const byLabel = Object.fromEntries(plans.map((p) => [p.label, p]));
    assert.deepStrictEqual(plans.map((p) => p.label).sort(), ['custom', 'impl', 'notes', 'scratch', 'spec', 'tests'].sort());
    assert.match(byLabel.impl!.description, /^items · 2\/5/);
    assert.strictEqual(byLabel.impl!.context, 'plan:items');
    assert.match(byLabel.tests!.description, /^items · 0\/3 · /);
    assert.match(byLabel.notes!.description, /^markdown · \d+\/\d+/);
    assert.match(byLabel.spec!.description, /^file PLAN\.md/);
    assert.match(byLabel.custom!.description, /^_custom/);
    assert.strictEqual(byLabel.custom!.context, 'plan:unknown');

    // Entries: icons per status, the custom status shown raw with a neutral icon.
    const impl = await rows(a, await child(a, sessionNode, 'impl'));
    assert.deepStrictEqual(
      impl.map((e) => e.icon),
      ['pass', 'pass', 'primitive-dot', 'circle-outline', 'circle-outline'],
    );
    assert.match(impl[2]!.description, /^_blocked · /);
    assert.strictEqual(impl[0]!.color, 'testing.iconPassed');

    // The markdown plan's structure and the file plan's content are children.
    const notes = await rows(a, await child(a, sessionNode, 'notes'));
    assert.ok(notes.length > 0 && notes.some((n) => n.context === 'heading'), JSON.stringify(notes));

    if (hasUiHook()) {
      await a.internals.plansUi.treeView.reveal(await child(a, sessionNode, 'impl'), { expand: true });
      const dom = await waitForUi(ROWS, (t) => t.some((x) => x.includes('impl')) && t.some((x) => x.includes('tests')));
      assert.ok(
        dom.some((x) => x.startsWith('Demo Agent')),
        JSON.stringify(dom),
      );
      const bar = await waitForUi(STATUS, (t) => t.some((x) => x.includes('2/5')));
      assert.ok(
        bar.some((x) => x.includes('waiting for you')),
        JSON.stringify(bar),
      );
      await screenshot('demo-v2-waiting-for-permission');
    }
    assert.ok(await a.internals.broker.respond(perm.id, 'allow_once'));
  });

  it('ends the turn with every plan complete, the throwaway plan archived and the status bar exact', async () => {
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    const plans = a.plans({ agentId: ref.agentId, sessionId: ref.sessionId });
    const impl = plans.find((p) => p.planId === 'impl')!;
    assert.match(impl.summary.header, /all 5 steps complete$/);
    assert.ok(!plans.some((p) => p.planId === 'scratch'), 'scratch was removed');
    const archived = a.archivedPlans({ agentId: ref.agentId, sessionId: ref.sessionId });
    assert.deepStrictEqual(
      archived.map((p) => p.planId),
      ['scratch'],
    );
    // The file plan follows PLAN.md on disk: wait until the final file (all boxes ticked) is read.
    const specDone = () => a.plans({ agentId: ref.agentId, sessionId: ref.sessionId }).find((p) => p.planId === 'spec')?.summary.allDone === true;
    await waitFor(a.internals.plans.onDidChange, specDone, 15000, 'the final PLAN.md');
    // Every plan with steps is done: the status bar shows the one the agent updated last.
    assert.strictEqual(await statusText(a), '$(checklist) 5/5');

    const sessionNode = (await a.internals.plansUi.tree.getChildren(await child(a, undefined, 'Demo Agent')))![0]!;
    const archive = await child(a, sessionNode, 'Archived');
    assert.deepStrictEqual(
      (await rows(a, archive)).map((r) => r.label),
      ['scratch'],
    );
    const implRow = (await rows(a, sessionNode)).find((r) => r.label === 'impl')!;
    assert.strictEqual(implRow.icon, 'pass');
    assert.strictEqual(implRow.context, 'plan:items:done');
    if (hasUiHook()) {
      await a.internals.plansUi.treeView.reveal(await child(a, archive, 'scratch'), { select: true });
      await waitForUi(ROWS, (t) => t.some((x) => x.includes('scratch')));
      await screenshot('demo-v2-turn-complete');
    }
  });

  it('copies the plan as a Markdown checklist and exports it as JSON', async () => {
    const plan = { agentId: ref.agentId, sessionId: ref.sessionId, planId: 'tests' };
    const md = await vscode.commands.executeCommand<string>('acp.copyPlanAsMarkdown', plan);
    assert.match(md, /^- \[x\] /m);
    assert.ok(!/- \[ \]/.test(md), md);
    assert.strictEqual(await vscode.env.clipboard.readText(), md);
    const target = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'tests-plan.json');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('acp.exportPlan', plan, target);
    const json = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri))) as { planId: string };
    assert.strictEqual(json.planId, 'tests');
  });
});

describe('Demo Agent turn on v1 (the single main plan)', function () {
  this.timeout(60000);
  it('shows one plan "main" and answers the permission through the broker', async () => {
    const plain = await withSetting('v1.unstablePlans', false);
    const { a, ref, restore } = await startDemo('1');
    try {
      const agent = (await rows(a)).find((r) => r.label === 'Demo Agent')!;
      assert.match(agent.description, /^v1 · running/);
      await prompt(ref, 'Add a farewell function');
      const perm = await nextPermission(a, ref);
      assert.strictEqual(session(a, ref)!.pendingPermissions.length, 1);
      await a.internals.broker.respond(perm.id, 'allow_once');
      assert.strictEqual(await turnEnd(a, ref), 'end_turn');
      const plans = a.plans({ agentId: ref.agentId, sessionId: ref.sessionId });
      assert.deepStrictEqual(
        plans.map((p) => p.planId),
        ['main'],
      );
      assert.strictEqual(plans[0]!.type, 'items');
      assert.ok(plans[0]!.summary.total >= 8, `entries: ${plans[0]!.summary.total}`);
    } finally {
      await vscode.commands.executeCommand('acp.stopAgent', 'demo');
      await restore();
      await plain();
    }
  });

  it('with the unstable plan opt-in, a v1 agent sends several plans by planId', async () => {
    const { a, ref, restore } = await startDemo('1');
    try {
      await prompt(ref, 'Add a farewell function');
      await a.internals.broker.respond((await nextPermission(a, ref)).id, 'reject_once');
      assert.strictEqual(await turnEnd(a, ref), 'end_turn');
      const ids = a
        .plans({ agentId: ref.agentId, sessionId: ref.sessionId })
        .map((p) => p.planId)
        .sort();
      assert.deepStrictEqual(ids, ['impl', 'notes', 'spec', 'tests']);
      assert.deepStrictEqual(
        a.archivedPlans({ agentId: ref.agentId, sessionId: ref.sessionId }).map((p) => p.planId),
        ['scratch'],
      );
    } finally {
      await vscode.commands.executeCommand('acp.stopAgent', 'demo');
      await restore();
    }
  });
});

describe('Demo Agent burst', function () {
  this.timeout(60000);
  it('ends a burst of plan updates in the right final state with few tree refreshes', async () => {
    const { a, ref, restore } = await startDemo('2');
    try {
      let refreshes = 0;
      const sub = a.internals.plansUi.tree.onDidChangeTreeData(() => {
        refreshes++;
      });
      await prompt(ref, '/burst 2000');
      assert.strictEqual(await turnEnd(a, ref), 'end_turn');
      await a.internals.plansUi.statusBar.whenIdle();
      sub.dispose();
      const burst = a.plans({ agentId: ref.agentId, sessionId: ref.sessionId }).find((p) => p.planId === 'burst')!;
      assert.match(burst.summary.header, /all 5 steps complete$/);
      console.log(`      2000 plan updates over a real pipe → ${refreshes} tree refresh events`);
      assert.ok(refreshes < 400, `refreshes: ${refreshes}`);
    } finally {
      await vscode.commands.executeCommand('acp.stopAgent', 'demo');
      await restore();
    }
  });
});
