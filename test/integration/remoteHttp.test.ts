// A remote agent over streamable HTTP in the real VS Code (issue 27, must-show 2): the Demo Agent
// served by the official ACP SDK's server transport (@agentclientprotocol/sdk 2.4
// experimental/server, Node adapter) in a process this test starts on 127.0.0.1
// (test/agents/httpBridge.ts: one agent process per ACP connection, sessions kept in a state
// directory, every request needs a bearer token), configured in acp.agents by an `http://` url
// with `headers` naming a secret. Shown as over a WebSocket: the confirmation with the URL; the
// plan in the Plans tree and the status bar, with a permission request (an agent request on the
// session's SSE stream, answered by a POST with its Acp-Session-Id); the server killed mid-turn →
// the turn ends once, the agent reconnects, the session is resumed, its plans kept; the server
// dying with a prompt unanswered → sent again with the same idempotency key, answered once; a
// wrong secret → the 401 sentence; the same server on ACP v1 (a second entry, protocol "1"), so the
// harness validates what the client sent over HTTP against both versions' schemas.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { sessionKey } from '../../src/state/sessionStore';
import { api, waitFor, type TestApi } from './support/ext';
import { nextPermission, prompt, turnEnd, type SessionRef } from './support/demo';
import { hasUiHook, screenshot, uiClick, waitForUi } from './ui';
import { RemoteBed } from './support/bridge';

const NAME = 'Remote HTTP Demo';
const NAME_V1 = 'Remote HTTP Demo v1';
const AGENT_ID = `agent:${NAME}`;
const QUICK_ROWS = '.quick-input-widget .monaco-list-row';
const SECRET = 'remote-http-token';
const TOKEN = `tok-${Math.random().toString(36).slice(2)}-http`;
const DIE = 'HTTP_SERVER_DIES_HERE';

describe('Remote agent over streamable HTTP (remote, real UI)', function () {
  this.timeout(120000);
  let a: TestApi;
  let ref: SessionRef;
  const bed = new RemoteBed('httpBridge.js', TOKEN);

  const sup = () => a.internals.agents.get(AGENT_ID)!;
  const transcriptItems = () => {
    const t = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId))!;
    return t.slice(t.firstIndex);
  };

  before(async function () {
    if (!hasUiHook()) this.skip();
    a = await api();
    await bed.setUp(a, SECRET, AGENT_ID, (port) => [
      { name: NAME, url: `http://127.0.0.1:${port}/acp`, headers: { Authorization: `Bearer \${secret:${SECRET}}` }, protocol: '2' },
      { name: NAME_V1, url: `http://127.0.0.1:${port}/acp`, headers: { Authorization: `Bearer \${secret:${SECRET}}` }, protocol: '1' },
    ]);
  });

  after(() => bed.dispose(a, [AGENT_ID, `agent:${NAME_V1}`]));

  it('asks before the first connection to the host, showing the URL; then runs the agent over streamable HTTP (v2)', async () => {
    const opened = vscode.commands.executeCommand<SessionRef | undefined>('acp.startAgent', AGENT_ID);
    await waitForUi(QUICK_ROWS, (t) => t.some((x) => x.includes('Connect')) && t.some((x) => x.includes(`http://127.0.0.1:${bed.port}/acp`)));
    await uiClick(QUICK_ROWS, 'Connect');
    const r = await opened;
    assert.ok(r, 'a session was opened');
    ref = r;
    assert.strictEqual(sup().status, 'running');
    assert.strictEqual(sup().version, 2);
  });

  it("shows the remote agent's plans in the Plans tree and the status bar, after a permission answered over HTTP", async () => {
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
    assert.notStrictEqual(a.internals.plansUi.statusBar.view.text, '$(checklist) No plan', 'the status bar shows a plan');
    await screenshot('remote-http-plans');
  });

  it('the server killed mid-turn: the turn ends once, the agent reconnects, the session is resumed, its plans kept', async () => {
    await prompt(ref, '/slow');
    await waitFor(a.internals.store.onDidChange, () => a.internals.store.session(ref.agentId, ref.sessionId)?.turnState === 'running', 10000, 'the slow turn');
    await waitFor(a.internals.plans.onDidChange, () => a.plans(ref).some((p) => p.planId === 'slow'), 10000, 'the slow plan');
    await bed.replace();
    await waitFor(a.internals.store.onDidChange, () => sup().status !== 'running', 30000, 'the drop');
    assert.match(sup().lastError ?? '', new RegExp(`^${NAME} lost its connection to http://127\\.0\\.0\\.1:${bed.port}: .* during a turn\\.`));
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
    assert.ok(transcriptItems().some((i) => i.kind === 'notice' && JSON.stringify(i).includes('Session resumed after the agent restarted.')));
    await screenshot('remote-http-resumed');
  });

  it('the server dies with a prompt unanswered: sent again with the same idempotency key once reconnected, answered once', async () => {
    const dying = bed.live;
    const next = await bed.standby();
    fs.writeFileSync(bed.dieOn, DIE);
    await prompt(ref, `${DIE} add a farewell function`);
    await dying.exited;
    fs.rmSync(bed.dieOn);
    bed.live = next;
    await next.listen();
    assert.ok(dying.diedOn?.key, 'the server died on the prompt, which carried an idempotency key');
    await a.internals.broker.respond((await nextPermission(a, ref, 30000)).id, 'allow_once');
    assert.strictEqual(await turnEnd(a, ref, 30000), 'end_turn');
    assert.deepStrictEqual(
      next.prompts.map((p) => p.key),
      [dying.diedOn.key],
      'sent again once, with the same key',
    );
    const users = transcriptItems().filter((i) => i.kind === 'message' && i.role === 'user' && JSON.stringify(i).includes(DIE));
    assert.strictEqual(users.length, 1, 'the prompt shows once');
  });

  it('a wrong secret: the start fails with the 401 sentence, no secret in it', async () => {
    await vscode.commands.executeCommand('acp.stopAgent', AGENT_ID);
    await vscode.commands.executeCommand('acp.setAgentSecret', SECRET, 'wrong-token');
    await vscode.commands.executeCommand('acp.startAgent', AGENT_ID);
    await waitFor(a.internals.store.onDidChange, () => sup().status === 'failed', 20000, 'the failed start');
    const said = sup().lastError ?? '';
    assert.match(
      said,
      new RegExp(`^${NAME} could not connect to http://127\\.0\\.0\\.1:${bed.port}: the server refused the credentials \\(HTTP 401\\)\\. Check the "headers"`),
    );
    assert.ok(!said.includes(TOKEN) && !said.includes('wrong-token'), said);
    await vscode.commands.executeCommand('acp.setAgentSecret', SECRET, TOKEN);
  });

  it('ACP v1 over the same server (the host already confirmed): a turn with its plan and a permission', async () => {
    const v1 = await vscode.commands.executeCommand<SessionRef | undefined>('acp.startAgent', `agent:${NAME_V1}`);
    assert.ok(v1, 'a session was opened without asking again (the host is remembered)');
    assert.strictEqual(a.internals.agents.get(`agent:${NAME_V1}`)!.version, 1);
    await prompt(v1, 'Add a farewell function');
    await a.internals.broker.respond((await nextPermission(a, v1)).id, 'allow_once');
    assert.strictEqual(await turnEnd(a, v1), 'end_turn');
    assert.ok(a.plans(v1).length > 0, 'the v1 agent has a plan');
  });
});
