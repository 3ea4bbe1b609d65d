// Checkpoints with a real agent that writes files itself: claude-agent-acp 0.101 (installed by
// test/interop/install.mjs) against the interop fake model, configured in `acp.agents`, prompted
// through the extension. Its plan has two steps; step 1 rewrites ckpt-a.txt in two places, step 2
// appends to ckpt-b.txt — with its own Write tool, never through fs/write_text_file. Checked
// through the real workbench: each step's row lists only its file (with line counts); Review of
// step 1 shows the real before text and the live file, and a hunk is rejected with the diff
// editor's own revert arrow; Revert of step 2 restores its file on disk while step 1's stays;
// Restore Workspace to Before step 1 and its undo. The workspace folder is not a git repository.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { Scenario } from '../interop/support/fakeModel';
import { TEST_HOOKS_KEY, type TestHooks } from '../../src/testHooks';
import { sessionKey } from '../../src/state/sessionStore';
import { api, waitFor, type TestApi } from './support/ext';
import { agentSetting, startFakeModel, type AgentSettingLaunch, type FakeModel } from './support/interop';
import { confirm } from './support/quickPick';
import { screenshot, uiClick, waitForUi } from './ui';

const NAME = 'claude-ckpt';
const AGENT_ID = `agent:${NAME}`;
const A_BEFORE = 'alpha 1\nalpha 2\nalpha 3\nalpha 4\nalpha 5\nalpha 6\nalpha 7\nalpha 8\n';
const A_AFTER = 'ALPHA 1\nalpha 2\nalpha 3\nalpha 4\nalpha 5\nalpha 6\nalpha 7\nALPHA 8\n';
const B_BEFORE = 'beta\n';
const B_AFTER = 'beta\nbeta 2\n';
const STEP_A = 'Capitalise the alpha file';
const STEP_B = 'Extend the beta file';

const todos = (s: [string, string][]) => ({ todos: s.map(([content, status]) => ({ content, status, activeForm: content })) });

function scenario(folder: string): Scenario {
  const a = path.join(folder, 'ckpt-a.txt');
  const b = path.join(folder, 'ckpt-b.txt');
  return {
    finalText: 'Both steps are done.',
    steps: [
      {
        kind: 'tools',
        calls: [
          {
            name: 'TodoWrite',
            input: todos([
              [STEP_A, 'in_progress'],
              [STEP_B, 'pending'],
            ]),
          },
        ],
      },
      { kind: 'tools', calls: [{ name: 'Read', input: { file_path: a } }] },
      { kind: 'tools', calls: [{ name: 'Write', input: { file_path: a, content: A_AFTER } }] },
      {
        kind: 'tools',
        calls: [
          {
            name: 'TodoWrite',
            input: todos([
              [STEP_A, 'completed'],
              [STEP_B, 'in_progress'],
            ]),
          },
        ],
      },
      { kind: 'tools', calls: [{ name: 'Read', input: { file_path: b } }] },
      { kind: 'tools', calls: [{ name: 'Write', input: { file_path: b, content: B_AFTER } }] },
      {
        kind: 'tools',
        calls: [
          {
            name: 'TodoWrite',
            input: todos([
              [STEP_A, 'completed'],
              [STEP_B, 'completed'],
            ]),
          },
        ],
      },
    ],
  };
}

describe('checkpoints: a real agent that writes files itself (claude-agent-acp 0.101)', function () {
  this.timeout(120_000);
  let a: TestApi;
  let ext: TestHooks['ext'];
  let model: FakeModel | undefined;
  let launch: AgentSettingLaunch | undefined;
  let folder: string;
  let fileA: string;
  let fileB: string;
  let previousAgents: unknown;
  let configured = false;
  let sessionId = '';
  let brokerSub: vscode.Disposable | undefined;
  const answered = new Set<string>();
  const step = (index: number) => ({ agentId: AGENT_ID, sessionId, planId: 'plan', index });
  const shot = (name: string) => screenshot(name).catch(() => undefined);

  before(async function () {
    a = await api();
    ext = ((globalThis as Record<symbol, unknown>)[TEST_HOOKS_KEY] as TestHooks).ext;
    folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail('no workspace folder open');
    fileA = path.join(folder, 'ckpt-a.txt');
    fileB = path.join(folder, 'ckpt-b.txt');
    writeFileSync(fileA, A_BEFORE);
    writeFileSync(fileB, B_BEFORE);
    model = await startFakeModel(scenario(folder));
    launch = agentSetting('claude-agent-acp-0.101', NAME, model.url, folder);
    const acp = vscode.workspace.getConfiguration('acp');
    previousAgents = acp.inspect('agents')?.globalValue;
    const others = Array.isArray(previousAgents) ? previousAgents.filter((x) => (x as { name?: unknown })?.name !== NAME) : [];
    configured = true;
    await acp.update('agents', [...others, launch.setting], vscode.ConfigurationTarget.Global);
    await waitFor(a.internals.agents.onDidChangeDefinitions, () => !!a.internals.agents.get(AGENT_ID), 10_000, `${AGENT_ID} configured`);
    // Allow each write once, as a person would, after the checkpoints already asked for are taken.
    brokerSub = a.internals.store.onDidChange(() => {
      for (const p of a.internals.broker.pending) {
        if (p.agentId !== AGENT_ID || answered.has(p.id)) continue;
        answered.add(p.id);
        const allow = p.request.options.find((o) => o.kind === 'allow_once');
        void ext.checkpoints!.settled(AGENT_ID, p.request.sessionId).then(() => allow && a.internals.broker.respond(p.id, allow.optionId));
      }
    });
  });

  after(async () => {
    brokerSub?.dispose();
    if (a?.internals.agents.get(AGENT_ID)) await vscode.commands.executeCommand('acp.stopAgent', AGENT_ID).then(undefined, () => undefined);
    if (configured) await vscode.workspace.getConfiguration('acp').update('agents', previousAgents, vscode.ConfigurationTarget.Global);
    if (a) {
      a.internals.plans.clearAgent(AGENT_ID);
      a.internals.store.removeAgent(AGENT_ID);
      if (sessionId) a.internals.transcript.removeSession(sessionKey(AGENT_ID, sessionId));
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await model?.close();
    launch?.cleanup();
    for (const f of [fileA, fileB]) if (f) rmSync(f, { force: true });
  });

  it('lists under each step only the file it changed, with line counts', async () => {
    const ref = await vscode.commands.executeCommand<{ agentId: string; sessionId: string } | undefined>('acp.startAgent', AGENT_ID);
    assert.ok(ref, `no session: ${a.internals.agents.get(AGENT_ID)?.lastError ?? ''}`);
    sessionId = ref.sessionId;
    const session = () => a.internals.store.session(AGENT_ID, sessionId);
    const ended = waitFor(a.internals.store.onDidChange, () => session()?.turnState === 'idle' && !!session()?.stopReason, 60_000, 'the end of the turn');
    assert.equal(await vscode.commands.executeCommand<boolean>('acp.sendPrompt', ref, 'Do the two steps.'), true);
    await ended;
    await ext.checkpoints!.settled(AGENT_ID, sessionId);
    assert.equal(session()?.stopReason, 'end_turn');
    assert.equal(readFileSync(fileA, 'utf8'), A_AFTER, 'the agent wrote ckpt-a.txt itself');
    assert.equal(readFileSync(fileB, 'utf8'), B_AFTER);
    assert.equal(answered.size, 2, 'two writes asked');

    const files = (i: number) => ext.work.stepChanges(AGENT_ID, sessionId, ext.work.stepAt(AGENT_ID, sessionId, 'plan', i)!).map((c) => path.basename(c.path));
    assert.deepEqual(files(0), ['ckpt-a.txt']);
    assert.deepEqual(files(1), ['ckpt-b.txt']);

    // The rows a person sees: each step expanded shows its file and "+2 −2" / "+1 −0".
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    const tree = a.internals.plansUi.tree;
    await tree.whenIdle();
    const agentNode = tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === AGENT_ID) ?? assert.fail('no agent row');
    const sessionNode = tree.getChildren(agentNode).find((n) => n.kind === 'session' && n.sessionId === sessionId) ?? assert.fail('no session row');
    const planNode = tree.getChildren(sessionNode).find((n) => n.kind === 'plan') ?? assert.fail('no plan row');
    const steps = tree.getChildren(planNode).filter((n) => n.kind === 'step');
    assert.equal(steps.length, 2);
    await a.internals.plansUi.treeView.reveal(planNode, { expand: true, select: false, focus: false });
    for (const s of steps) {
      assert.match(String(tree.getTreeItem(s).contextValue), /:files:ckpt$/, 'a step row that began from a checkpoint offers Restore');
      await a.internals.plansUi.treeView.reveal(s, { expand: true, select: false, focus: false });
    }
    const rows = await waitForUi(
      '.part.sidebar .pane-body .monaco-list-row',
      (t) => t.some((x) => x.includes('ckpt-a.txt')) && t.some((x) => x.includes('ckpt-b.txt')),
      15_000,
    );
    assert.ok(
      rows.some((r) => r.includes('ckpt-a.txt') && r.includes('+2 −2')),
      JSON.stringify(rows),
    );
    assert.ok(
      rows.some((r) => r.includes('ckpt-b.txt') && r.includes('+1 −0')),
      JSON.stringify(rows),
    );
    await shot('checkpoints-steps');
  });

  it('reviews step 1 with the real before text and the live file, and rejects a hunk there', async () => {
    {
      assert.deepEqual(await vscode.commands.executeCommand<string[]>('acp.reviewStepChanges', step(0)), [fileA]);
      await waitFor(
        vscode.window.tabGroups.onDidChangeTabs,
        () => /Changes of step: Capitalise/.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ''),
        15_000,
        'the review tab',
      );
      const beforeDoc = () =>
        // This step's file: review tabs of earlier tests may still hold documents of their own.
        vscode.workspace.textDocuments.find(
          (d) =>
            d.uri.scheme === 'acp-step' &&
            new URLSearchParams(d.uri.query).get('side') === 'before' &&
            decodeURIComponent(d.uri.toString()).includes('ckpt-a.txt'),
        );
      await waitFor(vscode.workspace.onDidOpenTextDocument, () => !!beforeDoc(), 15_000, 'the before side');
      const before = beforeDoc()!;
      assert.equal(before.getText(), A_BEFORE, 'the before side is the file as the checkpoint before step 1 holds it');
    }
    // The diff editor's own hunk toolbar (in the gutter of the hunk the cursor is in): its first action reverts the hunk.
    const REVERT = '.gutterItem .buttons .action-label';
    await waitForUi(REVERT, (t) => t.length >= 1, 15_000).catch(async (err: unknown) => {
      await shot('checkpoints-review-no-toolbar');
      throw err;
    });
    await shot('checkpoints-review');
    const live =
      vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === fileA) ?? assert.fail('the right side is not the live file');
    await uiClick(REVERT); // the hunk's actions: Revert Block
    await uiClick('.monaco-menu .action-label', 'Revert Block');
    await waitFor(vscode.workspace.onDidChangeTextDocument, () => live.getText() !== A_AFTER, 10_000, 'the hunk rejected');
    assert.ok(await live.save());
    const now = readFileSync(fileA, 'utf8');
    assert.equal(now.split('\n').filter((l) => l.startsWith('ALPHA')).length, 1, `one of the two hunks rejected: ${JSON.stringify(now)}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('reviews the whole session and its last turn', async () => {
    const ref = { agentId: AGENT_ID, sessionId };
    assert.deepEqual((await vscode.commands.executeCommand<string[]>('acp.reviewSessionChanges', ref)).sort(), [fileA, fileB]);
    assert.deepEqual((await vscode.commands.executeCommand<string[]>('acp.reviewTurnChanges', ref)).sort(), [fileA, fileB]);
    await waitFor(
      vscode.window.tabGroups.onDidChangeTabs,
      () => /Changes of the last turn of/.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ''),
      15_000,
      'the turn review tab',
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('reverts step 2 on disk while step 1’s file stays', async () => {
    const aNow = readFileSync(fileA, 'utf8');
    const result = vscode.commands.executeCommand<{ reverted: string[] }>('acp.revertStepChanges', step(1));
    await confirm('Revert Changes of This Step', 'Revert 1 file', 'checkpoints-revert-confirm');
    assert.deepEqual((await result).reverted, [fileB]);
    assert.equal(readFileSync(fileB, 'utf8'), B_BEFORE);
    assert.equal(readFileSync(fileA, 'utf8'), aNow, "step 1's file is untouched");
  });

  it('restores the workspace to before step 1, and undoes the restore', async () => {
    const aNow = readFileSync(fileA, 'utf8');
    const bNow = readFileSync(fileB, 'utf8');
    const restore = vscode.commands.executeCommand<{ restored: string[] }>('acp.restoreWorkspaceToStep', step(0));
    // ckpt-b.txt is already as it was then (step 2 was reverted): only ckpt-a.txt differs from the checkpoint.
    await confirm('Restore Workspace', 'Restore 1 file to before step', 'checkpoints-restore-confirm');
    const r = await restore;
    assert.deepEqual(r.restored, [fileA], JSON.stringify(r));
    assert.equal(readFileSync(fileA, 'utf8'), A_BEFORE);
    assert.equal(readFileSync(fileB, 'utf8'), B_BEFORE);
    const undo = vscode.commands.executeCommand<{ restored: string[] }>('acp.undoRestoreWorkspace');
    await confirm('Restore Workspace', 'Restore 1 file as it was before the restore');
    assert.ok((await undo).restored.includes(fileA));
    assert.equal(readFileSync(fileA, 'utf8'), aNow, 'the undo brings back the file as it was before the restore');
    assert.equal(readFileSync(fileB, 'utf8'), bNow);
    await shot('checkpoints-undone');
  });
});
