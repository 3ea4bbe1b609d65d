import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, EXT_ID } from './support/ext';
import { hasUiHook, screenshot, waitForUi } from './ui';

interface Manifest {
  contributes: { commands: { command: string }[] };
}

describe('Foundation (real extension host)', () => {
  it('runs inside a real VS Code extension host', () => {
    console.log(
      `      VS Code ${vscode.version}, appHost=${vscode.env.appHost}, uiKind=${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'}, node ${process.version}`,
    );
    assert.match(vscode.version, /^1\.\d+\.\d+/);
    assert.ok(vscode.extensions.getExtension(EXT_ID), 'extension under development is loaded');
  });

  it('activates and returns the versioned API', async () => {
    const a = await api();
    assert.strictEqual(a.apiVersion, 2);
    // For `npm run bench` (section 4): the time activate() took in this real host.
    console.log(`      activate() took ${a.internals.activationMs.toFixed(1)} ms`);
    const ext = vscode.extensions.getExtension(EXT_ID)!;
    const dir = path.join(ext.extensionPath, 'bench', 'out');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'activation.json'),
      JSON.stringify({ activationMs: a.internals.activationMs, vscode: vscode.version, at: new Date().toISOString() }),
    );
  });

  it('registers every contributed command', async () => {
    await api();
    const ext = vscode.extensions.getExtension(EXT_ID)!;
    const manifest = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8')) as Manifest;
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepStrictEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('shows the ACP view container with the Plans view, and a contributed command runs', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    if (hasUiHook()) {
      // The activity bar entry and the sidebar title are really rendered in the workbench.
      const titles = await waitForUi('.part.sidebar .composite.title h2', (t) => t.some((x) => /ACP/i.test(x)));
      assert.ok(
        titles.some((t) => /ACP/i.test(t)),
        `sidebar title: ${JSON.stringify(titles)}`,
      );
      const panes = await waitForUi('.part.sidebar .pane-header h3.title', (t) => t.some((x) => /Plans/i.test(x)));
      assert.ok(panes.some((t) => /Plans/i.test(t)));
      await screenshot('foundation-acp-container');
    }
    // A contributed command runs: Show Protocol Log reveals the "ACP" log channel.
    await vscode.commands.executeCommand('acp.showLog');
    if (hasUiHook()) {
      const out = await waitForUi('.part.panel .composite.title, .part.panel .monaco-select-box, .part.panel .action-label', (t) =>
        t.some((x) => /\bACP\b/.test(x)),
      );
      assert.ok(out.some((x) => /\bACP\b/.test(x)));
    }
  });
});
