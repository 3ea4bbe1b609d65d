// The plans experience inside a real extension host: the Plans tree, with the test's own stores
// and tree provider (support/plans.ts: so it controls every event), fed SessionEvents straight and
// read through getChildren/getTreeItem like VS Code does. Covers the rows (icons, progress,
// facets), several plans, markdown, unknown types and the archive, folding done steps,
// element-scoped refresh and getParent, and a burst of 10,000 updates. File plans, the status bar
// and the plan commands: plansCommands.test.ts; the extension's own view: plansWired.test.ts.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PlanEntry } from '../../src/protocol/domain';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { PlansTreeProvider } from '../../src/ui/tree/plansTreeProvider';
import { A, e, Fixture, items, row, S, upd, type Row } from './support/plans';

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
});
