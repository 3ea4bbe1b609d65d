// Keybindings: none of the extension's chords starts like one of VS Code's default keybindings (read
// from the running VS Code's own default keybindings file), each carries the when clause that
// keeps it where it makes sense, and pressing Send Prompt's chord in the workbench, typing and
// pressing Enter sends a prompt to the Demo Agent.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { sessionKey } from '../../src/state/sessionStore';
import { messageText } from '../../src/state/transcript';
import { startDemo, turnEnd, type SessionRef } from './support/demo';
import type { TestApi as AcpPlansApi } from './support/ext';
import { waitFor } from './support/ext';
import { screenshot, uiPress, uiType, waitForUi } from './ui';

interface Binding {
  key: string;
  command: string;
  when?: string;
}

/** VS Code's default keybindings for this platform, extensions' contributions included. */
async function defaults(): Promise<Binding[]> {
  await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
  const end = Date.now() + 10_000;
  let text = '';
  while (Date.now() < end && !text.includes('"command"')) {
    text = vscode.window.activeTextEditor?.document.getText() ?? '';
    await new Promise((r) => setTimeout(r, 200));
  }
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  // One binding per object; comments (//) and the unbound list at the end are left out.
  return [...text.replace(/^\s*\/\/.*$/gm, '').matchAll(/\{[^{}]*\}/g)].flatMap((m) => {
    try {
      const b = JSON.parse(m[0]) as Partial<Binding>;
      return b.key && b.command ? [b as Binding] : [];
    } catch {
      return [];
    }
  });
}

describe('Citizen: keybindings', function () {
  this.timeout(120_000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;

  before(async () => ({ a, ref, restore } = await startDemo('2')));
  after(async () => restore());

  it('no chord of ours starts like a default keybinding; each has its when clause', async () => {
    const all = await defaults();
    assert.ok(all.length > 300, `the default keybindings were read (${all.length})`);
    const ours = all.filter((b) => b.command.startsWith('acp.'));
    assert.deepStrictEqual(
      ours.map((b) => [b.command, b.key, b.when ?? '']).sort(),
      [
        ['acp.cancelTurn', "ctrl+' escape", 'acp.turnRunning'],
        ['acp.focusPlans', "ctrl+' f", ''],
        ['acp.revealCurrentStep', "ctrl+' s", 'acp.hasSession'],
        ['acp.sendPrompt', "ctrl+' p", 'acp.hasSession'],
      ].sort(),
    );
    const firstParts = new Set(ours.map((b) => b.key.split(' ')[0]));
    const clash = all.filter((b) => !b.command.startsWith('acp.') && firstParts.has(b.key.split(' ')[0]!));
    assert.deepStrictEqual(clash, [], 'a default keybinding uses the same first key');
  });

  it("ctrl+' p asks for a prompt and sends it", async () => {
    await vscode.commands.executeCommand('acp.focusPlans');
    await waitForUi('.monaco-workbench .part.sidebar .monaco-list:focus-within', (t) => t.length > 0);
    await uiPress('Control+Quote p');
    await waitForUi('.quick-input-widget .quick-input-message:visible', (t) => t.some((x) => x.includes('Prompt for the agent')));
    await screenshot('citizen-keybinding-prompt');
    await uiType('/burst 2');
    await uiPress('Enter');
    const key = sessionKey(ref.agentId, ref.sessionId);
    await waitFor(
      a.internals.transcript.onDidChange,
      () => {
        const s = a.internals.transcript.session(key);
        return !!s?.slice(s.firstIndex).some((i) => i.kind === 'message' && i.role === 'user' && messageText(i).includes('/burst 2'));
      },
      15_000,
      'the prompt in the conversation',
    );
    await turnEnd(a, ref);
  });
});
