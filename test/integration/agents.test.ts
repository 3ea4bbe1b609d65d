// Real work with an agent through the whole extension, against the Demo Agent over real pipes:
// full v1 and v2 turns read back from the conversation webview's DOM, permissions (allow once,
// reject, cancel, remembered rule), v1 fs and terminal services, a v2 display terminal, the diff
// editor, and a crash with automatic restart and resume.
import { sessionKey } from '../../src/state/sessionStore';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TestApi as AcpPlansApi } from './support/ext';
import type { DomSnapshot } from '../../src/ui/conversation';
import { nextPermission, prompt, startDemo, turnEnd, type SessionRef } from './support/demo';
import { waitFor } from './support/ext';
import { hasUiHook, screenshot } from './ui';

/** The conversation webview has no event the extension host can wait on; poll its DOM snapshot. */
async function dom(a: AcpPlansApi, pred: (s: DomSnapshot) => boolean, what: string, ms = 15000): Promise<DomSnapshot> {
  const end = Date.now() + ms;
  let last: DomSnapshot | undefined;
  while (Date.now() < end) {
    last = await a.internals.conversation.requestDomSnapshot().catch(() => undefined);
    if (last && pred(last)) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the conversation never showed ${what}; it showed:\n${last?.text.slice(-3000)}`);
}

async function click(a: AcpPlansApi, selector: string, text?: string): Promise<void> {
  const snap = await a.internals.conversation.requestDomSnapshot(text ? { selector, text } : { selector });
  assert.ok(snap.clicked, `nothing to click for ${selector} ${text ?? ''}`);
}

function waitForTab(pred: (t: vscode.Tab) => boolean, ms = 10000): Promise<vscode.Tab> {
  const find = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find(pred);
  const now = find();
  if (now) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error('no such editor tab opened'));
    }, ms);
    const sub = vscode.window.tabGroups.onDidChangeTabs(() => {
      const t = find();
      if (t) {
        clearTimeout(timer);
        sub.dispose();
        resolve(t);
      }
    });
  });
}

async function stopDemo(restore: () => Promise<void>): Promise<void> {
  await vscode.commands.executeCommand('acp.stopAgent', 'demo');
  await restore();
}

const workspaceFile = (rel: string): vscode.Uri => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, rel);

describe('Conversation with the Demo Agent on v2', function () {
  this.timeout(60000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;
  before(async () => {
    ({ a, ref, restore } = await startDemo('2'));
    await vscode.commands.executeCommand('acp.conversation.focus');
  });
  after(() => stopDemo(restore));

  it('streams a full turn into the view; the permission prompt is answered by a click', async () => {
    await prompt(ref, 'Add a farewell function');
    const waiting = await dom(a, (s) => s.text.includes('Allow once') && s.text.includes('Always allow'), 'the permission prompt');
    assert.match(waiting.text, /Add a farewell function/); // the user's message
    assert.match(waiting.text, /Allow the Demo Agent to edit/);
    if (hasUiHook()) {
      // The same conversation in an editor tab (Open Conversation), where there is room to read it.
      const panel = a.internals.conversation.openPanel(vscode.ViewColumn.One);
      const end = Date.now() + 15000;
      let snap: DomSnapshot | undefined;
      while (Date.now() < end && !(snap && snap.text.includes('Allow once'))) {
        snap = panel.ready ? await panel.requestDomSnapshot() : undefined;
        if (!snap?.text.includes('Allow once')) await new Promise((r) => setTimeout(r, 150));
      }
      assert.ok(snap?.text.includes('Allow once'), 'the panel shows the permission prompt');
      await screenshot('conversation-permission-and-diff');
      panel.dispose();
    }
    await click(a, 'button.perm-option', 'Allow once');
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    const done = await dom(a, (s) => /kept two item plans/.test(s.text), 'the final agent message');
    assert.ok(
      done.items.some((i) => i.kind === 'tool_call' && /hello\.ts/.test(i.text)),
      'the edit tool call is shown',
    );
    assert.ok(!/<script>/.test(done.text));
  });

  it("opens a diff from the view in VS Code's diff editor", async () => {
    await click(a, 'button.open-diff');
    const tab = await waitForTab((t) => t.input instanceof vscode.TabInputTextDiff);
    const input = tab.input as vscode.TabInputTextDiff;
    const before = (await vscode.workspace.openTextDocument(input.original)).getText();
    const after = (await vscode.workspace.openTextDocument(input.modified)).getText();
    assert.notStrictEqual(before, after);
    assert.match(after, /farewell/);
    if (hasUiHook()) await screenshot('conversation-diff-editor');
    await vscode.window.tabGroups.close(tab);
  });

  it('shows a v2 display terminal whose chunks split UTF-8 characters, without escape codes', async () => {
    await prompt(ref, '/vterm');
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    const snap = await dom(a, (s) => /finished with exit code 0/.test(s.text) && s.text.includes('✓'), 'the terminal output');
    const term = snap.items.find((i) => i.kind === 'tool_call' && i.text.includes('npm run build'))!;
    assert.ok(term, snap.text);
    assert.ok(term.text.includes('é') && term.text.includes('✓'), term.text);
    assert.ok(!term.text.includes('\uFFFD'), 'no replacement characters');
    assert.ok(!term.text.includes('\u001b') && !/\[3\dm/.test(term.text), 'no escape codes');
  });

  it('permission: allow once, reject and cancel reach the agent as chosen', async () => {
    await prompt(ref, '/permission');
    await a.internals.broker.respond((await nextPermission(a, ref)).id, 'allow_once');
    await turnEnd(a, ref);
    await dom(a, (s) => s.text.includes('permission: selected allow_once'), 'allow once echoed');

    await prompt(ref, '/permission');
    await a.internals.broker.respond((await nextPermission(a, ref)).id, 'reject_once');
    await turnEnd(a, ref);
    await dom(a, (s) => /permission: selected reject_once/.test(s.text), 'reject echoed');

    await prompt(ref, '/permission');
    await nextPermission(a, ref);
    assert.strictEqual(await vscode.commands.executeCommand('acp.cancelTurn', ref), true);
    assert.strictEqual(await turnEnd(a, ref), 'cancelled');
    assert.strictEqual(a.internals.broker.pendingFor(ref.sessionId).length, 0);
  });

  it('permission: "always allow" creates a listed rule that answers the next request, and can be revoked', async () => {
    await prompt(ref, '/command-permission');
    const first = await nextPermission(a, ref);
    assert.strictEqual(first.request.subject?.type, 'command');
    await a.internals.broker.respond(first.id, 'allow_always');
    await turnEnd(a, ref);
    const rule = a.internals.broker.rules.find((r) => r.agentId === 'demo' && r.type === 'commandExact' && r.words.join(' ') === 'npm test');
    assert.ok(rule, JSON.stringify(a.internals.broker.rules));

    let asked = 0;
    const sub = a.internals.store.onDidChange(() => {
      asked += a.internals.broker.pending.length;
    });
    await prompt(ref, '/command-permission');
    await turnEnd(a, ref);
    sub.dispose();
    assert.strictEqual(asked, 0, 'the rule answered without asking');
    await dom(a, (s) => (s.text.match(/permission: selected allow_/g) ?? []).length >= 2, 'the rule-approved run');

    await a.internals.broker.removeRule(rule);
    await prompt(ref, '/command-permission');
    const again = await nextPermission(a, ref);
    await a.internals.broker.respond(again.id, 'reject_once');
    await turnEnd(a, ref);
  });
});

describe('Conversation with the Demo Agent on v1 (client services)', function () {
  this.timeout(60000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;
  before(async () => {
    ({ a, ref, restore } = await startDemo('1'));
    await vscode.commands.executeCommand('acp.conversation.focus');
  });
  after(() => stopDemo(restore));

  it('streams a full v1 turn into the view (rejected edit shown as failed)', async () => {
    await prompt(ref, 'Add a farewell function');
    await dom(a, (s) => s.text.includes('Allow once'), 'the v1 permission prompt');
    await click(a, 'button.perm-option', 'Reject');
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    const snap = await dom(a, (s) => /kept two item plans/.test(s.text), 'the final message');
    assert.match(snap.text, /Add a farewell function/);
    const edit = snap.items.find((i) => i.kind === 'tool_call' && /hello\.ts/.test(i.text) && /failed/i.test(i.text));
    assert.ok(edit, 'the rejected edit is shown as failed');
  });

  it('fs/read_text_file returns the unsaved editor content; fs/write_text_file is undoable', async () => {
    const file = workspaceFile('src/greeting.ts');
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// UNSAVED_MARKER\n'));
    assert.ok(doc.isDirty);
    const out = workspaceFile('src/greeting.ts.out');
    await vscode.workspace.fs.writeFile(out, new TextEncoder().encode('previous content\n'));

    await prompt(ref, '/fs src/greeting.ts');
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    const snap = await dom(a, (s) => s.text.includes('through the client') && s.text.includes('UNSAVED_MARKER'), 'the unsaved content echoed');
    assert.ok(snap.text.includes('UNSAVED_MARKER'));

    const written = await vscode.workspace.openTextDocument(out);
    assert.match(written.getText(), /UNSAVED_MARKER/);
    assert.match(written.getText(), /EXPORT FUNCTION GREET/);
    await vscode.window.showTextDocument(written);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(written.getText(), 'previous content\n', "the agent's write was undone");

    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.workspace.fs.delete(out);
  });

  it("fs/read_text_file and fs/write_text_file see a file another program just changed on disk, not the editor's older copy", async () => {
    const file = workspaceFile('src/greeting.ts');
    const out = workspaceFile('src/greeting.ts.out');
    fs.writeFileSync(out.fsPath, 'previous content\n');
    // Open and saved: the editor's copies of both files.
    for (const uri of [file, out]) assert.ok(!(await vscode.workspace.openTextDocument(uri)).isDirty);
    const original = fs.readFileSync(file.fsPath, 'utf8');
    try {
      // As git or another agent would, behind the editor's back.
      fs.writeFileSync(file.fsPath, `${original}// DISK_MARKER\n`);
      fs.writeFileSync(out.fsPath, 'changed on disk\n');
      await prompt(ref, '/fs src/greeting.ts');
      assert.strictEqual(await turnEnd(a, ref), 'end_turn');
      const written = fs.readFileSync(out.fsPath, 'utf8');
      assert.match(written, /DISK_MARKER/i, 'the agent read the file as it is on disk, and its write reached the disk');
    } finally {
      fs.writeFileSync(file.fsPath, original);
      fs.rmSync(out.fsPath, { force: true });
    }
  });

  it('refuses fs access outside the workspace folders', async () => {
    await prompt(ref, '/fs ../../etc/hostname');
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    await dom(a, (s) => /outside|refused/i.test(s.text.split('/fs ../../etc/hostname').pop() ?? ''), 'the refusal');
  });

  it('terminal/create runs a real process: output and exit code reach the agent and the view', async () => {
    await prompt(ref, '/terminal echo acp-terminal-ok; echo second-line');
    // Nothing runs before the user allows exactly this command.
    const ask = await nextPermission(a, ref);
    assert.match(ask.request.title, /Run a command in a terminal: .*acp-terminal-ok/);
    await a.internals.broker.respond(ask.id, 'allow');
    assert.strictEqual(await turnEnd(a, ref), 'end_turn');
    const snap = await dom(a, (s) => /exit code: 0/.test(s.text) && s.text.includes('second-line'), 'the terminal result');
    const term = snap.items.find((i) => i.kind === 'tool_call' && i.text.includes('acp-terminal-ok'));
    assert.ok(term, snap.text.slice(-2000));
  });
});

describe('Crash and recovery', function () {
  this.timeout(60000);
  it('reports a crash mid-turn, restarts the agent, resumes the session, keeps its plans and transcript, and sends the prompt queued before the crash', async () => {
    const { a, ref, restore } = await startDemo('2');
    try {
      const sup = a.internals.agents.get('demo')!;
      await prompt(ref, 'Add a farewell function');
      await a.internals.broker.respond((await nextPermission(a, ref)).id, 'allow_once');
      assert.strictEqual(await turnEnd(a, ref), 'end_turn');

      await prompt(ref, '/crash');
      // Typed while the turn runs: queued, kept through the crash, sent once the session is back.
      await prompt(ref, '/permission');
      assert.strictEqual(a.internals.store.session(ref.agentId, ref.sessionId)?.queued.length, 1, 'the second prompt is queued');
      await waitFor(a.internals.store.onDidChange, () => sup.status === 'restarting' || sup.status === 'crashed', 15000, 'the crash');
      assert.match(sup.lastError ?? '', /exited with code 3 during a turn/);
      assert.match(sup.lastError ?? '', /Last output:/);
      await waitFor(
        a.internals.store.onDidChange,
        () => sup.status === 'running' && a.internals.store.session(ref.agentId, ref.sessionId)?.live === true,
        20000,
        'the restart and resume',
      );

      const plans = a.plans({ agentId: ref.agentId, sessionId: ref.sessionId }).map((p) => p.planId);
      for (const id of ['impl', 'tests', 'crash']) assert.ok(plans.includes(id), `plan ${id} kept: ${plans.join(', ')}`);
      const t = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId))!;
      assert.ok(
        t.slice(t.firstIndex).some((i) => i.kind === 'notice' && /resumed/i.test(JSON.stringify(i))),
        'a notice says the session was resumed',
      );
      assert.strictEqual(a.agents().find((x) => x.id === 'demo')?.status, 'running');

      // The resumed session works: the prompt queued before the crash is sent, unasked.
      await a.internals.broker.respond((await nextPermission(a, ref)).id, 'allow_once');
      assert.strictEqual(await turnEnd(a, ref), 'end_turn');
      await vscode.commands.executeCommand('acp.conversation.focus');
      const snap = await dom(a, (s) => s.text.includes('permission: selected allow_once'), 'the turn after the restart');
      assert.ok(snap.text.includes('Add a farewell function'), 'the transcript from before the crash is still shown');
    } finally {
      await stopDemo(restore);
    }
  });
});

describe('Sessions across agent restarts', function () {
  this.timeout(60000);
  it("lists the agent's sessions and resumes one after the agent was stopped, without duplicating its transcript", async () => {
    const { a, ref, restore } = await startDemo('2');
    try {
      await prompt(ref, '/permission');
      await a.internals.broker.respond((await nextPermission(a, ref)).id, 'allow_once');
      await turnEnd(a, ref);
      await vscode.commands.executeCommand('acp.stopAgent', 'demo');
      assert.strictEqual(a.internals.agents.get('demo')!.status, 'stopped');

      const fresh = await vscode.commands.executeCommand<SessionRef>('acp.startAgent', 'demo');
      assert.notStrictEqual(fresh?.sessionId, ref.sessionId);
      const listed = await a.internals.agents.get('demo')!.connection!.listSessions({ cwd: vscode.workspace.workspaceFolders![0]!.uri.fsPath });
      assert.ok(
        listed.sessions.some((s) => s.sessionId === ref.sessionId),
        'the stopped session is listed by the restarted agent',
      );

      const resumed = await vscode.commands.executeCommand<SessionRef>('acp.resumeSession', 'demo', ref.sessionId);
      assert.deepStrictEqual(resumed, ref);
      assert.strictEqual(a.internals.store.session(ref.agentId, ref.sessionId)?.live, true);
      const t = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId))!;
      const userTexts = () => t.slice(t.firstIndex).filter((i) => i.kind === 'message' && i.role === 'user').length;
      assert.strictEqual(userTexts(), 1, 'the replay did not duplicate the transcript');

      await prompt(ref, '/permission');
      await a.internals.broker.respond((await nextPermission(a, ref)).id, 'reject_once');
      assert.strictEqual(await turnEnd(a, ref), 'end_turn');
      assert.strictEqual(userTexts(), 2);
    } finally {
      await stopDemo(restore);
    }
  });
});

describe('Agent settings', function () {
  it('explains invalid acp.agents entries', async () => {
    const c = vscode.workspace.getConfiguration('acp');
    const before = c.inspect('agents')?.globalValue;
    const a = await (await import('./support/ext')).api();
    const changed = new Promise<void>((r) => {
      const d = a.internals.agents.onDidChangeDefinitions(() => {
        d.dispose();
        r();
      });
    });
    await c.update('agents', [{ name: 'Broken' }, { name: 'Fine', command: path.join('/usr', 'bin', 'true') }], vscode.ConfigurationTarget.Global);
    await changed;
    try {
      assert.ok(
        a.internals.agents.configProblems.some((p) => /"Broken".*command/.test(p)),
        a.internals.agents.configProblems.join('\n'),
      );
      assert.ok(a.internals.agents.get('agent:Fine'));
    } finally {
      await c.update('agents', before, vscode.ConfigurationTarget.Global);
    }
  });
});
