// Plans as the index of the agent's work, in the real VS Code with the Demo Agent on v1 (the client
// writes its files through fs/write_text_file): per-step call counts and files in the tree rows,
// Review Changes of This Step opens the multi-file diff with exactly that step's files, Show Work
// filters the conversation, Revert restores the files. Screenshots in out/screenshots.
import { HELLO_INITIAL } from '../../src/demo/scenarios/demoFiles';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { STEP_SCHEME } from '../../src/ui/workCommands';
import type { ConversationHost } from '../../src/ui/conversation/host';
import type { DomSnapshot } from '../../src/ui/conversation/webviewMessages';
import type { TestApi } from './support/ext';
import { waitFor } from './support/ext';
import { nextPermission, prompt, startDemo, turnEnd, type SessionRef } from './support/demo';
import { hasUiHook, screenshot, waitForUi } from './ui';

const ROWS = '.part.sidebar .pane-body .monaco-list-row';

async function labelled(a: TestApi, parent: PlanTreeNode | undefined, label: string): Promise<{ node: PlanTreeNode; item: vscode.TreeItem }> {
  const tree = a.internals.plansUi.tree;
  const seen: string[] = [];
  for (const c of tree.getChildren(parent)) {
    const item = tree.getTreeItem(c);
    const l = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
    if (l === label) return { node: c, item };
    seen.push(l);
  }
  throw new Error(`no row "${label}" under ${parent?.id ?? 'the root'}: ${JSON.stringify(seen)}`);
}

function childRows(a: TestApi, node: PlanTreeNode): { label: string; icon: string; context: string }[] {
  const tree = a.internals.plansUi.tree;
  return tree.getChildren(node).map((c) => {
    const item = tree.getTreeItem(c);
    const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : '';
    return { label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''), icon, context: item.contextValue ?? '' };
  });
}

function queryOf(uri: vscode.Uri): { side: string; file: string } {
  const q = new URLSearchParams(uri.query);
  return { side: q.get('side') ?? '', file: q.get('file') ?? '' };
}

async function waitForDom(host: ConversationHost, pred: (s: DomSnapshot) => boolean, what: string, timeoutMs = 15_000): Promise<DomSnapshot> {
  const end = Date.now() + timeoutMs;
  let last: DomSnapshot | undefined;
  while (Date.now() < end) {
    last = await host.requestDomSnapshot();
    if (pred(last)) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`webview never showed ${what}; it showed:\n${last?.text}`);
}

async function shot(name: string): Promise<void> {
  if (hasUiHook()) console.log(`      screenshot: ${await screenshot(name)}`);
}

describe('Attribution: the work of each plan step', function () {
  this.timeout(120000);
  let a: TestApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;
  let helloFile: string;
  let testFile: string;
  let helloBefore: string | undefined;
  let impl: PlanTreeNode;
  let tests: PlanTreeNode;
  let farewellStep: PlanTreeNode;
  let testStep: PlanTreeNode;

  before(async () => {
    ({ a, ref, restore } = await startDemo('1'));
    const cwd = a.internals.store.session(ref.agentId, ref.sessionId)?.cwd ?? vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    helloFile = path.join(cwd, '.acp-demo', 'hello.ts');
    testFile = path.join(cwd, '.acp-demo', 'hello.test.ts');
    fs.rmSync(testFile, { force: true });
    // An earlier test's turn may have added farewell() already: the step's "before" is whatever was there.
    helloBefore = fs.existsSync(helloFile) ? fs.readFileSync(helloFile, 'utf8') : undefined;
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await prompt(ref, 'Add a farewell function');
    await a.internals.broker.respond((await nextPermission(a, ref)).id, 'allow_once');
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    await a.internals.plansUi.tree.whenIdle();
    const session = a.internals.plansUi.tree
      .getChildren(a.internals.plansUi.tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === 'demo'))
      .find((n) => n.kind === 'session' && n.sessionId === ref.sessionId)!;
    impl = (await labelled(a, session, 'impl')).node;
    tests = (await labelled(a, session, 'tests')).node;
    farewellStep = (await labelled(a, impl, 'Add a farewell() function')).node;
    testStep = (await labelled(a, tests, 'Write a unit test for farewell()')).node;
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('acp.stopAgent', 'demo');
    await restore();
  });

  it('shows per-step call counts and files in the tree rows, with the step timeline', async () => {
    assert.ok(fs.readFileSync(helloFile, 'utf8').includes('function farewell'), 'the demo wrote hello.ts');
    assert.ok(fs.existsSync(testFile), 'the demo wrote hello.test.ts');
    const fare = a.internals.plansUi.tree.getTreeItem(farewellStep);
    // Each step may also list the Demo Agent's own PLAN.md, when the checkpoints saw it change while the step ran.
    const noPlanMd = <T extends { label: unknown }>(rows: T[]): T[] => rows.filter((r) => r.label !== 'PLAN.md');
    assert.match(String(fare.description), /1 call · (1 file|2 files)$/);
    assert.strictEqual(fare.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.match(String(fare.tooltip), /Timeline: started .* · finished .* · took \d+ s/);
    assert.match(String(fare.contextValue), /^entry:completed:work:files:ckpt$/, 'a step that began from a checkpoint offers Restore');
    assert.deepStrictEqual(
      noPlanMd(childRows(a, farewellStep)).map((r) => [r.label, r.icon]),
      [
        ['Edit .acp-demo/hello.ts', 'pass'],
        ['hello.ts', 'file'],
      ],
    );
    const t = a.internals.plansUi.tree.getTreeItem(testStep);
    assert.match(String(t.description), /1 call · (1 file|2 files)$/);
    assert.deepStrictEqual(
      noPlanMd(childRows(a, testStep)).map((r) => r.label),
      ['Write .acp-demo/hello.test.ts', 'hello.test.ts'],
    );
    // The read belongs to the first impl step; no file there.
    const read = a.internals.plansUi.tree.getTreeItem((await labelled(a, impl, 'Read .acp-demo/hello.ts')).node);
    // (The checkpoints may also see the Demo Agent's own PLAN.md change while this step runs.)
    assert.match(String(read.description), /1 call( · 1 file)?$/);
    // What a person sees: reveal both steps expanded.
    const view = a.internals.plansUi.treeView;
    await view.reveal(impl, { expand: true, select: false, focus: false });
    await view.reveal(tests, { expand: true, select: false, focus: false });
    await view.reveal(farewellStep, { expand: true, select: false, focus: false });
    await view.reveal(testStep, { expand: true, select: true, focus: true });
    const texts = await waitForUi(ROWS, (rows) => rows.some((r) => r.includes('Edit .acp-demo/hello.ts')) && rows.some((r) => r.includes('hello.test.ts')));
    assert.ok(
      texts.some((r) => /Add a farewell\(\) function[\s\S]*1 call · (1 file|2 files)/.test(r)),
      JSON.stringify(texts),
    );
    await shot('attribution-tree');
  });

  it("Review Changes of This Step opens the multi-file diff with exactly that step's files", async () => {
    const opened = new Set<string>();
    const sub = vscode.workspace.onDidOpenTextDocument((d) => {
      if (d.uri.scheme === STEP_SCHEME) opened.add(queryOf(d.uri).file);
    });
    try {
      const files = await vscode.commands.executeCommand<string[]>('acp.reviewStepChanges', farewellStep);
      assert.deepStrictEqual(files, [helloFile]);
      await waitFor(
        vscode.window.tabGroups.onDidChangeTabs,
        () => /Changes of step: Add a farewell\(\) function/.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ''),
        15000,
        'the multi-diff tab',
      );
      await waitFor(vscode.workspace.onDidOpenTextDocument, () => opened.has(helloFile), 15000, 'the step documents');
      assert.deepStrictEqual([...opened], [helloFile], "only the step's file is in the diff");
      const docs = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === STEP_SCHEME && queryOf(d.uri).file === helloFile);
      // The after side: the live file when it still holds what the step left (checkpoints), else the step's text.
      const live = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === helloFile);
      assert.ok(
        docs.some((d) => queryOf(d.uri).side === 'after' && d.getText().includes('function farewell')) || !!live?.getText().includes('function farewell'),
        "the after side holds the step's change",
      );
      assert.ok(
        docs.some((d) => queryOf(d.uri).side === 'before' && d.getText() === (helloBefore ?? HELLO_INITIAL)),
        'the before side is the file as the step found it',
      );
      await shot('attribution-review');
      opened.clear();
      // The checkpoints also saw the Demo Agent's own PLAN.md change while the step ran.
      assert.deepStrictEqual(
        (await vscode.commands.executeCommand<string[]>('acp.reviewStepChanges', testStep)).filter((f) => !f.endsWith('PLAN.md')),
        [testFile],
      );
      await waitFor(
        vscode.window.tabGroups.onDidChangeTabs,
        () => /Changes of step: Write a unit test/.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ''),
        15000,
        'the second multi-diff tab',
      );
    } finally {
      sub.dispose();
    }
  });

  it('Show Work of This Step filters the conversation until cleared', async () => {
    const ids = await vscode.commands.executeCommand<string[]>('acp.showStepWork', testStep);
    assert.strictEqual(ids.length, 1);
    const conv = a.internals.conversation;
    const host = conv.hosts.find((h) => h.kind === 'view') ?? conv.openPanel(vscode.ViewColumn.One);
    await host.whenReady();
    let snap = await waitForDom(host, (s) => s.text.includes('Work of step'), 'the filter bar');
    assert.match(snap.text, /Work of step "Write a unit test for farewell\(\)" \(1 item\)/);
    assert.match(snap.text, /hello\.test\.ts/);
    assert.ok(!snap.text.includes('Read .acp-demo/hello.ts'), "the other steps' calls are hidden");
    assert.ok(!snap.text.includes('farewell() helper next to'), 'the summary message is hidden');
    await shot('attribution-show-work');
    snap = await host.requestDomSnapshot({ selector: '.clear-filter' });
    assert.strictEqual(snap.clicked, true);
    snap = await waitForDom(host, (s) => s.text.includes('Read .acp-demo/hello.ts'), 'every item again');
    assert.ok(snap.text.includes('Read .acp-demo/hello.ts'), 'everything shows again');
    assert.strictEqual(conv.currentFilter, undefined);
  });

  it('Revert Changes of This Step restores the files after a confirmation', async () => {
    const before = helloBefore ?? HELLO_INITIAL; // the Demo Agent writes its first version when the file is missing
    for (const [node, file] of [
      [testStep, testFile],
      [farewellStep, helloFile],
    ] as const) {
      const result = vscode.commands.executeCommand<{ reverted: string[] }>('acp.revertStepChanges', node);
      await waitForUi('.quick-input-widget .quick-input-title', (t) => t.some((x) => x.includes('Revert Changes of This Step')));
      if (file === helloFile) await shot('attribution-revert-confirm');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      // The checkpoints also saw the Demo Agent's own PLAN.md change while the step ran.
      assert.deepStrictEqual(
        (await result).reverted.filter((f) => !f.endsWith('PLAN.md')),
        [file],
      );
    }
    assert.ok(!fs.existsSync(testFile), 'the file the step created is gone');
    assert.strictEqual(fs.readFileSync(helloFile, 'utf8'), before, 'hello.ts is as before the step');
    // A second revert explains why not, per file, and changes nothing.
    const again = await vscode.commands.executeCommand<{ reverted: string[]; skipped: { why: string }[] }>('acp.revertStepChanges', farewellStep);
    assert.deepStrictEqual(again.reverted, []);
    assert.match(again.skipped[0]!.why, /changed after this step/);
    await shot('attribution-reverted');
  });
});
