// Fork, Rename and Archive Session with the Demo Agent (v2 advertises fork, archive, title and
// status) through the real extension host: each run as the command it is (the row's argument), and
// the Plans tree shows the outcome: the fork as a new session row under the agent (active), the
// agent's stored title as the row's label, the archived session folded below "Archived" with its
// row's menu offering Unarchive; then Unarchive brings it back. The session rows' menus carry the
// facets only for this v2 agent.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { startDemo, type SessionRef } from './support/demo';
import { api, type TestApi } from './support/ext';

async function rows(a: TestApi, parent?: PlanTreeNode): Promise<PlanTreeNode[]> {
  const tree = a.internals.plansUi!.tree;
  await tree.whenIdle();
  return tree.getChildren(parent);
}

async function until<T>(what: string, f: () => T | undefined | Promise<T | undefined>, ms = 15000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Session management (Fork, Rename, Archive: Demo Agent v2)', function () {
  this.timeout(90000);
  let a: TestApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;

  before(async () => {
    ({ ref, restore } = await startDemo('2'));
    a = await api();
  });
  after(async () => {
    await vscode.commands.executeCommand('acp.stopAgent', 'demo');
    await restore();
  });

  it('forks, renames and archives from the commands, and the tree rows show it', async () => {
    const tree = a.internals.plansUi!.tree;
    const agentRow = (await rows(a)).find((n) => n.kind === 'agent' && n.agentId === ref.agentId)!;
    assert.ok(agentRow, 'the agent row');
    const row = (await rows(a, agentRow)).find((n) => n.kind === 'session' && n.sessionId === ref.sessionId)!;
    assert.match(String(tree.getTreeItem(row).contextValue), /:fork.*:archive.*:rename/, 'the v2 agent offers all three');

    const fork = await vscode.commands.executeCommand<SessionRef>('acp.forkSession', ref);
    assert.ok(fork && fork.sessionId !== ref.sessionId, 'a new session');
    assert.deepStrictEqual(a.internals.store.activeSession, fork, 'the fork is the active session');
    await until('the fork row', async () => ((await rows(a, agentRow)).some((n) => n.kind === 'session' && n.sessionId === fork.sessionId) ? true : undefined));

    const stored = await vscode.commands.executeCommand<string>('acp.renameSession', fork, '  Branch of the first  ');
    assert.strictEqual(stored, 'Branch of the first', 'the title the agent stored (trimmed)');
    const forkRow = (await rows(a, agentRow)).find((n) => n.kind === 'session' && n.sessionId === fork.sessionId)!;
    await until('the new label', () => (tree.getTreeItem(forkRow).label === 'Branch of the first' ? true : undefined));

    assert.strictEqual(await vscode.commands.executeCommand('acp.archiveSession', ref), true);
    const top = await rows(a, agentRow);
    assert.ok(!top.some((n) => n.kind === 'session' && n.sessionId === ref.sessionId), 'no longer at the top');
    const archived = top.find((n) => n.kind === 'archivedSessions');
    assert.ok(archived, `an Archived row: ${top.map((n) => n.id).join(', ')}`);
    assert.strictEqual(tree.getTreeItem(archived).label, 'Archived');
    const inside = await rows(a, archived);
    assert.deepStrictEqual(
      inside.map((n) => n.kind === 'session' && n.sessionId),
      [ref.sessionId],
    );
    assert.strictEqual(tree.getParent(inside[0]!), archived, 'reveal finds it under Archived');
    assert.match(String(tree.getTreeItem(inside[0]!).contextValue), /:unarchive/);

    assert.strictEqual(await vscode.commands.executeCommand('acp.unarchiveSession', ref), true);
    const back = await rows(a, agentRow);
    assert.ok(back.some((n) => n.kind === 'session' && n.sessionId === ref.sessionId));
    assert.ok(!back.some((n) => n.kind === 'archivedSessions'), 'no Archived row when none is');
  });
});
