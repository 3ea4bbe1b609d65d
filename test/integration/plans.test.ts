// The plans experience inside a real extension host. The first suite builds its own stores and
// tree provider (so it controls every event), feeds SessionEvents straight into them, and reads
// the tree through getChildren/getTreeItem like VS Code does. The second feeds the extension's own
// stores (api().internals) and checks the real Plans view, status bar and commands.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PlanContent, PlanEntry, SessionEvent } from '../../src/protocol/domain';
import { PlanStore, type PlanRef } from '../../src/state/planStore';
import { SessionStore } from '../../src/state/sessionStore';
import { PlanCommands } from '../../src/ui/planCommands';
import { PlanDocuments } from '../../src/ui/planDocuments';
import { PlansStatusBar } from '../../src/ui/statusBar';
import { FilePlanSync } from '../../src/ui/tree/filePlans';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { PlansTreeProvider } from '../../src/ui/tree/plansTreeProvider';
import { api, waitFor } from './support/ext';
import { hasUiHook, screenshot, waitForUi } from './ui';

const A = 'demo';
const S = 'sess-1';
const e = (content: string, status: string, priority = 'medium'): PlanEntry => ({ content, status, priority });
const items = (planId: string, ...entries: PlanEntry[]): PlanContent => ({ type: 'items', planId, entries });
const upd = (plan: PlanContent, sessionId = S): SessionEvent => ({ sessionId, kind: 'plan_update', plan });

interface Row {
  id?: string;
  label: string;
  description?: string;
  icon?: string;
  color?: string;
  contextValue?: string;
  tooltip?: string;
  collapsible?: vscode.TreeItemCollapsibleState;
}

function row(t: vscode.TreeItem): Row {
  const icon = t.iconPath instanceof vscode.ThemeIcon ? t.iconPath : undefined;
  return {
    ...(t.id !== undefined ? { id: t.id } : {}),
    label: typeof t.label === 'string' ? t.label : (t.label?.label ?? ''),
    ...(typeof t.description === 'string' ? { description: t.description } : {}),
    ...(icon ? { icon: icon.id } : {}),
    ...(icon?.color ? { color: icon.color.id } : {}),
    ...(t.contextValue !== undefined ? { contextValue: t.contextValue } : {}),
    ...(typeof t.tooltip === 'string' ? { tooltip: t.tooltip } : {}),
    ...(t.collapsibleState !== undefined ? { collapsible: t.collapsibleState } : {}),
  };
}

class Fixture implements vscode.Disposable {
  readonly registry = new SessionStore();
  readonly plans = new PlanStore();
  readonly tree = new PlansTreeProvider(this.registry, this.plans);
  private readonly owned: vscode.Disposable[] = [this.tree, this.registry, this.plans];

  constructor() {
    this.registry.setAgent({ id: A, name: 'Demo Agent', protocolVersion: 2, status: 'running' });
    this.registry.attachSession(A, S, { title: 'Fix the build' });
    this.registry.setActiveSession({ agentId: A, sessionId: S });
  }

  own<T extends vscode.Disposable>(d: T): T {
    this.owned.push(d);
    return d;
  }
  apply(ev: SessionEvent): void {
    this.registry.applyEvent(A, ev);
    this.plans.apply(A, ev);
  }
  children(n?: PlanTreeNode): PlanTreeNode[] {
    return this.tree.getChildren(n);
  }
  rows(n?: PlanTreeNode): Row[] {
    return this.children(n).map((c) => row(this.tree.getTreeItem(c)));
  }
  session(): PlanTreeNode {
    return this.children(this.children()[0])[0] ?? assert.fail('no session node');
  }
  plan(planId: string): PlanTreeNode {
    const n = this.children(this.session()).find((c) => c.kind === 'plan' && c.ref.planId === planId);
    return n ?? assert.fail(`no plan node ${planId}`);
  }
  dispose(): void {
    for (const d of this.owned.splice(0).reverse()) d.dispose();
  }
}

describe('Plans (tree, status bar, commands)', function () {
  this.timeout(60000);
  let fx: Fixture;
  beforeEach(() => {
    fx = new Fixture();
  });
  afterEach(() => fx.dispose());

  it('shows Agent → Session → Plan → entries with icons, progress and facets', () => {
    fx.apply({ sessionId: S, kind: 'state', state: 'running' });
    // Expanded even while empty (shown as a leaf): VS Code would keep a node collapsed that first rendered as None.
    assert.equal(fx.rows(fx.children()[0])[0]!.collapsible, vscode.TreeItemCollapsibleState.Expanded);
    fx.apply(
      upd(
        items(
          'plan-1',
          e('Scaffold', 'completed', 'high'),
          e('Run tests', 'in_progress'),
          e('Resolve schema', '_blocked', 'low'),
          e('Old idea', 'cancelled'),
          e('x'.repeat(200), 'pending'),
        ),
      ),
    );

    const [agent] = fx.rows();
    assert.deepEqual([agent!.label, agent!.description, agent!.contextValue, agent!.id], ['Demo Agent', 'v2 · running', 'agent:running', 'demo']);
    assert.equal(agent!.collapsible, vscode.TreeItemCollapsibleState.Expanded);
    fx.registry.setAgent({ id: 'idle-agent', name: 'Idle', status: 'stopped' });
    assert.deepEqual(
      fx.rows().map((r) => [r.label, r.collapsible]),
      [
        ['Demo Agent', vscode.TreeItemCollapsibleState.Expanded],
        ['Idle', vscode.TreeItemCollapsibleState.Expanded],
      ],
    );
    const [session] = fx.rows(fx.children()[0]);
    assert.deepEqual(
      [session!.label, session!.description, session!.icon, session!.contextValue],
      ['Fix the build', 'running · active', 'loading~spin', 'session:active'],
    );
    assert.equal(session!.collapsible, vscode.TreeItemCollapsibleState.Expanded);

    const [plan] = fx.rows(fx.session());
    assert.equal(plan!.label, 'Plan 1', 'a machine planId is shown in words (the planId stays in the tooltip)');
    assert.equal(plan!.description, 'items · 1/5 · 1 blocked · Run tests');
    assert.equal(plan!.contextValue, 'plan:items');
    assert.equal(plan!.id, 'demo/sess-1/plan-1');
    assert.match(plan!.tooltip!, /v1 — 1\/5 done, 1 blocked, 1 cancelled/);
    assert.equal(plan!.collapsible, vscode.TreeItemCollapsibleState.Expanded);

    const entries = fx.rows(fx.plan('plan-1'));
    assert.deepEqual(
      entries.map((r) => [r.id, r.icon, r.color, r.contextValue]),
      [
        ['demo/sess-1/plan-1/0', 'pass', 'testing.iconPassed', 'entry:completed'],
        ['demo/sess-1/plan-1/1', 'sync~spin', 'charts.blue', 'entry:in_progress'],
        ['demo/sess-1/plan-1/2', 'primitive-dot', undefined, 'entry:custom'],
        ['demo/sess-1/plan-1/3', 'circle-slash', 'disabledForeground', 'entry:cancelled'],
        ['demo/sess-1/plan-1/4', 'circle-outline', undefined, 'entry:pending'],
      ],
    );
    assert.equal(entries[0]!.description, 'high');
    assert.equal(entries[2]!.description, '_blocked · low', 'unknown status shows its raw text');
    assert.equal(entries[4]!.label.length, 80, 'long content cut in the label');
    assert.ok(entries[4]!.tooltip!.startsWith('x'.repeat(200)), 'full text in the tooltip');
  });

  it('shows several plans, markdown structure, unknown types and the archive', () => {
    fx.apply(upd(items('a', e('one', 'completed'), e('two', 'completed'))));
    fx.apply(upd({ type: 'markdown', planId: 'impl', content: '## Steps\n- [x] Refactor module\n- [ ] Add tests\n  - [ ] unit' }));
    fx.apply(upd({ type: 'unknown', planId: 'intent', rawType: '_intent', raw: { type: '_intent', planId: 'intent', goal: 'ship', budget: { calls: 3 } } }));
    fx.apply(upd(items('gone', e('old', 'pending'))));
    fx.apply({ sessionId: S, kind: 'plan_removed', planId: 'gone' });

    const plans = fx.rows(fx.session());
    assert.deepEqual(
      plans.map((r) => [r.label, r.contextValue]),
      [
        ['a', 'plan:items:done'],
        ['impl', 'plan:markdown'],
        ['intent', 'plan:unknown'],
        ['Archived', 'archive'],
      ],
    );
    assert.equal(plans[0]!.collapsible, vscode.TreeItemCollapsibleState.Collapsed, 'completed plans collapsed');
    assert.equal(plans[0]!.icon, 'pass');

    const md = fx.children(fx.plan('impl'));
    assert.deepEqual(
      md.map((n) => row(fx.tree.getTreeItem(n))).map((r) => [r.label, r.description, r.contextValue]),
      [['Steps', '1/3', 'heading']],
    );
    const tasks = fx.rows(md[0]);
    assert.deepEqual(
      tasks.map((r) => [r.label, r.icon, r.contextValue]),
      [
        ['Refactor module', 'pass', 'entry:completed:md'],
        ['Add tests', 'circle-outline', 'entry:pending:md'],
      ],
    );
    assert.deepEqual(
      fx.rows(fx.children(md[0])[1]).map((r) => r.label),
      ['unit'],
    );

    const fields = fx.rows(fx.plan('intent'));
    assert.deepEqual(
      fields.map((r) => [r.label, r.description]),
      [
        ['goal', '"ship"'],
        ['budget', '{"calls":3}'],
      ],
    );

    const archive = fx.children(fx.session()).at(-1)!;
    const archived = fx.rows(archive);
    assert.deepEqual(
      archived.map((r) => [r.label, r.contextValue]),
      [['gone', 'plan:items:archived']],
    );
    assert.match(archived[0]!.description!, /removed /);
    assert.deepEqual(
      fx.rows(fx.children(archive)[0]).map((r) => r.label),
      ['old'],
    );
  });

  it('odek seed rows: "0 blocked" always, step ids and notes, and the oldest done steps folded past the threshold', async () => {
    let after = 5;
    const tree = fx.own(new PlansTreeProvider(fx.registry, fx.plans, { foldDoneStepsAfter: () => after }));
    const rowsOf = (n?: PlanTreeNode): Row[] => tree.getChildren(n).map((c) => row(tree.getTreeItem(c)));
    const step = (i: number, status: string, note?: string): PlanEntry => ({ ...e(`Step ${i}`, status), _meta: { id: `s${i}`, ...(note ? { note } : {}) } });
    const eight = (blocked: string) =>
      [1, 2, 3, 4, 5].map((i) => step(i, 'completed')).concat(step(6, 'in_progress'), step(7, blocked, 'provider rejects nested arrays'), step(8, 'pending'));
    fx.apply(upd(items('long', ...eight('pending'))));
    const session = tree.getChildren(tree.getChildren()[0])[0]!;
    const plan = tree.getChildren(session)[0]!;
    const planRow = row(tree.getTreeItem(plan));
    assert.equal(planRow.description, 'items · 5/8 · 0 blocked · Step 6');
    assert.match(planRow.tooltip!, /v1 — 5\/8 done, 0 blocked/);

    // 8 steps, threshold 5: the 4 oldest done steps fold into one row, collapsed, where the first one was.
    const rows = rowsOf(plan);
    assert.deepEqual(
      rows.map((r) => r.label),
      ['+4 done steps', 'Step 5', 'Step 6', 'Step 7', 'Step 8'],
    );
    assert.deepEqual(
      [rows[0]!.id, rows[0]!.collapsible, rows[0]!.contextValue, rows[0]!.icon],
      ['demo/sess-1/long/#fold', vscode.TreeItemCollapsibleState.Collapsed, 'fold', 'fold'],
    );
    const fold = tree.getChildren(plan)[0]!;
    assert.deepEqual(
      rowsOf(fold).map((r) => [r.id, r.label]),
      [1, 2, 3, 4].map((i) => [`demo/sess-1/long/${i - 1}`, `Step ${i}`]),
    );
    // reveal works through the fold row.
    const folded = tree.getChildren(fold)[0]!;
    assert.equal(tree.getParent(folded), fold);
    assert.equal(tree.getParent(fold), plan);
    assert.equal(tree.getParent(tree.getChildren(plan)[1]!), plan);

    // Ids and notes from _meta: description, tooltip.
    const s7 = rows[3]!;
    assert.equal(s7.description, 's7 · medium · provider rejects nested arrays');
    assert.match(s7.tooltip!, /Step 7 \(id s7\) · Status: pending/);
    assert.match(s7.tooltip!, /Note: provider rejects nested arrays/);

    // Blocked: counted on the row; a shorter plan or a threshold of 0 folds nothing.
    fx.apply(upd(items('long', ...eight('_blocked'))));
    await tree.whenIdle();
    assert.equal(row(tree.getTreeItem(plan)).description, 'items · 5/8 · 1 blocked · Step 6');
    after = 0;
    tree.refreshAll();
    assert.equal(rowsOf(plan).length, 8);
    after = 20;
    assert.equal(rowsOf(plan).length, 8);
  });

  it('refreshes only the changed plan node, and getParent leads back to the root', async () => {
    fx.apply(upd(items('p1', e('a', 'in_progress'))));
    fx.apply(upd(items('p2', e('b', 'pending'))));
    const p1 = fx.plan('p1');
    const entry = fx.children(p1)[0]!;
    await fx.tree.whenIdle();
    const fired: (PlanTreeNode | PlanTreeNode[] | undefined)[] = [];
    fx.own(fx.tree.onDidChangeTreeData((x) => fired.push(x)));
    fx.apply(upd(items('p1', e('a', 'completed'))));
    fx.apply(upd(items('p1', e('a', 'completed'), e('c', 'in_progress'))));
    await fx.tree.whenIdle();
    assert.equal(fired.length, 1);
    assert.deepEqual(fired[0], [p1]);
    assert.equal((fired[0] as PlanTreeNode[])[0], p1, 'interned: the same element object');
    assert.equal(fx.tree.getParent(entry), p1);
    assert.equal(fx.tree.getParent(p1), fx.session());
    assert.equal(fx.tree.getParent(fx.session()), fx.children()[0]);
    assert.equal(fx.tree.getParent(fx.children()[0]!), undefined);
  });

  it('ends a burst of 10,000 updates in about a second in the right tree, with few refreshes', async () => {
    fx.apply(upd(items('burst', e('start', 'pending'))));
    fx.apply(upd(items('other', e('untouched', 'pending'))));
    fx.children(fx.plan('burst'));
    await fx.tree.whenIdle();
    const before = fx.tree.refreshEvents;
    const N = 10_000;
    const steps = 8;
    const t0 = Date.now();
    for (let i = 0; i < N; i++) {
      const done = Math.floor((i * (steps + 1)) / N);
      const entries = Array.from({ length: steps }, (_, k) => e(`step ${k + 1}`, k < done ? 'completed' : k === done ? 'in_progress' : 'pending'));
      fx.apply(upd(items('burst', ...entries, e(`tick ${i}`, 'pending'))));
      // Spread over about a second: yield to the event loop every 100 updates.
      if (i % 100 === 99) await new Promise((r) => setTimeout(r, 5));
    }
    fx.apply(upd(items('burst', ...Array.from({ length: steps }, (_, k) => e(`step ${k + 1}`, 'completed')), e('tick final', 'completed'))));
    await fx.tree.whenIdle();
    const ms = Date.now() - t0;
    const refreshes = fx.tree.refreshEvents - before;
    console.log(`      ${N + 1} plan updates in ${ms} ms → ${refreshes} tree refresh events`);

    const burst = fx.plans.get({ agentId: A, sessionId: S, planId: 'burst' })!;
    assert.equal(burst.version, N + 2);
    assert.equal(burst.revisions.length, 200);
    const plan = row(fx.tree.getTreeItem(fx.plan('burst')));
    assert.equal(plan.description, 'items · 9/9');
    assert.equal(plan.contextValue, 'plan:items:done');
    assert.deepEqual(
      fx.rows(fx.plan('burst')).map((r) => r.icon),
      Array(9).fill('pass'),
    );
    assert.equal(fx.rows(fx.plan('burst')).at(-1)!.label, 'tick final');
    assert.ok(refreshes > 0 && refreshes < 500, `${refreshes} refreshes for ${N} updates`);
  });

  it('loads a file plan, follows changes on disk, and explains missing or refused files', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? assert.fail('no workspace folder');
    const file = vscode.Uri.joinPath(folder, `plan-${Date.now()}.md`);
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('# Design\n- [x] Draft\n- [ ] Review\n'));
    const sync = fx.own(new FilePlanSync(fx.plans));
    const ref: PlanRef = { agentId: A, sessionId: S, planId: 'doc' };
    const loaded = (text: string) => () => fx.plans.get(ref)?.file?.text?.includes(text) ?? false;
    try {
      fx.apply(upd({ type: 'file', planId: 'doc', uri: file.toString() }));
      await waitFor(fx.plans.onDidChange, loaded('Review'), 15000, 'file plan loaded');
      assert.equal(sync.watched, 1);
      let plan = row(fx.tree.getTreeItem(fx.plan('doc')));
      assert.equal(plan.contextValue, 'plan:file');
      assert.match(plan.description!, /^file plan-\d+\.md · 1\/2 · 0 blocked · Review$/);
      assert.deepEqual(
        fx.rows(fx.children(fx.plan('doc'))[0]).map((r) => [r.label, r.icon]),
        [
          ['Draft', 'pass'],
          ['Review', 'circle-outline'],
        ],
      );

      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('# Design\n- [x] Draft\n- [x] Review\n- [ ] Ship\n'));
      await waitFor(fx.plans.onDidChange, loaded('Ship'), 15000, 'file change picked up by the watcher');
      plan = row(fx.tree.getTreeItem(fx.plan('doc')));
      assert.match(plan.description!, /2\/3 · 0 blocked · Ship$/);
      assert.equal(fx.plans.get(ref)!.version, 1, 'a file change is not an agent revision');

      fx.apply(upd({ type: 'file', planId: 'missing', uri: vscode.Uri.joinPath(folder, 'nope.md').toString() }));
      fx.apply(upd({ type: 'file', planId: 'web', uri: 'https://example.com/plan.md' }));
      await waitFor(fx.plans.onDidChange, () => fx.plans.get({ ...ref, planId: 'missing' })?.file?.error !== undefined, 15000, 'missing file reported');
      assert.deepEqual(
        fx.rows(fx.plan('missing')).map((r) => [r.icon, /not found/.test(r.label)]),
        [['warning', true]],
      );
      assert.match(fx.rows(fx.plan('web'))[0]!.label, /refused: only file: URIs are opened, not https:/);

      assert.equal(sync.watched, 2, 'doc and missing are watched; the refused URI is not');
      fx.apply({ sessionId: S, kind: 'plan_removed', planId: 'doc' });
      assert.equal(sync.watched, 1, 'the watcher is disposed with the plan');
      fx.plans.clearSession(A, S);
      assert.equal(sync.watched, 0);
    } finally {
      await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
    }
  });

  it("keeps the status bar on the active session's progress", async () => {
    const bar = fx.own(new PlansStatusBar(fx.registry, fx.plans));
    await bar.whenIdle();
    assert.equal(bar.view.text, '$(checklist) No plan');
    fx.apply({ sessionId: S, kind: 'state', state: 'running' });
    fx.apply(
      upd(
        items(
          'p',
          e('a', 'completed'),
          e('b', 'completed'),
          e('c', 'completed'),
          e('Run tests', 'in_progress'),
          e('e', 'pending'),
          e('f', 'pending'),
          e('g', 'pending'),
        ),
      ),
    );
    await bar.whenIdle();
    assert.equal(bar.view.text, '$(loading~spin) 3/7 · Run tests');
    assert.equal(bar.item.text, bar.view.text);
    assert.equal(bar.item.command, 'acp.focusPlans');
    fx.registry.addPendingPermission({
      id: 'p1',
      agentId: A,
      agentName: 'Demo Agent',
      request: { sessionId: S, title: 'Run tests', options: [] } as never,
      flags: [],
      createdAt: 0,
    });
    await bar.whenIdle();
    assert.equal(bar.item.text, '$(bell) 3/7 · waiting for you');
    assert.ok(bar.item.backgroundColor instanceof vscode.ThemeColor);
    fx.registry.setActiveSession(undefined);
    await bar.whenIdle();
    assert.equal(bar.view.visible, false);
  });

  it('copies, exports, shows raw JSON, history and opens plans', async () => {
    const documents = fx.own(new PlanDocuments(fx.plans, 'acp-plan-test'));
    const cmds = new PlanCommands({ registry: fx.registry, plans: fx.plans, tree: fx.tree, documents });
    fx.apply(upd(items('p', e('Scaffold', 'completed'), e('Wire', 'in_progress'), e('Old', 'cancelled'))));
    fx.apply(upd(items('p', e('Scaffold', 'completed'), e('Wire', 'completed'), e('Old', 'cancelled'))));
    fx.apply(upd(items('p', e('Scaffold', 'completed'), e('Wire', 'completed'), e('Old', 'cancelled'), e('Ship', 'pending'))));
    const ref: PlanRef = { agentId: A, sessionId: S, planId: 'p' };

    const md = await cmds.copyPlanAsMarkdown(fx.plan('p'));
    assert.equal(md, '## p · v3 — 2/4 done, 0 blocked, 1 cancelled\n\n- [x] Scaffold\n- [x] Wire\n- [x] ~~Old~~\n- [ ] Ship\n');
    assert.equal(await vscode.env.clipboard.readText(), md);

    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const mdFile = await cmds.exportPlan(ref, vscode.Uri.joinPath(folder, 'export-test.md'));
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(mdFile!)), md);
    const jsonFile = await cmds.exportPlan(fx.children(fx.plan('p'))[1], vscode.Uri.joinPath(folder, 'export-test.json'));
    const exported = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(jsonFile!))) as {
      planId: string;
      version: number;
      revisions: unknown[];
    };
    assert.deepEqual([exported.planId, exported.version, exported.revisions.length], ['p', 3, 3]);

    const raw = { type: '_intent', planId: 'i', goal: 'ship' };
    fx.apply(upd({ type: 'unknown', planId: 'i', rawType: '_intent', raw }));
    const rawUri = await cmds.showRawPlan({ agentId: A, sessionId: S, planId: 'i' });
    assert.deepEqual(JSON.parse((await vscode.workspace.openTextDocument(rawUri!)).getText()), raw);

    const [left, right] = (await cmds.showPlanHistory(ref, [1, 3]))!;
    assert.match((await vscode.workspace.openTextDocument(left!)).getText(), /^## p · v1 — 1\/3 done, 0 blocked, 1 cancelled/);
    assert.match((await vscode.workspace.openTextDocument(right!)).getText(), /- \[ \] Ship/);
    const single = await cmds.showPlanHistory(ref, [2]);
    assert.equal(single?.length, 2, 'one pick is compared with the revision before it');

    fx.apply(upd({ type: 'markdown', planId: 'm', content: '# Plan\n- [ ] step' }));
    const mdUri = await cmds.openPlan({ agentId: A, sessionId: S, planId: 'm' });
    assert.match((await vscode.workspace.openTextDocument(mdUri!)).getText(), /- \[ \] step/);
    fx.apply(upd({ type: 'file', planId: 'web', uri: 'https://example.com/plan.md' }));
    assert.equal(await cmds.openPlan({ agentId: A, sessionId: S, planId: 'web' }), undefined, 'non-file URI refused');
    fx.apply(upd({ type: 'file', planId: 'rel', uri: 'file:plan.md' }));
    assert.equal(await cmds.openPlan({ agentId: A, sessionId: S, planId: 'rel' }), undefined, 'relative file URI refused');

    // A raw JSON document follows the plan.
    fx.apply(upd({ type: 'unknown', planId: 'i', rawType: '_intent', raw: { ...raw, goal: 'ship it' } }));
    const doc = await vscode.workspace.openTextDocument(rawUri!);
    await waitFor(vscode.workspace.onDidChangeTextDocument, () => doc.getText().includes('ship it'), 10000, 'raw document updated');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

describe('Plans through the extension (wired view, commands, API)', function () {
  this.timeout(60000);
  const agentId = `plans-test-${process.pid}`;
  const sessionId = 'sess-wired';
  let restoreActive: { agentId: string; sessionId: string } | undefined;
  let wired: Awaited<ReturnType<typeof api>>['internals'] | undefined;

  before(async function () {
    const a = await api();
    wired = (a as { internals?: typeof wired }).internals;
    if (!wired?.plansUi) this.skip();
    restoreActive = wired.store.activeSession;
    wired.store.setAgent({ id: agentId, name: 'Plans Test Agent', protocolVersion: 1, status: 'running' });
    wired.store.attachSession(agentId, sessionId, { title: 'Wired session' });
    wired.store.setActiveSession({ agentId, sessionId });
  });

  after(() => {
    if (!wired) return;
    wired.plans.clearAgent(agentId);
    wired.store.removeAgent(agentId);
    wired.store.setActiveSession(restoreActive);
  });

  const feed = (ev: SessionEvent): void => {
    wired!.store.applyEvent(agentId, ev);
    wired!.plans.apply(agentId, ev);
  };

  it('renders a 10,000-update burst in the real view, reveals the current step, and runs the commands', async () => {
    const { plansUi } = wired!;
    await vscode.commands.executeCommand('acp.focusPlans');
    feed({ sessionId, kind: 'state', state: 'running' });
    feed(upd(items('main', e('warm up', 'pending')), sessionId));
    await plansUi.tree.whenIdle();
    const before = plansUi.tree.refreshEvents;
    const t0 = Date.now();
    const N = 10_000;
    for (let i = 0; i < N; i++) {
      feed(upd(items('main', e('Scaffold', 'completed'), e('Run tests', 'in_progress'), e(`tick ${i}`, 'pending')), sessionId));
      if (i % 100 === 99) await new Promise((r) => setTimeout(r, 5));
    }
    await plansUi.tree.whenIdle();
    const refreshes = plansUi.tree.refreshEvents - before;
    console.log(`      real view: ${N} plan updates in ${Date.now() - t0} ms → ${refreshes} tree refresh events`);
    assert.ok(refreshes > 0 && refreshes < 500, `${refreshes} refreshes`);

    const ref = { agentId, sessionId, planId: 'main' };
    const id = await vscode.commands.executeCommand<string>('acp.revealCurrentStep', ref);
    assert.equal(id, `${agentId}/${sessionId}/main/1`);
    assert.equal(plansUi.treeView.selection[0]?.id, id);
    if (hasUiHook()) {
      const rows = await waitForUi('.part.sidebar .monaco-list-row', (t) => t.some((x) => x.includes(`tick ${N - 1}`)));
      assert.ok(rows.some((x) => x.includes('Run tests')));
      await waitForUi('.part.statusbar .statusbar-item', (t) => t.some((x) => x.includes('1/3 · Run tests')));
      await screenshot('plans-wired');
    }

    // A Markdown plan's current step sits under its heading: reveal walks getParent up to the agent.
    feed(upd({ type: 'markdown', planId: 'md', content: '# A\n- [x] one\n# B\n- [ ] Markdown step' }, sessionId));
    const mdId = await vscode.commands.executeCommand<string>('acp.revealCurrentStep', { agentId, sessionId, planId: 'md' });
    assert.equal(mdId, `${agentId}/${sessionId}/md/3`);
    assert.equal(plansUi.treeView.selection[0]?.id, mdId);
    assert.equal(plansUi.tree.getTreeItem(plansUi.treeView.selection[0]!).label, 'Markdown step');

    const md = await vscode.commands.executeCommand<string>('acp.copyPlanAsMarkdown', plansUi.tree.planNode(ref));
    assert.equal(md, `## main · v${N + 1} — 1/3 done, 0 blocked\n\n- [x] Scaffold\n- [ ] Run tests _(in progress)_\n- [ ] tick ${N - 1}\n`);
    const snap = (await api()).plans({ agentId }).find((p) => p.planId === 'main');
    assert.equal(snap?.summary.header, `v${N + 1} — 1/3 done, 0 blocked`);
    assert.equal(snap?.revisions, 200);

    feed({ sessionId, kind: 'plan_removed', planId: 'main' });
    assert.deepEqual(
      (await api()).archivedPlans({ agentId }).map((p) => p.planId),
      ['main'],
    );
  });

  it('folds the oldest done steps of a long plan in the real view and expands them on demand (odek seed)', async () => {
    const { plansUi } = wired!;
    await vscode.commands.executeCommand('acp.focusPlans');
    const step = (i: number): PlanEntry => ({
      content: `Migration step ${i}`,
      priority: 'medium',
      status: i <= 22 ? 'completed' : i === 23 ? 'in_progress' : i === 24 ? '_blocked' : 'pending',
      _meta: { id: `s${i}`, ...(i === 24 ? { note: 'provider rejects nested arrays' } : {}) },
    });
    feed(upd(items('long', ...Array.from({ length: 26 }, (_, i) => step(i + 1))), sessionId));
    await plansUi.tree.whenIdle();
    const ref = { agentId, sessionId, planId: 'long' };
    const plan = plansUi.tree.planNode(ref);
    // Default acp.plans.foldDoneStepsAfter (20): 7 oldest done steps in one row, 20 rows in all.
    const kids = plansUi.tree.getChildren(plan);
    assert.equal(kids.length, 20);
    assert.equal(plansUi.tree.getTreeItem(kids[0]!).label, '+7 done steps');
    assert.equal(plansUi.tree.getTreeItem(plan).description, 'items · 22/26 · 1 blocked · Migration step 23');
    const id = await vscode.commands.executeCommand<string>('acp.revealCurrentStep', ref);
    assert.equal(id, `${agentId}/${sessionId}/long/22`);
    if (hasUiHook()) {
      // Scrolled to the fold row (the small test window shows about 15 rows).
      await plansUi.treeView.reveal(kids[0]!, { select: true, focus: false });
      const rows = await waitForUi(
        '.part.sidebar .monaco-list-row',
        (t) => t.some((x) => x.includes('+7 done steps')) && t.some((x) => x.includes('1 blocked')),
      );
      assert.ok(!rows.some((x) => /Migration step [1-7]s/.test(x)), `the oldest done steps are folded away: ${JSON.stringify(rows)}`);
      assert.ok(
        rows.some((x) => x.includes('Migration step 8s8')),
        'the first done step not folded follows the fold row',
      );
      await screenshot('plans-long-folded');
    }
    // Expands on demand: revealing a folded step opens the fold row.
    await plansUi.treeView.reveal(plansUi.tree.getChildren(kids[0]!)[0]!, { expand: true, select: true, focus: false });
    assert.equal(plansUi.treeView.selection[0]?.id, `${agentId}/${sessionId}/long/0`);
    if (hasUiHook()) {
      await waitForUi('.part.sidebar .monaco-list-row', (t) => t.some((x) => x.includes('Migration step 1s1')));
      await screenshot('plans-long-fold-expanded');
    }
    feed({ sessionId, kind: 'plan_removed', planId: 'long' });
  });
});
