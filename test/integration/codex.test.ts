// A real agent through the whole extension: codex-acp (installed by test/interop/install.mjs)
// configured in `acp.agents` with the interop recipe (temp HOME/CODEX_HOME, `-c` overrides that
// point it at the fake model server started here, on 127.0.0.1), started with `acp.startAgent`,
// prompted with `acp.sendPrompt`, its permission requests allowed through the broker. The
// scripted model publishes a plan (`update_plan`), adds a file (`apply_patch`), runs a command
// (`exec_command`) and completes the plan. Checked: the agent negotiated v1, the plan `main` in
// the extension's plan store, the transcript, the files on disk, and the Plans tree in the real
// workbench (screenshot `codex-plan-tree`).
import { sessionKey } from '../../src/state/sessionStore';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { TestApi as AcpPlansApi } from './support/ext';
import type { PendingPermission } from '../../src/state/sessionStore';
import type { PlanContent } from '../../src/protocol/domain';
import { api, waitFor } from './support/ext';
import {
  agentSetting,
  codexScenario,
  FILE_NAME,
  FILE_TEXT,
  FINAL_TEXT,
  MARKER,
  requireInteropAgents,
  startFakeModel,
  type AgentSettingLaunch,
  type FakeModel,
} from './support/interop';
import { hasUiHook, screenshot, uiTexts, waitForUi } from './ui';

const NAME = 'codex-acp';
const AGENT_ID = `agent:${NAME}`;
const ROWS = '.part.sidebar .pane-body .monaco-list-row';

type Internals = AcpPlansApi['internals'];
interface SessionRef {
  agentId: string;
  sessionId: string;
}

describe('codex-acp through the extension (real VS Code host, fake model)', function () {
  this.timeout(60_000);
  let internals: Internals;
  let model: FakeModel | undefined;
  let launch: AgentSettingLaunch | undefined;
  let folder: string;
  let previousAgents: unknown;
  let configured = false;
  let ref: SessionRef | undefined;
  const answered: PendingPermission[] = [];
  const unanswerable: string[] = [];
  let brokerSub: vscode.Disposable | undefined;

  before(async () => {
    requireInteropAgents();
    internals = (await api()).internals;
    folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail('no workspace folder open');
    for (const f of [FILE_NAME, MARKER]) rmSync(path.join(folder, f), { force: true });
    model = await startFakeModel(codexScenario());
    launch = agentSetting('codex-acp', NAME, model.url, folder);

    const acp = vscode.workspace.getConfiguration('acp');
    previousAgents = acp.inspect('agents')?.globalValue;
    const others = Array.isArray(previousAgents) ? previousAgents.filter((a) => (a as { name?: unknown })?.name !== NAME) : [];
    configured = true;
    await acp.update('agents', [...others, launch.setting], vscode.ConfigurationTarget.Global);
    await waitFor(
      internals.agents.onDidChangeDefinitions,
      () => internals.agents.get(AGENT_ID)?.def.command === launch!.setting.command,
      10_000,
      `${AGENT_ID} from the acp.agents setting`,
    );
    assert.deepEqual(internals.agents.configProblems, [], 'acp.agents problems');

    // Allow every request of this agent, as a user clicking "allow once" would (never "always":
    // that would store a rule in the profile).
    brokerSub = internals.store.onDidChange(() => {
      for (const p of internals.broker.pending) {
        if (p.agentId !== AGENT_ID || answered.some((a) => a.id === p.id) || unanswerable.includes(p.id)) continue;
        const allow = p.request.options.find((o) => o.kind === 'allow_once');
        if (!allow) {
          unanswerable.push(p.id);
          continue;
        }
        answered.push(p);
        void internals.broker.respond(p.id, allow.optionId);
      }
    });
  });

  after(async () => {
    const problems: string[] = [];
    const step = async (what: string, f: () => unknown): Promise<void> => {
      try {
        await f();
      } catch (err) {
        problems.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
    brokerSub?.dispose();
    for (const p of internals?.broker.pending.filter((x) => x.agentId === AGENT_ID) ?? []) internals.broker.cancelSession(p.agentId, p.request.sessionId);
    if (internals?.agents.get(AGENT_ID)) await step('acp.stopAgent', () => vscode.commands.executeCommand('acp.stopAgent', AGENT_ID));
    if (configured)
      await step('restore acp.agents', () => vscode.workspace.getConfiguration('acp').update('agents', previousAgents, vscode.ConfigurationTarget.Global));
    if (internals) {
      internals.plans.clearAgent(AGENT_ID);
      internals.store.removeAgent(AGENT_ID);
      if (ref) internals.transcript.removeSession(sessionKey(ref.agentId, ref.sessionId));
    }
    if (model) await step('fake model close', () => model!.close());
    launch?.cleanup();
    if (folder) for (const f of [FILE_NAME, MARKER]) rmSync(path.join(folder, f), { force: true });
    assert.deepEqual(problems, [], 'cleanup');
  });

  it('runs a turn: plan `main` in the store and in the Plans tree, edit and command allowed', async () => {
    const { store: registry, plans, transcript, plansUi, agents } = internals;
    const t0 = Date.now();
    ref = await vscode.commands.executeCommand<SessionRef | undefined>('acp.startAgent', AGENT_ID);
    const sup = agents.get(AGENT_ID);
    assert.ok(ref, `acp.startAgent returned no session: ${sup?.status} ${sup?.lastError ?? ''}`);
    const startMs = Date.now() - t0;
    const { agentId, sessionId } = ref;
    assert.equal(agentId, AGENT_ID);
    assert.equal(registry.agent(agentId)?.protocolVersion, 1, 'codex-acp answers protocol v1');
    assert.equal(registry.agent(agentId)?.status, 'running');

    const session = () => registry.session(agentId, sessionId);
    const t1 = Date.now();
    const ended = waitFor(registry.onDidChange, () => session()?.turnState === 'idle' && !!session()?.stopReason, 30_000, 'the end of the turn');
    ended.catch(() => undefined); // handled below; no unhandled rejection if the prompt fails first
    assert.equal(await vscode.commands.executeCommand<boolean>('acp.sendPrompt', ref, 'Run the interop task.'), true);
    await ended.catch((err: unknown) => {
      throw new Error(
        `${err instanceof Error ? err.message : String(err)}; session ${JSON.stringify(session())}; model answers ${model!.requests.map((r) => r.answer).join(',')}; agent ${sup?.status} ${sup?.lastError ?? ''}`,
      );
    });
    const turnMs = Date.now() - t1;
    console.log(`      codex-acp: start + session ${startMs} ms, turn ${turnMs} ms (model requests: ${model!.requests.map((r) => r.answer).join(', ')})`);
    assert.equal(session()?.stopReason, 'end_turn', `turn ended ${JSON.stringify(session())}`);

    // Permissions: the edit and the command, both asked through the broker and allowed.
    assert.deepEqual(unanswerable, [], 'requests without an allow_once option');
    assert.equal(answered.length, 2, `permission requests: ${answered.map((p) => p.request.title).join(' | ')}`);
    assert.ok(answered.every((p) => p.request.sessionId === sessionId));
    assert.equal(internals.broker.pendingFor(sessionId).length, 0);

    // The plan store: one plan `main`, two revisions, the first in progress, the last done.
    const live = plans.plans(agentId, sessionId);
    assert.deepEqual(
      live.map((p) => p.planId),
      ['main'],
    );
    const main = live[0]!;
    assert.equal(main.version, 2);
    const entries = (r: { plan: PlanContent }) => (r.plan.type === 'items' ? r.plan.entries.map((e) => [e.content, e.status]) : r.plan.type);
    assert.deepEqual(entries(main), [
      ['Write the greeting file', 'completed'],
      ['Create the marker', 'completed'],
    ]);
    assert.deepEqual(entries(main.revisions[0]!), [
      ['Write the greeting file', 'in_progress'],
      ['Create the marker', 'pending'],
    ]);
    const snap = (await api()).plans({ agentId, sessionId });
    assert.deepEqual(
      snap.map((p) => [p.planId, p.summary.header]),
      [['main', 'v2 — all 2 steps complete']],
    );

    // The transcript: the edit and the command completed, both prompts answered, the final text.
    const st = transcript.session(sessionKey(agentId, sessionId));
    const items = st ? st.slice(st.firstIndex) : [];
    const tools = items.flatMap((i) => (i.kind === 'tool_call' ? [[i.toolKind, i.status]] : []));
    assert.ok(
      tools.some(([k, s]) => k === 'edit' && s === 'completed'),
      `tool calls ${JSON.stringify(tools)}`,
    );
    assert.ok(
      tools.some(([k, s]) => k === 'execute' && s === 'completed'),
      `tool calls ${JSON.stringify(tools)}`,
    );
    assert.deepEqual(
      items.flatMap((i) => (i.kind === 'permission' ? [i.state] : [])),
      ['selected', 'selected'],
    );
    const agentText = items
      .flatMap((i) => (i.kind === 'message' && i.role === 'agent' ? i.parts.flatMap((p) => (p.type === 'text' ? p.chunks : [])) : []))
      .join('');
    assert.equal(agentText, FINAL_TEXT);

    // What the agent did, on disk in the workspace folder.
    assert.equal(readFileSync(path.join(folder, FILE_NAME), 'utf8'), FILE_TEXT);
    assert.ok(existsSync(path.join(folder, MARKER)), `${MARKER} created by the allowed command`);

    // The Plans tree (provider level): agent row `v1 · running`, the plan row with its progress.
    const tree = plansUi.tree;
    await tree.whenIdle();
    const agentNode = tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === agentId) ?? assert.fail('no agent node');
    const agentItem = tree.getTreeItem(agentNode);
    assert.equal(agentItem.label, NAME);
    assert.equal(agentItem.description, 'v1 · running');
    const planRef = { agentId, sessionId, planId: 'main' };
    const planNode = tree.planNode(planRef);
    assert.equal(tree.getTreeItem(planNode).description, 'items · 2/2');
    assert.deepEqual(
      tree.getChildren(planNode).map((n) => tree.getTreeItem(n).label),
      ['Write the greeting file', 'Create the marker'],
    );

    // The real workbench: the ACP view container, the plan revealed and expanded.
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await plansUi.treeView.reveal(planNode, { select: true, focus: true, expand: true });
    if (!hasUiHook()) return;
    // A row's innerText is the label followed by the description, without a separator.
    const rows = await waitForUi(ROWS, (t) => ['Write the greeting file', 'Create the marker'].every((s) => t.some((x) => x.includes(s))), 10_000);
    assert.ok(
      rows.some((x) => x === `${NAME}v1 · running`),
      `agent row: ${JSON.stringify(rows)}`,
    );
    assert.ok(
      rows.some((x) => x === 'mainitems · 2/2'),
      `plan row: ${JSON.stringify(rows)}`,
    );
    await vscode.commands.executeCommand('notifications.clearAll');
    const file = await screenshot('codex-plan-tree');
    console.log(`      screenshot: ${file}; rows: ${JSON.stringify(await uiTexts(ROWS))}`);
  });
});
