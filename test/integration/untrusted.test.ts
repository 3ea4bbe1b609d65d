// Restricted mode: run by `npm run test:untrusted` (workspace trust on, folder not trusted).
// In the normal (trusted) run these tests skip themselves.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api } from './support/ext';
import { hasUiHook, screenshot, waitForUi } from './ui';

describe('untrusted workspace', function () {
  before(function () {
    if (vscode.workspace.isTrusted) this.skip();
  });

  it('starts no agent and says why', async () => {
    const a = await api();
    const demo = a.internals.agents.get('demo')!;
    const result = await vscode.commands.executeCommand('acp.startAgent', 'demo');
    assert.strictEqual(result, undefined, 'no session was opened');
    assert.strictEqual(demo.status, 'stopped');
    assert.strictEqual(demo.connection, undefined);
    assert.deepStrictEqual(a.sessions(), []);
    await assert.rejects(() => a.internals.agents.start('demo'), /untrusted workspace: an agent is a program that runs code/);
    if (hasUiHook()) {
      await vscode.commands.executeCommand('workbench.view.extension.acp');
      const welcome = await waitForUi('.part.sidebar .welcome-view-content', (t) => t.some((x) => /not trusted/.test(x)));
      assert.ok(
        welcome.some((x) => /Manage Workspace Trust/.test(x)),
        JSON.stringify(welcome),
      );
      await screenshot('untrusted-workspace');
    }
    // No other path spawns either: restart, or the supervisor itself.
    assert.strictEqual(await vscode.commands.executeCommand('acp.restartAgent', 'demo'), undefined);
    await assert.rejects(() => demo.start(), /untrusted workspace/);
    assert.strictEqual(demo.status, 'stopped');
    assert.strictEqual(demo.connection, undefined);
    assert.deepStrictEqual(a.agents(), [], 'the agent never appeared as starting or running');
  });
});
