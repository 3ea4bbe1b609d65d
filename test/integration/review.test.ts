// The review loop in the real VS Code with the Demo Agent on v1: a step changes hello.ts; a comment
// on a line of its review diff belongs to the session and that step (a thread in the diff, a
// "Review: 1 open" row below the session); Send Review to Agent sends one prompt with a resource
// link to that line range and the text (the stored history holds it as sent); the agent's fix
// changes the line, the thread shows the new code and offers Resolve; Resolve; the history keeps
// the resolved thread (an export and import of the session brings it back, read-only). Screenshot
// of the diff with two threads, one resolved, in out/screenshots.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ReviewParts } from '../../src/root/features/review';
import { TEST_HOOKS_KEY } from '../../src/testHooks';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import type { TestApi } from './support/ext';
import { waitFor } from './support/ext';
import { nextPermission, prompt, startDemo, turnEnd, type SessionRef } from './support/demo';
import { hasUiHook, screenshot, waitForUi } from './ui';

function review(): ReviewParts {
  const hooks = (globalThis as Record<symbol, unknown>)[TEST_HOOKS_KEY] as { ext: { review?: ReviewParts } };
  assert.ok(hooks.ext.review, 'the review feature is active');
  return hooks.ext.review;
}

function label(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

function child(a: TestApi, parent: PlanTreeNode | undefined, want: (l: string) => boolean): PlanTreeNode {
  const tree = a.internals.plansUi.tree;
  const all = tree.getChildren(parent);
  const hit = all.find((c) => want(label(tree.getTreeItem(c))));
  assert.ok(hit, `no such row below ${parent?.id ?? 'the root'}: ${JSON.stringify(all.map((c) => label(tree.getTreeItem(c))))}`);
  return hit;
}

describe('Review: comments on changes, sent to the agent, resolved', function () {
  this.timeout(120000);
  let a: TestApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;
  let helloFile: string;
  let session: PlanTreeNode;
  let step: PlanTreeNode;

  before(async () => {
    ({ a, ref, restore } = (await startDemo('1')) as { a: TestApi; ref: SessionRef; restore: () => Promise<void> });
    const cwd = a.internals.store.session(ref.agentId, ref.sessionId)?.cwd ?? vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    helloFile = path.join(cwd, '.acp-demo', 'hello.ts');
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await prompt(ref, 'Add a farewell function');
    await a.internals.broker.respond((await nextPermission(a, ref)).id, 'allow_once');
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    await a.internals.plansUi.tree.whenIdle();
    const agent = child(a, undefined, () => true);
    session = a.internals.plansUi.tree.getChildren(agent).find((n) => n.kind === 'session' && n.sessionId === ref.sessionId)!;
    step = child(
      a,
      child(a, session, (l) => l === 'impl'),
      (l) => l === 'Add a farewell() function',
    );
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('acp.stopAgent', 'demo');
    await restore();
  });

  it('comments on a line of the step diff, sends the review, sees the fix, resolves, and keeps it', async () => {
    const { model, threads } = review();
    await vscode.commands.executeCommand('acp.reviewStepChanges', step);
    const lines = fs.readFileSync(helloFile, 'utf8').split('\n');
    const n = lines.findIndex((l) => l.includes('function farewell'));
    const other = lines.findIndex((l) => l.includes('function greet'));
    assert.ok(n >= 0 && other >= 0, 'hello.ts has greet() and farewell()');
    // The changed side of the review diff: the file itself, or the step's read-only text of it.
    await waitFor(
      vscode.workspace.onDidOpenTextDocument,
      () => vscode.workspace.textDocuments.some((d) => d.uri.fsPath === helloFile || d.uri.query.includes('side=after')),
      10000,
      'the review diff',
    );
    const side = (s: string): vscode.TextDocument | undefined =>
      vscode.workspace.textDocuments.find(
        (d) => d.uri.scheme === 'acp-step' && new URLSearchParams(d.uri.query).get('file') === helloFile && d.uri.query.includes(`side=${s}`),
      );
    // The step's own text of the file when the diff holds it, else the file itself (its live side).
    const after = side('after');
    const right = after?.getText().includes('function farewell') ? after.uri : vscode.Uri.file(helloFile);
    const left = side('before')?.uri;
    console.log(`      commented on: ${right.scheme}`);

    const id = await vscode.commands.executeCommand<string>('acp.review.addComment', { uri: right, start: n, end: n, text: 'Greet by name here' });
    const second = await vscode.commands.executeCommand<string>('acp.review.addComment', { uri: right, start: other, end: other, text: 'Fine as it is' });
    assert.ok(id && second, 'both comments were added');
    const c = model.get(id)!;
    assert.deepEqual([c.agentId, c.sessionId, c.step?.label, c.start], [ref.agentId, ref.sessionId, 'Add a farewell() function', n]);
    assert.ok(
      threads.threadsOf(id).some((t) => t.uri.toString() === right.toString()),
      'a thread in the review diff',
    );
    await a.internals.plansUi.tree.whenIdle();
    child(a, session, (l) => l === 'Review: 2 open');
    // The second is resolved by the user before the review goes out: only the first is sent.
    assert.strictEqual(await vscode.commands.executeCommand('acp.review.resolve', { id: second }), true);

    const sent = await vscode.commands.executeCommand<{ sent: string[]; how?: string }>('acp.review.send', ref);
    assert.deepEqual(sent, { sent: [id], how: 'sent' });
    await waitFor(model.onDidChange, () => !!model.get(id)?.changed, 20000, "the agent's fix of the commented line");
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    assert.match(fs.readFileSync(helloFile, 'utf8').split('\n')[n]!, /function farewell.*\/\/ reviewed: Greet by name here/);
    const fixed = model.get(id)!;
    assert.deepEqual(fixed.changed?.lines.length, 1);
    assert.ok(fixed.sent, 'marked sent');
    const offered = threads.threadsOf(id).map((t) => t.contextValue ?? '');
    assert.ok(offered.length && offered.every((v) => /^review:open:changed/.test(v)), `the thread offers Resolve: ${offered.join(', ')}`);

    // What the agent was sent: one user prompt with a link to exactly that line and the text.
    await a.internals.history!.flush();
    const stored = JSON.stringify((await a.internals.history!.records(ref))?.records ?? []);
    assert.ok(stored.includes(`"acp-plans/lines":{"start":${n + 1},"end":${n + 1}}`), 'the link carries the range');
    assert.ok(stored.includes(`hello.ts line ${n + 1}: Greet by name here`), 'the text names the line and carries the comment');

    assert.strictEqual(await vscode.commands.executeCommand('acp.review.resolve', { id }), true);
    assert.ok(threads.threadsOf(id).every((t) => t.state === vscode.CommentThreadState.Resolved));
    assert.strictEqual(await vscode.commands.executeCommand('acp.review.reopen', { id: second }), true);
    assert.ok(threads.threadsOf(second).every((t) => t.state === vscode.CommentThreadState.Unresolved && /^review:open/.test(t.contextValue ?? '')));
    // The step's diff against the file as it is now: one thread resolved, one open.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (left) await vscode.commands.executeCommand('vscode.diff', left, vscode.Uri.file(helloFile), 'hello.ts (review)');
    await waitFor(
      vscode.workspace.onDidOpenTextDocument,
      () => threads.threadsOf(second).some((t) => t.uri.fsPath === helloFile),
      10000,
      'the threads in the file',
    );
    if (hasUiHook()) {
      await waitForUi('.review-widget', (t) => t.some((x) => x.includes('Fine as it is')) && t.some((x) => x.includes('Greet by name here')), 15000);
      console.log(`      screenshot: ${await screenshot('review-two-threads')}`);
    }

    // Kept: the stored history holds both, resolved; an export imported again brings them back, read-only.
    await a.internals.history!.flush();
    const file = path.join(path.dirname(helloFile), 'review-export.acp-session.json');
    try {
      assert.ok(await vscode.commands.executeCommand('acp.exportSession', ref, vscode.Uri.file(file)));
      const key = await vscode.commands.executeCommand<SessionRef | false>('acp.importSession', vscode.Uri.file(file));
      assert.ok(key, 'imported');
      await waitFor(model.onDidChange, () => model.comments(key.agentId, key.sessionId).length === 2, 15000, 'the imported comments');
      const back = model.comments(key.agentId, key.sessionId).find((x) => x.text === 'Greet by name here')!;
      assert.deepEqual([back.state, back.start, !!back.sent], ['resolved', n, true]);
      const replyable = await vscode.commands.executeCommand<{ sent: string[] }>('acp.review.send', key);
      assert.deepEqual(replyable.sent, [], 'an imported session cannot send');
      await a.internals.history!.delete(key).catch(() => undefined);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
