// Record and replay traffic in a real VS Code: a Demo Agent turn recorded through
// "ACP: Record Agent Traffic" (the file redacted, both directions, times; the tree row and the
// status bar say so while on), then recordings opened with "ACP: Open Recording…": codex-acp's
// interop recording shows its plan in the Plans tree and its messages in the conversation
// (read-only: no permission reaches the broker), and step pace advances one message per Step.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Recordings } from '../../src/recording/recordings';
import type { RecordResult } from '../../src/recording/recordingCommands';
import type { ReplayInfo } from '../../src/recording/replays';
import { indexRecording, readMessage } from '../../src/recording/format';
import { sessionKey } from '../../src/state/sessionStore';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { TEST_HOOKS_KEY, type TestHooks } from '../../src/testHooks';
import { api, EXT_ID, waitFor, type TestApi } from './support/ext';
import { nextPermission, prompt, resetDemo, startDemo, turnEnd, withSetting } from './support/demo';
import { hasUiHook, screenshot, waitForUi } from './ui';

const SECRET = 'sk-proj-RecordingTestSecret0123456789abcd';
const ARG_SECRET = 'argSecretValue-9f8e7d6c5b4a';
const ROWS = '.part.sidebar .pane-body .monaco-list-row';

function recordings(): Recordings {
  return ((globalThis as Record<symbol, unknown>)[TEST_HOOKS_KEY] as TestHooks).ext.recordings;
}

function fixture(name: string): string {
  return path.join(vscode.extensions.getExtension(EXT_ID)!.extensionPath, 'test', 'fixtures', 'recordings', name);
}

interface Row {
  label: string;
  description: string;
  icon: string;
  context?: string;
}

async function rows(a: TestApi, node?: PlanTreeNode): Promise<{ node: PlanTreeNode; row: Row }[]> {
  const tree = a.internals.plansUi.tree;
  const out: { node: PlanTreeNode; row: Row }[] = [];
  for (const child of tree.getChildren(node)) {
    const item = tree.getTreeItem(child);
    const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : '';
    out.push({
      node: child,
      row: {
        label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''),
        description: String(item.description ?? ''),
        icon,
        context: item.contextValue,
      },
    });
  }
  return out;
}

async function rowOf(a: TestApi, parent: PlanTreeNode | undefined, label: string): Promise<{ node: PlanTreeNode; row: Row }> {
  const all = await rows(a, parent);
  const r = all.find((x) => x.row.label === label);
  assert.ok(r, `no row "${label}": ${JSON.stringify(all.map((x) => x.row.label))}`);
  return r;
}

/** Resolves when the replay of `agentId` has played every message. */
async function replayDone(a: TestApi, agentId: string): Promise<void> {
  await waitFor(a.internals.store.onDidChange, () => recordings().replays.state(agentId)?.done === true, 15000, `the end of the replay of ${agentId}`);
}

describe('Recordings', function () {
  this.timeout(90000);
  let a: TestApi;
  const opened: string[] = [];

  before(async () => {
    a = await api();
  });
  after(async () => {
    for (const id of opened) if (recordings().replays.has(id)) await vscode.commands.executeCommand('acp.closeRecording', id);
    if (recordings().isRecording('demo')) await vscode.commands.executeCommand('acp.recordAgentTraffic', 'demo');
    await resetDemo();
  });

  it('records a Demo Agent turn: redacted, both directions with times; the tree row and the status bar show it', async () => {
    await resetDemo();
    const restoreMcp = await withSetting('mcpServers', [
      { name: 'recording-test-tools', command: 'tools', args: ['--api-key', ARG_SECRET], env: { OPENAI_API_KEY: SECRET } },
    ]);
    let file: string;
    let livePlans: string[] = [];
    try {
      const on = await vscode.commands.executeCommand<RecordResult>('acp.recordAgentTraffic', 'demo');
      assert.ok(on?.recording, 'recording started');
      file = on.file;
      assert.ok(file.startsWith(recordings().folder), `${file} is in the extension's storage`);
      // v1: the Demo Agent takes stdio MCP servers only on v1 (so the secrets are on the wire).
      const { ref, restore } = await startDemo('1');
      try {
        const agentRow = await rowOf(a, undefined, 'Demo Agent');
        assert.match(agentRow.row.description, /^v1 · running · recording$/);
        assert.strictEqual(agentRow.row.context, 'agent:running:recording');
        if (hasUiHook()) {
          const bar = await waitForUi('.part.statusbar [id$="acp.recording"]', (t) => t.some((x) => x.includes('Recording Demo Agent')));
          assert.ok(bar.length > 0);
        }
        await prompt(ref, 'Add a farewell function');
        const perm = await nextPermission(a, ref);
        assert.ok(await a.internals.broker.respond(perm.id, 'allow_once'));
        assert.strictEqual(await turnEnd(a, ref), 'end_turn');
        livePlans = a.internals.plans.plans(ref.agentId, ref.sessionId).map((p) => p.planId);
      } finally {
        const off = await vscode.commands.executeCommand<RecordResult>('acp.recordAgentTraffic', 'demo');
        assert.strictEqual(off?.recording, false);
        assert.ok((off.messages ?? 0) > 10, `messages: ${off.messages}`);
        await restore();
      }
    } finally {
      await restoreMcp();
    }
    const agentRow = (await rows(a)).find((r) => r.row.label === 'Demo Agent');
    assert.ok(!agentRow || !agentRow.row.description.includes('recording'), 'no longer shown as recording');

    const text = fs.readFileSync(file, 'utf8');
    assert.ok(!text.includes(SECRET.slice(8, 24)) && !text.includes(ARG_SECRET), 'no secret in the recording');
    assert.ok(text.includes('recording-test-tools') && text.includes('OPENAI_API_KEY'), 'the session/new params were recorded (names kept)');
    const bytes = Buffer.from(text);
    const index = indexRecording(bytes);
    assert.deepStrictEqual(index.bad, []);
    assert.strictEqual(index.header?.redacted, true);
    assert.strictEqual(index.header?.agentId, 'demo');
    const msgs = index.messages.map((r) => readMessage(bytes, r));
    assert.ok(
      msgs.every((m) => typeof m.time === 'number'),
      'every line has its time',
    );
    assert.ok(msgs.some((m) => m.dir === 'send') && msgs.some((m) => m.dir === 'receive'), 'both directions');
    assert.strictEqual(msgs[0].msgs[0].method, 'initialize');

    // Our own recording replays: the Demo Agent's plan and its answered permission come back, read-only.
    const info = await vscode.commands.executeCommand<ReplayInfo>('acp.openRecording', file, 'instant');
    assert.ok(info);
    opened.push(info.agentId);
    await replayDone(a, info.agentId);
    const planIds = a.internals.store.sessions(info.agentId).flatMap((s) => a.internals.plans.plans(info.agentId, s.sessionId).map((p) => p.planId));
    assert.ok(livePlans.length > 0);
    assert.deepStrictEqual(planIds, livePlans, 'the same plans as the live turn');
    const [replayed] = a.internals.store.sessions(info.agentId);
    assert.match(replayed.stopReason ?? '', /end_turn/);
    const t = a.internals.transcript.session(sessionKey(info.agentId, replayed.sessionId));
    const items = t ? t.slice(t.firstIndex) : [];
    assert.ok(
      items.some((i) => i.kind === 'message' && i.role === 'user'),
      'the prompt, from our recorded session/prompt',
    );
    const perm = items.find((i) => i.kind === 'permission');
    assert.ok(perm?.kind === 'permission' && perm.state === 'selected', JSON.stringify(perm));
  });

  it("opens codex-acp's interop recording: its plan in the Plans tree, its messages in the conversation, no permission asked", async () => {
    const info = await vscode.commands.executeCommand<ReplayInfo>('acp.openRecording', fixture('codex-acp-0.16.0.ndjson'), 'instant');
    assert.ok(info, 'Open Recording returned nothing');
    opened.push(info.agentId);
    assert.deepStrictEqual([info.agentId, info.messages, info.badLines], ['recording:codex-acp-0.16.0.ndjson', 23, 0]);
    await replayDone(a, info.agentId);
    await a.internals.plansUi.tree.whenIdle();

    const agent = await rowOf(a, undefined, 'Replay: codex-acp-0.16.0.ndjson');
    assert.strictEqual(agent.row.context, 'replay');
    assert.strictEqual(agent.row.icon, 'history');
    assert.match(agent.row.description, /^v1 · codex-acp · replayed 23$/);
    const sessions = await rows(a, agent.node);
    assert.strictEqual(sessions.length, 1);
    const session = sessions[0];
    assert.match(session.row.description, /idle \(end_turn\)/);
    const plan = await rowOf(a, session.node, 'main');
    assert.match(plan.row.description, /^items · 2\/2/);
    assert.strictEqual(plan.row.icon, 'pass');
    const steps = await rows(a, plan.node);
    assert.deepStrictEqual(
      steps.map((s) => s.row.label),
      ['Write the greeting file', 'Create the marker'],
    );

    // Read-only: nothing went to the broker; the session is not live.
    const sessionId = a.internals.store.sessions(info.agentId)[0].sessionId;
    assert.strictEqual(a.internals.store.session(info.agentId, sessionId)?.live, false);
    assert.deepStrictEqual(a.internals.broker.pendingFor(sessionId), []);
    assert.deepStrictEqual(
      a.internals.store.pendingPermissions().filter((p) => p.agentId === info.agentId),
      [],
    );

    // The conversation shows the replayed session (active), with its messages and answered permissions.
    assert.deepStrictEqual(a.internals.store.activeSession, { agentId: info.agentId, sessionId });
    const t = a.internals.transcript.session(sessionKey(info.agentId, sessionId));
    assert.ok(t, 'a transcript for the replayed session');
    const host = a.internals.conversation.openPanel(vscode.ViewColumn.One);
    try {
      await host.whenReady();
      const end = Date.now() + 15000;
      let dom = await host.requestDomSnapshot();
      while (!(dom.text.includes('All steps are done.') && dom.items.filter((i) => i.kind === 'permission').length === 2) && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 150));
        dom = await host.requestDomSnapshot();
      }
      assert.ok(dom.text.includes('All steps are done.'), dom.text.slice(0, 2000));
      assert.strictEqual(dom.items.filter((i) => i.kind === 'permission').length, 2, JSON.stringify(dom.items.map((i) => i.kind)));
      assert.ok(dom.text.includes('Run the interop task.'), 'the prompt, from the recorded session/prompt');
      assert.ok(/Answered: Allow once/.test(dom.text), 'the recorded answers');
      if (hasUiHook()) {
        await vscode.commands.executeCommand('workbench.view.extension.acp');
        await a.internals.plansUi.treeView.reveal(steps[0].node, { expand: true, select: false });
        await waitForUi(ROWS, (x) => x.some((r) => r.includes('Write the greeting file')) && x.some((r) => r.includes('Replay: codex-acp')));
        const shot = await screenshot('recordings-codex-replay');
        console.log(`      screenshot: ${shot}`);
      }
    } finally {
      host.dispose();
    }
  });

  it('step pace: paused at the start; one Step plays exactly one recorded message', async () => {
    const file = fixture('sdk-2.4.0-v2-test-agent.ndjson');
    const info = await vscode.commands.executeCommand<ReplayInfo>('acp.openRecording', file, 'step');
    assert.ok(info);
    opened.push(info.agentId);
    const r = recordings().replays;
    assert.deepStrictEqual(r.state(info.agentId), { position: 0, total: 22, paused: true, done: false, pace: 'step', name: 'sdk-2.4.0-v2-test-agent.ndjson' });
    // Which recorded line carries the first plan_update (0-based among the messages).
    const bytes = fs.readFileSync(file);
    const index = indexRecording(bytes);
    const firstPlan = index.messages.findIndex((ref) => JSON.stringify(readMessage(bytes, ref).msgs).includes('"plan_update"'));
    assert.ok(firstPlan > 0);
    const planCount = () => a.internals.store.sessions(info.agentId).reduce((n, s) => n + a.internals.plans.plans(info.agentId, s.sessionId).length, 0);
    for (let i = 0; i < firstPlan; i++) {
      assert.strictEqual(await vscode.commands.executeCommand('acp.stepReplay', info.agentId), true);
      assert.strictEqual(r.state(info.agentId)?.position, i + 1);
    }
    assert.strictEqual(planCount(), 0, 'no plan before its message is played');
    await vscode.commands.executeCommand('acp.stepReplay');
    assert.strictEqual(r.state(info.agentId)?.position, firstPlan + 1);
    assert.strictEqual(planCount(), 1, 'the one Step played the plan_update');
    await a.internals.plansUi.tree.whenIdle();
    const agent = await rowOf(a, undefined, 'Replay: sdk-2.4.0-v2-test-agent.ndjson');
    assert.match(agent.row.description, new RegExp(`^v2 · v2-test-agent · replay ${firstPlan + 1}/22 · paused$`));
    if (hasUiHook()) await waitForUi('.part.statusbar [id$="acp.replay"]', (t) => t.some((x) => x.includes(`Replay ${firstPlan + 1}/22`)));
    // Resume plays the rest; closing removes the replay from the tree.
    await vscode.commands.executeCommand('acp.resumeReplay', info.agentId);
    await replayDone(a, info.agentId);
    assert.strictEqual(await vscode.commands.executeCommand('acp.closeRecording', info.agentId), true);
    assert.ok(!(await rows(a)).some((x) => x.row.label.startsWith('Replay: sdk-2.4.0')));
    assert.strictEqual(a.internals.store.agent(info.agentId), undefined);
  });

  it('a recording with bad lines opens anyway: the bad lines are counted and skipped', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bad-recording-'));
    const file = path.join(dir, 'broken.jsonl');
    const good = fs.readFileSync(fixture('sdk-1.9.0-dual-version-agent-v2.ndjson'), 'utf8').split('\n');
    fs.writeFileSync(file, [good[0], good[1], '{oops', good[2], 'null', ...good.slice(3)].join('\n'));
    try {
      const info = await vscode.commands.executeCommand<ReplayInfo>('acp.openRecording', file, 'instant');
      assert.ok(info);
      opened.push(info.agentId);
      assert.deepStrictEqual([info.badLines, info.firstBadLines], [2, [3, 5]]);
      await replayDone(a, info.agentId);
      assert.strictEqual(a.internals.store.sessions(info.agentId).length, 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
