// The plans experience inside a real extension host, with the test's own stores and tree provider
// (support/plans.ts): file plans (loaded, followed on disk, missing or refused), the status bar on
// the active session's progress, and the plan commands (copy, export, raw JSON, history, open).
// The tree's rows: plans.test.ts; the extension's own view: plansWired.test.ts.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PlanRef } from '../../src/state/planStore';
import { PlanCommands } from '../../src/ui/planCommands';
import { PlanDocuments } from '../../src/ui/planDocuments';
import { PlansStatusBar } from '../../src/ui/statusBar';
import { FilePlanSync } from '../../src/ui/tree/filePlans';
import { waitFor } from './support/ext';
import { A, e, Fixture, items, row, S, upd } from './support/plans';

describe('Plans (tree, status bar, commands)', function () {
  this.timeout(60000);
  let fx: Fixture;
  beforeEach(() => {
    fx = new Fixture();
  });
  afterEach(() => fx.dispose());

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
