// A remote agent over a WebSocket in the real VS Code (issue 27, must-show 1): the Demo Agent served
// by a stdio ↔ WebSocket bridge this test starts on 127.0.0.1 (test/agents/wsBridge.ts: one agent
// process per connection, sessions kept in a state directory, the upgrade needs a bearer token),
// configured in acp.agents by `url` with `headers` naming a secret stored through "ACP: Set Agent
// Secret…". Shown: the confirmation before the first connection (its URL); the plan in the Plans
// tree and the status bar; the bridge killed mid-turn → the turn ends once, the agent reconnects
// (same backoff), the session is resumed and its plans kept; the bridge dying with a prompt
// unanswered → the prompt is sent again with the same idempotency key and answered once.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { sessionKey } from '../../src/state/sessionStore';
import { api, waitFor, type TestApi } from './support/ext';
import { nextPermission, prompt, turnEnd, type SessionRef } from './support/demo';
import { hasUiHook, screenshot, uiClick, waitForUi } from './ui';
import { RemoteBed } from './support/bridge';

const NAME = 'Remote Demo';
const AGENT_ID = `agent:${NAME}`;
const QUICK_ROWS = '.quick-input-widget .monaco-list-row';
const SECRET = 'remote-demo-token';
const TOKEN = `tok-${Math.random().toString(36).slice(2)}-remote`;
const DIE = 'BRIDGE_DIES_HERE';

describe('Remote agent over a WebSocket (remote, real UI)', function () {
  this.timeout(120000);
  let a: TestApi;
  let ref: SessionRef;
  const bed = new RemoteBed('wsBridge.js', TOKEN);

  const sup = () => a.internals.agents.get(AGENT_ID)!;
  const transcriptItems = () => {
    const t = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId))!;
    return t.slice(t.firstIndex);
  };
  const userMessagesWith = (text: string) =>
    transcriptItems().filter((i) => i.kind === 'message' && i.role === 'user' && JSON.stringify(i).includes(text)).length;

  before(async function () {
    if (!hasUiHook()) this.skip();
    a = await api();
    await bed.setUp(a, SECRET, AGENT_ID, (port) => [
      { name: NAME, url: `ws://127.0.0.1:${port}/acp`, headers: { Authorization: `Bearer \${secret:${SECRET}}` }, protocol: '2' },
    ]);
  });

  after(() => bed.dispose(a, [AGENT_ID]));

  it('asks before the first connection to the host, showing the URL; then runs the agent over the WebSocket (v2)', async () => {
    const opened = vscode.commands.executeCommand<SessionRef | undefined>('acp.startAgent', AGENT_ID);
    const rows = await waitForUi(QUICK_ROWS, (t) => t.some((x) => x.includes('Connect')) && t.some((x) => x.includes(`ws://127.0.0.1:${bed.port}/acp`)));
    const shown = rows.join('\n');
    assert.ok(shown.includes('Authorization') && shown.includes(SECRET), shown);
    assert.ok(!shown.includes(TOKEN), 'the secret value is never shown');
    await screenshot('remote-confirm-host');
    await uiClick(QUICK_ROWS, 'Connect');
    const r = await opened;
    assert.ok(r, 'a session was opened');
    ref = r;
    assert.strictEqual(sup().status, 'running');
    assert.strictEqual(sup().version, 2);
    assert.match(a.agents().find((x) => x.id === AGENT_ID)?.status ?? '', /running/);
  });

  it("shows the remote agent's plans in the Plans tree and the status bar", async () => {
    await prompt(ref, 'Add a farewell function');
    await a.internals.broker.respond((await nextPermission(a, ref)).id, 'allow_once');
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    const plans = a.plans({ agentId: ref.agentId, sessionId: ref.sessionId }).map((p) => p.planId);
    for (const id of ['impl', 'tests']) assert.ok(plans.includes(id), `plan ${id}: ${plans.join(', ')}`);
    const tree = a.internals.plansUi.tree;
    const roots = (await tree.getChildren(undefined)) ?? [];
    const labels = await Promise.all(roots.map(async (n) => String((await tree.getTreeItem(n)).label)));
    assert.ok(labels.includes(NAME), `the tree shows the agent: ${labels.join(', ')}`);
    await a.internals.plansUi.statusBar.whenIdle();
    const status = a.internals.plansUi.statusBar.view.text;
    assert.notStrictEqual(status, '$(checklist) No plan', 'the status bar shows a plan');
    await screenshot('remote-plans');
  });

  it('the bridge killed mid-turn: the turn ends once, the agent reconnects, the session is resumed, its plans kept', async () => {
    await prompt(ref, '/slow');
    await waitFor(a.internals.store.onDidChange, () => a.internals.store.session(ref.agentId, ref.sessionId)?.turnState === 'running', 10000, 'the slow turn');
    await waitFor(a.internals.plans.onDidChange, () => a.plans(ref).some((p) => p.planId === 'slow'), 10000, 'the slow plan');
    await bed.replace();
    await waitFor(a.internals.store.onDidChange, () => sup().status !== 'running', 30000, 'the drop');
    assert.match(sup().lastError ?? '', new RegExp(`^${NAME} lost its connection to ws://127\\.0\\.0\\.1:${bed.port}: .* during a turn\\.`));
    await waitFor(
      a.internals.store.onDidChange,
      () => sup().status === 'running' && a.internals.store.session(ref.agentId, ref.sessionId)?.live === true,
      30000,
      'the reconnect and resume',
    );
    const s = a.internals.store.session(ref.agentId, ref.sessionId)!;
    assert.strictEqual(s.turnState, 'idle');
    assert.strictEqual(s.stopReason, 'agent_exited', 'the interrupted turn ended once');
    const plans = a.plans(ref).map((p) => p.planId);
    for (const id of ['impl', 'tests', 'slow']) assert.ok(plans.includes(id), `plan ${id} kept: ${plans.join(', ')}`);
    assert.ok(
      transcriptItems().some((i) => i.kind === 'notice' && JSON.stringify(i).includes('Session resumed after the agent restarted.')),
      'a notice says the session was resumed',
    );
    await screenshot('remote-resumed');
  });

  it('the bridge dies with a prompt unanswered: sent again with the same idempotency key once reconnected, answered once', async () => {
    const dying = bed.live;
    const next = await bed.standby();
    fs.writeFileSync(bed.dieOn, DIE);
    const text = `${DIE} add a farewell function`;
    await prompt(ref, text);
    await dying.exited;
    fs.rmSync(bed.dieOn);
    bed.live = next;
    await next.listen();
    assert.ok(dying.diedOn?.key, 'the bridge died on the prompt, which carried an idempotency key');
    const perm = await nextPermission(a, ref, 30000);
    await a.internals.broker.respond(perm.id, 'allow_once');
    assert.strictEqual(await turnEnd(a, ref, 30000), 'end_turn');
    assert.deepStrictEqual(
      next.prompts.map((p) => p.key),
      [dying.diedOn.key],
      'sent again once, with the same key',
    );
    assert.ok(
      transcriptItems().some((i) => i.kind === 'notice' && JSON.stringify(i).includes('same idempotency key')),
      'a notice says the prompt was sent again',
    );
    assert.strictEqual(userMessagesWith(DIE), 1, 'the prompt shows once');
    await screenshot('remote-after-resend');
  });
  it('a missing secret, a wrong one, a refused port: each start fails with the sentence that says which', async () => {
    await vscode.commands.executeCommand('acp.stopAgent', AGENT_ID);
    const failsWith = async (pattern: RegExp): Promise<void> => {
      await vscode.commands.executeCommand('acp.startAgent', AGENT_ID);
      await waitFor(a.internals.store.onDidChange, () => sup().status === 'failed', 20000, 'the failed start');
      assert.match(sup().lastError ?? '', pattern);
      assert.ok(!(sup().lastError ?? '').includes(TOKEN), 'no secret in the sentence');
    };
    await vscode.commands.executeCommand('acp.setAgentSecret', SECRET, '');
    await failsWith(
      new RegExp(`^${NAME} could not connect: the secret "${SECRET}" its headers name is not set \\(run "ACP: Set Agent Secret…" to store it\\)\\.$`),
    );
    await vscode.commands.executeCommand('acp.setAgentSecret', SECRET, 'wrong-token');
    await failsWith(
      new RegExp(`^${NAME} could not connect to ws://127\\.0\\.0\\.1:${bed.port}: the server refused the credentials \\(HTTP 401\\)\\. Check the "headers"`),
    );
    await vscode.commands.executeCommand('acp.setAgentSecret', SECRET, TOKEN);
    await bed.live.kill();
    await failsWith(
      new RegExp(`^${NAME} could not connect to ws://127\\.0\\.0\\.1:${bed.port}: the connection was refused \\(nothing listens on port ${bed.port}\\)\\.`),
    );
    await screenshot('remote-refused');
  });
});
