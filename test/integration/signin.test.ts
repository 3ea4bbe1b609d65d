// Terminal sign-in in the real VS Code: the Demo Agent in sign-in mode (`--signin=<file>`, set up
// through acp.agents like any configured agent) advertises a terminal auth method and answers
// auth_required (-32000) until <file> exists. Start Agent → New Session is refused → the warning
// offers Sign In → the user picks the method in the quick pick → confirms the command line shown in
// a confirmation ("Run in Terminal") → a VS Code terminal runs the agent's own command with `--login`
// (which writes <file> and exits 0) → the agent restarts → the session opens → a prompt runs, read
// from the Plans tree and the conversation's DOM.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, EXT_ID, waitFor, type TestApi } from './support/ext';
import { turnEnd, withSetting, type SessionRef } from './support/demo';
import { clearNotes, NOTES, toastWith } from './support/notifications';
import { hasUiHook, screenshot, uiClick, waitForUi } from './ui';

const NAME = 'Signin Demo';
const AGENT_ID = `agent:${NAME}`;
const QUICK_ROWS = '.quick-input-widget .monaco-list-row';
const ROWS = '.part.sidebar .pane-body .monaco-list-row';

describe('Sign-in: terminal auth after auth_required (real UI)', function () {
  this.timeout(120000);
  let a: TestApi;
  let marker: string;
  let dir: string;
  const restore: (() => Promise<void>)[] = [];

  before(async function () {
    if (!hasUiHook()) this.skip();
    a = await api();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-signin-'));
    marker = path.join(dir, 'signed-in');
    const demo = path.join(vscode.extensions.getExtension(EXT_ID)!.extensionPath, 'dist', 'demo-agent.js');
    restore.push(
      await withSetting('agents', [
        {
          name: NAME,
          command: process.execPath,
          args: [demo, `--signin=${marker}`, '--delay=0', `--state-dir=${path.join(dir, 'state')}`],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
      ]),
    );
    await waitFor(a.internals.agents.onDidChangeDefinitions, () => !!a.internals.agents.get(AGENT_ID), 10000, `${AGENT_ID} from acp.agents`);
    await clearNotes();
  });

  after(async () => {
    if (a?.internals.agents.get(AGENT_ID)?.status === 'running') await vscode.commands.executeCommand('acp.stopAgent', AGENT_ID);
    for (const r of restore.reverse()) await r();
    await clearNotes();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('New Session → auth_required → sign in in a terminal → restart → the session opens and a prompt runs', async () => {
    const opened = vscode.commands.executeCommand<SessionRef | undefined>('acp.startAgent', AGENT_ID);

    // The refusal is explained and sign-in offered (not a dead end).
    const settled = opened.then((r) => `acp.startAgent settled early with ${JSON.stringify(r)}; agent ${JSON.stringify(a.internals.store.agent(AGENT_ID))}`);
    const note = await Promise.race([toastWith(`${NAME} asks you to sign in before it can open a session.`, 20000), settled.then((why) => assert.fail(why))]);
    assert.ok(!fs.existsSync(marker), 'not signed in yet');
    assert.deepStrictEqual(
      a.internals.agents.get(AGENT_ID)!.connection!.authMethods.map((m) => [m.type, m.args]),
      [['terminal', ['--login']]],
    );
    await screenshot('signin-auth-required');
    assert.ok(note.includes('Sign In'), note);
    const terminalsBefore = new Set(vscode.window.terminals);
    await uiClick(`${NOTES} .monaco-button`, 'Sign In');
    await clearNotes();

    // The user picks the terminal method.
    const rows = await waitForUi(QUICK_ROWS, (t) => t.some((x) => x.includes('Sign in to the Demo Agent')));
    assert.ok(
      rows.some((x) => x.includes('in a terminal')),
      JSON.stringify(rows),
    );
    await screenshot('signin-method-pick');
    const opening = new Promise<vscode.Terminal>((resolve) => {
      const sub = vscode.window.onDidOpenTerminal((t) => {
        if (!terminalsBefore.has(t)) {
          sub.dispose();
          resolve(t);
        }
      });
    });
    const closing = new Promise<vscode.Terminal>((resolve) => {
      const sub = vscode.window.onDidCloseTerminal((t) => {
        if (t.name === `Sign in: ${NAME}`) {
          sub.dispose();
          resolve(t);
        }
      });
    });
    await uiClick(QUICK_ROWS, 'Sign in to the Demo Agent');

    // Before anything runs, a confirmation shows the exact command line, the added argument and the variable.
    const confirm = (await waitForUi(QUICK_ROWS, (t) => t.some((x) => x.includes('Run in Terminal')) && t.some((x) => x.includes('ACP_DEMO_ACCOUNT')))).join(
      '\n',
    );
    assert.ok(confirm.includes('"--login"') && confirm.includes('ACP_DEMO_ACCOUNT = "demo"'), confirm);
    await screenshot('signin-confirm');
    await uiClick(QUICK_ROWS, 'Run in Terminal');

    // A terminal runs the agent's configured command with the method's arguments; it signs in and exits 0.
    const term = await opening;
    assert.strictEqual(term.name, `Sign in: ${NAME}`);
    const opts = term.creationOptions as vscode.TerminalOptions;
    assert.strictEqual(opts.shellPath, process.execPath, 'the configured command, nothing the agent named');
    assert.deepStrictEqual((opts.shellArgs as string[]).slice(-1), ['--login']);
    assert.strictEqual(opts.env?.ACP_DEMO_ACCOUNT, 'demo', "the method's variables are set");
    const closed = await closing;
    assert.strictEqual(closed.exitStatus?.code, 0);
    assert.ok(fs.existsSync(marker), 'the terminal run signed in');

    // The agent restarts signed in and the session opens (the retry of session/new).
    const ref = await opened;
    assert.ok(ref, 'acp.startAgent returned no session after sign-in');
    assert.strictEqual(ref.agentId, AGENT_ID);
    await toastWith(`Signed in to ${NAME}; the agent restarted.`, 20000);
    await clearNotes();

    // The prompt runs: its answer in the conversation, the session in the Plans tree.
    assert.strictEqual(await vscode.commands.executeCommand<boolean>('acp.sendPrompt', ref, '/signin'), true);
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await vscode.commands.executeCommand('acp.conversation.focus');
    await waitForUi(ROWS, (t) => t.some((x) => x.includes(NAME))); // the agent's row in the tree
    let text = '';
    for (let i = 0; i < 100 && !text.includes('Signed in (sign-in mode'); i++) {
      text = (await a.internals.conversation.requestDomSnapshot().catch(() => undefined))?.text ?? '';
      if (!text.includes('Signed in (sign-in mode')) await new Promise((r) => setTimeout(r, 150));
    }
    assert.ok(text.includes('Signed in (sign-in mode, marker signed-in).'), text.slice(-2000));
    await screenshot('signin-session-open');
  });
});
