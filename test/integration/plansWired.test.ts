// The plans experience through the extension itself: plan events fed into the extension's own
// stores (api().internals) under an agent of the test's, checked in the real Plans view, the status
// bar, the commands (reveal the current step, copy) and the public API; a burst of 10,000 updates
// and a long plan's folded done steps. Skipped when the extension exposes no plansUi.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PlanEntry, SessionEvent } from '../../src/protocol/domain';
import { api } from './support/ext';
import { e, items, upd } from './support/plans';
import { hasUiHook, screenshot, waitForUi } from './ui';

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
