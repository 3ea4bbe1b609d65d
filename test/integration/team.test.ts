// A team of agents in git worktrees, in the real VS Code: Run Prompt on Several Agents with two
// Demo Agent sessions (`/team`: each writes a file of its own and signs the first line of
// shared.txt) in a temporary repository, their worktrees and sessions on disk and in the tree,
// Compare Sessions (the multi-diff editor), Apply Worktree Changes (a merge, then a conflicting
// merge and squash: the merge editor, nothing lost, Abort Merge restores), the bad inputs, and Remove Worktree (also of a folder deleted behind
// our back).
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { HistoryStore } from '../../src/app/history/historyStore';
import { SessionHistory } from '../../src/app/history/sessionHistory';
import { WorktreeSessions } from '../../src/app/team/worktreeSessions';
import { NodeIndex } from '../../src/ui/tree/nodes';
import { WorktreeRows } from '../../src/ui/tree/worktreeRows';
import { TEST_HOOKS_KEY, type TestHooks } from '../../src/testHooks';
import { startDemo, turnEnd, type SessionRef } from './support/demo';
import type { TestApi } from './support/ext';
import { waitFor } from './support/ext';
import { toastWith, clearNotes } from './support/notifications';
import { confirm, QUICK_ROWS, SHOWN_PICK } from './support/quickPick';
import { label, mergeTabs, snapshot, withConfirm } from './support/team';
import { hasUiHook, screenshot, uiClick, uiLog, uiPress, uiTexts, uiType, waitForUi } from './ui';

function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

function team() {
  return ((globalThis as Record<symbol, unknown>)[TEST_HOOKS_KEY] as TestHooks).ext.team;
}

describe('Team of agents', function () {
  this.timeout(120000);
  let a: TestApi;
  let restore: () => Promise<void>;
  let dir: string;
  let repo: string;
  let refs: SessionRef[] = [];

  before(async function () {
    if (!hasUiHook()) this.skip();
    ({ a, restore } = await startDemo('1'));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-team-'));
    repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
    sh(repo, 'init', '-q', '-b', 'main');
    sh(repo, 'config', 'user.email', 'team@example.com');
    sh(repo, 'config', 'user.name', 'Team Test');
    fs.writeFileSync(path.join(repo, 'shared.txt'), 'base line\nsecond line\n');
    sh(repo, 'add', '-A');
    sh(repo, 'commit', '-q', '-m', 'base');
    await vscode.commands.executeCommand('workbench.view.extension.acp');
  });
  after(async () => {
    for (const w of team().sessions.worktrees()) await team().sessions.forget(w.path);
    await restore?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const records = () => refs.map((r) => team().sessions.of(r.agentId, r.sessionId)!);

  it('runs one prompt on two Demo Agents, each in its own worktree, with both plans under their branch rows', async () => {
    const got = await vscode.commands.executeCommand<SessionRef[] | undefined>('acp.runPromptOnSeveralAgents', {
      folder: repo,
      agents: ['demo', 'demo'],
      prompt: '/team',
    });
    assert.ok(got && got.length === 2, 'two sessions were started');
    refs = got;
    for (const r of refs) assert.strictEqual(await turnEnd(a, r, 30000), 'end_turn');
    const [ra, rb] = records();
    assert.ok(ra && rb && ra.path !== rb.path);
    // Two worktrees beside the repository, on their own branches.
    const list = sh(repo, 'worktree', 'list', '--porcelain');
    assert.strictEqual((list.match(/^worktree /gm) ?? []).length, 3, list);
    for (const [i, r] of [ra, rb].entries()) {
      assert.strictEqual(path.dirname(r.path), path.join(dir, 'repo.worktrees'));
      assert.match(r.branch, /^acp\/demo\/team-[0-9a-z]+-\d$/);
      assert.ok(list.includes(`branch refs/heads/${r.branch}`));
      // Files changed only in their own worktree.
      assert.strictEqual(fs.readFileSync(path.join(r.path, 'team', `${refs[i]!.sessionId}.txt`), 'utf8'), `Written by ${refs[i]!.sessionId}\n`);
      assert.strictEqual(fs.readFileSync(path.join(r.path, 'shared.txt'), 'utf8'), `signed by ${refs[i]!.sessionId}\nsecond line\n`);
      const other = [ra, rb][1 - i]!;
      assert.ok(!fs.existsSync(path.join(other.path, 'team', `${refs[i]!.sessionId}.txt`)));
    }
    assert.ok(!fs.existsSync(path.join(repo, 'team')), 'the main tree got no file');
    assert.strictEqual(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8'), 'base line\nsecond line\n');
    // The tree: a row per worktree (branch, ahead/behind, changed files) with its session and plan below.
    await waitFor(team().sessions.onDidChange, () => records().every((r) => team().sessions.state(r.path)?.changed === 2), 15000, 'both worktrees read');
    const tree = a.internals.plansUi.tree;
    const agent = tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === 'demo')!;
    const wtRows = tree.getChildren(agent).filter((n) => n.kind === 'worktree');
    const branchRows = await Promise.all(wtRows.map((n) => label(a, n)));
    for (const r of [ra, rb]) {
      const row = branchRows.find((x) => x.label === r.branch);
      assert.ok(row, `a row for ${r.branch}: ${JSON.stringify(branchRows)}`);
      assert.strictEqual(row.description, '↑0 ↓0 on main · 2 files changed');
    }
    for (const [i, n] of wtRows.entries()) {
      const sessions = tree.getChildren(n);
      assert.strictEqual(sessions.length, 1, `one session under ${branchRows[i]!.label}`);
      assert.strictEqual(tree.getParent(sessions[0]!), n);
      const plans = tree.getChildren(sessions[0]!).filter((p) => p.kind === 'plan');
      assert.strictEqual(plans.length, 1);
      const steps = await Promise.all(tree.getChildren(plans[0]!).map((s) => label(a, s)));
      assert.deepStrictEqual(
        steps.map((s) => s.label),
        ['Write a note of this session', 'Sign the shared file', 'Report what changed'],
      );
    }
    assert.strictEqual(team().status?.text, '$(git-branch) Team: 0 running, 2 done');
    await waitForUi('.part.sidebar .pane-body .monaco-list-row', (t) => t.some((x) => x.includes(ra.branch)) && t.some((x) => x.includes(rb.branch)));
    await screenshot('team-worktree-rows');
  });

  it('keeps each session’s worktree on its history record; a restore from the history alone puts them back under their worktrees', async function () {
    const ext = ((globalThis as Record<symbol, unknown>)[TEST_HOOKS_KEY] as TestHooks).ext;
    if (!ext.history || !ext.historyDir) this.skip();
    await ext.history.flush();
    const index = JSON.parse(fs.readFileSync(path.join(ext.historyDir, 'index.json'), 'utf8')) as {
      sessions: { sessionId: string; cwd?: string; worktree?: { path: string; branch: string; baseCommit: string; repo: string } }[];
    };
    for (const r of records()) {
      const stored = index.sessions.find((s) => s.sessionId === r.sessionId);
      assert.deepStrictEqual(stored && { cwd: stored.cwd, ...stored.worktree }, {
        cwd: r.path,
        repo: r.repo,
        path: r.path,
        branch: r.branch,
        baseRef: r.baseRef,
        baseCommit: r.baseCommit,
        team: true,
      });
    }
    // A window whose workspace state does not know the worktrees (a fresh one): the history's index alone restores them.
    const memento = new Map<string, unknown>();
    const fresh = new WorktreeSessions(
      { keys: () => [...memento.keys()], get: <T>(k: string) => memento.get(k) as T, update: async (k: string, v: unknown) => void memento.set(k, v) },
      ext.store,
      () => undefined,
    );
    const stored = new HistoryStore(ext.historyDir, { maxSessions: 1000, maxBytes: 1e12, maxPlanRevisions: 200, warn: () => undefined });
    stored.loadIndex();
    const reader = new SessionHistory({
      history: stored,
      store: ext.store,
      plans: ext.plans,
      transcript: ext.transcript,
      agentName: (id) => id,
      ignored: () => false,
      setReplayTime: () => undefined,
      worktrees: fresh,
    });
    try {
      assert.strictEqual(fresh.all().length, 0);
      reader.restoreWorktrees();
      await waitFor(fresh.onDidChange, () => records().every((r) => fresh.state(r.path)?.changed === 2), 15000, 'the restored worktrees read');
      const rows = new WorktreeRows(fresh, new NodeIndex());
      const children = rows.agentChildren(
        'demo',
        ext.store
          .sessions()
          .filter((x) => x.agentId === 'demo')
          .map((x) => x.sessionId),
      );
      for (const r of records()) {
        const back = fresh.of(r.agentId, r.sessionId)!;
        assert.deepStrictEqual({ ...back }, { ...r }, 'the same worktree, branch and base');
        // Files, terminals, review and revert work inside the worktree alone; a resume opens it there.
        assert.deepStrictEqual(fresh.rootsFor(r.agentId, r.sessionId), [r.path]);
        assert.strictEqual(ext.store.session(r.agentId, r.sessionId)?.cwd, r.path);
        const row = children.find((n) => n.kind === 'worktree' && n.path === r.path);
        assert.ok(row && row.kind === 'worktree', `a worktree row for ${r.branch}`);
        assert.deepStrictEqual(
          rows.children(row, [r.sessionId]).map((n) => n.kind === 'session' && n.sessionId),
          [r.sessionId],
        );
        assert.match(String(rows.item(row, [r.sessionId]).description), /^↑1 ↓0 on main · 2 files changed$|^↑0 ↓0 on main · 2 files changed$/);
      }
    } finally {
      reader.dispose();
      fresh.dispose();
    }
  });

  it('compares the two sessions: matched plan steps, and both changes in the multi-diff editor', async () => {
    const text = await vscode.commands.executeCommand<string>('acp.compareSessions', refs[0], refs[1]);
    assert.match(text, /A: Demo Agent on acp\/demo\/team-.*3\/3 steps done/);
    assert.match(text, /\[x\] \| \[x\] {2}Sign the shared file/);
    assert.match(text, /Done by A only: nothing/);
    // What each wrote: its own note, and both the shared file.
    assert.match(text, new RegExp(`^A only: team/${refs[0]!.sessionId}\\.txt$`, 'm'));
    assert.match(text, new RegExp(`^B only: team/${refs[1]!.sessionId}\\.txt$`, 'm'));
    assert.match(text, /^Both: shared\.txt$/m);
    await waitForUi('.multiDiffEditor', (t) => t.some((x) => x.includes('shared.txt')), 20000);
    // A readable title (the agents and their worktrees, not the session ids), and a changed file shown as changed, not renamed.
    const titles = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    assert.ok(
      titles.some((t) => /^Compare Demo Agent \(team-[0-9a-z]+-1\) ↔ Demo Agent \(team-[0-9a-z]+-2\)$/.test(t)),
      JSON.stringify(titles),
    );
    assert.ok(!titles.some((t) => t.includes(refs[0]!.sessionId)), JSON.stringify(titles));
    assert.deepStrictEqual(await uiTexts('.multiDiffEditor .renamed'), [], 'no file shown as renamed');
    await screenshot('team-compare');
    const plansDoc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'acp-compare');
    assert.ok(plansDoc);
    await vscode.window.showTextDocument(plansDoc);
    await waitForUi('.editor-instance .view-lines', (t) => t.some((x) => x.replace(/\s+/g, ' ').includes('Files changed against each base')), 10000);
    await screenshot('team-compare-plans');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('applies one worktree into the main tree after a confirmation that lists every file, Cancel its default', async () => {
    const [ra] = records();
    // More files than a screen shows: every one is a row of the confirmation.
    fs.mkdirSync(path.join(ra!.path, 'many'));
    for (let i = 0; i < 300; i++) fs.writeFileSync(path.join(ra!.path, 'many', `f${String(i).padStart(3, '0')}.txt`), `file ${i}\n`);
    const head = sh(repo, 'rev-parse', 'HEAD');
    // Enter alone cancels: Cancel is the active row.
    const cancelled = vscode.commands.executeCommand('acp.applyWorktreeChanges', { path: ra!.path, mode: 'merge' });
    const title = (await waitForUi(`${SHOWN_PICK} .quick-input-title`, (t) => t.some((x) => x.startsWith('Merge ')), 15000)).find((x) =>
      x.startsWith('Merge '),
    )!;
    assert.match(title, /302 files change\.$/);
    await waitForUi(`${SHOWN_PICK} .monaco-list-row.focused`, (t) => t.length === 1 && t[0]!.trim().startsWith('Cancel'));
    const rows = await waitForUi(QUICK_ROWS, (t) => t.some((x) => x.includes('many/f000.txt')));
    assert.match(rows.join('\n'), /Files that change \(302\)/);
    await screenshot('team-apply-confirm');
    await uiPress('Enter');
    assert.strictEqual(await cancelled, undefined);
    assert.strictEqual(sh(repo, 'rev-parse', 'HEAD'), head, 'nothing applied');
    assert.ok(!fs.existsSync(path.join(repo, 'many')));
    // The last file is there too (typing filters the files; the actions stay), then Merge.
    const pending = vscode.commands.executeCommand('acp.applyWorktreeChanges', { path: ra!.path, mode: 'merge' });
    await waitForUi(`${SHOWN_PICK} .quick-input-title`, (t) => t.some((x) => x.startsWith('Merge ')), 15000);
    await waitForUi(QUICK_ROWS, (t) => t.some((x) => x.includes('many/f000.txt')));
    await uiClick(`${SHOWN_PICK} .quick-input-box input`);
    await uiType('f299');
    await waitForUi(QUICK_ROWS, (t) => t.some((x) => x.includes('many/f299.txt')));
    await confirm(title, 'Merge');
    assert.strictEqual(await pending, 'applied');
    assert.strictEqual(fs.readFileSync(path.join(repo, 'many', 'f299.txt'), 'utf8'), 'file 299\n');
    assert.strictEqual(fs.readFileSync(path.join(repo, 'team', `${refs[0]!.sessionId}.txt`), 'utf8'), `Written by ${refs[0]!.sessionId}\n`);
    assert.strictEqual(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8'), `signed by ${refs[0]!.sessionId}\nsecond line\n`);
    assert.strictEqual(sh(repo, 'status', '--porcelain'), '');
  });

  /** Applies the second worktree (which signed shared.txt's first line too) in `mode`: a conflict, shown in the merge editor, then undone with Abort Merge. */
  async function conflictThenAbort(mode: 'merge' | 'squash', autoSave: 'off' | 'afterDelay'): Promise<void> {
    const [, rb] = records();
    const files = vscode.workspace.getConfiguration('files');
    const saved = files.inspect<string>('autoSave')?.globalValue;
    await files.update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
    try {
      await conflictThenAbortIn(mode, autoSave, rb!);
    } finally {
      await files.update('autoSave', saved, vscode.ConfigurationTarget.Global);
    }
  }

  async function conflictThenAbortIn(mode: 'merge' | 'squash', autoSave: string, rb: { path: string; branch: string }): Promise<void> {
    const before = snapshot(repo);
    const head = sh(repo, 'rev-parse', 'HEAD');
    await clearNotes();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const { result } = await withConfirm(
      () => vscode.commands.executeCommand('acp.applyWorktreeChanges', { path: rb.path, mode }),
      mode === 'merge' ? /^Merge / : /^Squash /,
      mode === 'merge' ? 'Merge' : 'Squash',
    );
    assert.strictEqual(result, 'conflict');
    // The merge editor: the conflicted file as its result, the two sides and their base from git's stages.
    const shared = vscode.Uri.file(path.join(repo, 'shared.txt')).toString();
    await waitFor(
      vscode.window.tabGroups.onDidChangeTabs,
      () => mergeTabs().some((t) => t.result.toString() === shared),
      15000,
      'the merge editor of shared.txt',
    );
    const tab = mergeTabs().find((t) => t.result.toString() === shared)!;
    const text = async (u: vscode.Uri): Promise<string> => (await vscode.workspace.openTextDocument(u)).getText();
    assert.strictEqual(await text(tab.base), 'base line\nsecond line\n');
    assert.strictEqual(await text(tab.input1), `signed by ${refs[0]!.sessionId}\nsecond line\n`);
    assert.strictEqual(await text(tab.input2), `signed by ${refs[1]!.sessionId}\nsecond line\n`);
    await waitForUi('.merge-editor', (t) => t.length > 0, 15000);
    await screenshot(`team-conflict-${mode}`);
    // Nothing lost: both sides kept by git (its conflict stages, HEAD and the branch), the worktree
    // untouched. The file itself holds git's markers until the merge editor's result is saved
    // (at once where files auto-save, as in the browser).
    const unmerged = sh(repo, 'ls-files', '-u', '--', 'shared.txt');
    assert.deepStrictEqual(
      unmerged
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[2]),
      ['1', '2', '3'],
      unmerged,
    );
    assert.strictEqual(sh(repo, 'show', ':2:shared.txt'), `signed by ${refs[0]!.sessionId}\nsecond line\n`);
    assert.strictEqual(sh(repo, 'show', ':3:shared.txt'), `signed by ${refs[1]!.sessionId}\nsecond line\n`);
    if (autoSave === 'off') {
      const merged = fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8');
      assert.match(merged, new RegExp(`<<<<<<< [^\\n]*\\nsigned by ${refs[0]!.sessionId}\\n=======\\nsigned by ${refs[1]!.sessionId}\\n>>>>>>> `));
    }
    assert.strictEqual(sh(repo, 'show', `${rb.branch}:shared.txt`), `signed by ${refs[1]!.sessionId}\nsecond line\n`);
    assert.strictEqual(sh(repo, 'show', 'HEAD:shared.txt'), `signed by ${refs[0]!.sessionId}\nsecond line\n`);
    assert.strictEqual(fs.readFileSync(path.join(rb.path, 'shared.txt'), 'utf8'), `signed by ${refs[1]!.sessionId}\nsecond line\n`);
    assert.strictEqual(fs.readFileSync(path.join(repo, 'team', `${refs[1]!.sessionId}.txt`), 'utf8'), `Written by ${refs[1]!.sessionId}\n`);
    // One notification lists the files; Abort Merge puts the main tree back exactly.
    await toastWith(/conflicts with the main tree in 1 file: shared\.txt\..*Nothing was lost/);
    // Under tests the workbench shows no dialog: it logs the one it refused (closing a dirty merge
    // editor asks to "Save with Conflicts"). Abort Merge must ask nothing.
    const refused = (await uiLog('refused to show')).length;
    await uiClick('.notifications-list-container .notification-list-item .monaco-button', 'Abort Merge');
    await waitFor(vscode.window.tabGroups.onDidChangeTabs, () => mergeTabs().length === 0, 15000, 'the merge editor closed after the abort');
    await toastWith(/was undone: the main tree is as it was before/);
    await screenshot(`team-aborted-${mode}`);
    assert.deepStrictEqual((await uiLog('refused to show')).slice(refused), [], 'closing the merge editor asked nothing');
    assert.deepStrictEqual(snapshot(repo), before);
    // The editor's document (if still open) has nothing to save over the restored file. (Its text is
    // read again from disk when opened next: the repository is outside the workspace, not watched.)
    const doc = (): vscode.TextDocument | undefined => vscode.workspace.textDocuments.find((d) => d.uri.toString() === shared);
    assert.ok(!doc()?.isDirty, 'no editor keeps the conflicted text to save over the restored file');
    assert.strictEqual(sh(repo, 'rev-parse', 'HEAD'), head);
    assert.strictEqual(sh(repo, 'status', '--porcelain'), '');
    assert.strictEqual(sh(repo, 'show', `${rb.branch}:shared.txt`), `signed by ${refs[1]!.sessionId}\nsecond line\n`);
  }

  it('a conflicting merge opens the merge editor (files not auto-saved), loses nothing, and Abort Merge restores the main tree exactly', async () => {
    await conflictThenAbort('merge', 'off');
  });

  it('a conflicting squash opens the merge editor too (files auto-saved), and Abort Merge (git reset --merge) restores the main tree exactly', async () => {
    await conflictThenAbort('squash', 'afterDelay');
  });

  it('bad inputs: a dirty main tree, a folder outside a repository, an existing branch — each explained, nothing changed', async () => {
    const [ra] = records();
    await clearNotes();
    fs.appendFileSync(path.join(repo, 'shared.txt'), 'a change not committed\n');
    assert.strictEqual(await vscode.commands.executeCommand('acp.applyWorktreeChanges', { path: ra!.path, mode: 'merge' }), undefined);
    await toastWith(/The main tree has uncommitted changes \(shared\.txt\): commit or stash them first/);
    assert.match(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8'), /a change not committed\n$/);
    sh(repo, 'checkout', '--', 'shared.txt');
    const plain = path.join(dir, 'plain');
    fs.mkdirSync(plain);
    assert.strictEqual(
      await vscode.commands.executeCommand('acp.runPromptOnSeveralAgents', { folder: plain, agents: ['demo', 'demo'], prompt: '/team' }),
      undefined,
    );
    await toastWith(/is not in a git repository: worktrees need one/);
    const name = ra!.branch.split('/').pop()!;
    assert.strictEqual(await vscode.commands.executeCommand('acp.newSessionInWorktree', { folder: repo, agentId: 'demo', base: 'HEAD', name }), undefined);
    await toastWith(/already exists: choose another name/);
    assert.strictEqual((sh(repo, 'worktree', 'list').match(/\n/g) ?? []).length, 3);
  });

  it('removes a worktree (asking, since it has unapplied work) with its branch, and notices one deleted behind our back', async () => {
    const [ra, rb] = records();
    const { result, dialog } = await withConfirm(
      () => vscode.commands.executeCommand('acp.removeWorktree', { path: rb!.path }),
      /Remove it\?/,
      'Remove and Delete Branch',
    );
    assert.strictEqual(result, 'removed-branch');
    // Only committed work is left there: the question says so, and not that something uncommitted is lost.
    assert.match(dialog, /has nothing uncommitted and \d+ commit\(s\) not applied to the main tree: they stay on the branch unless it is deleted too/);
    assert.doesNotMatch(dialog, /loses what is uncommitted/);
    assert.ok(!fs.existsSync(rb!.path));
    assert.strictEqual(sh(repo, 'branch', '--list', rb!.branch).trim(), '');
    // Deleted outside VS Code: the row says so, the command explains and forgets it.
    fs.rmSync(ra!.path, { recursive: true, force: true });
    await waitFor(team().sessions.onDidChange, () => team().sessions.state(ra!.path)?.exists === false, 15000, 'the deleted folder noticed');
    const tree = a.internals.plansUi.tree;
    const agent = tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === 'demo')!;
    const row = tree.getChildren(agent).find((n) => n.kind === 'worktree' && n.path === ra!.path)!;
    assert.strictEqual((await label(a, row)).description, 'folder deleted');
    await toastWith(/was deleted outside VS Code\. Nothing else was lost: what was committed on acp\/demo\/team-/);
    await screenshot('team-folder-deleted');
    const gone = await withConfirm(
      () => vscode.commands.executeCommand('acp.removeWorktree', { path: ra!.path }),
      /Forget the worktree\?/,
      'Remove, Keep Branch',
    );
    assert.match(gone.dialog, /was already deleted outside VS Code/);
    assert.strictEqual(team().sessions.worktrees().length, 0);
    // Removed: the sessions' history records no longer name a worktree (a restore will not bring it back).
    const ext = ((globalThis as Record<symbol, unknown>)[TEST_HOOKS_KEY] as TestHooks).ext;
    for (const r of [ra, rb]) assert.strictEqual(ext.history?.storedEntry(r!.agentId, r!.sessionId)?.worktree, undefined);
    assert.strictEqual((sh(repo, 'worktree', 'list').match(/\n/g) ?? []).length, 1);
  });
});
