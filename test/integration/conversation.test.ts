// The conversation webview in a real VS Code: a transcript fed with events directly, read back
// from the webview's DOM through the snapshot round trip; a permission click only reports the
// choice (the prompt turns answered when the decision is applied to the transcript).
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { PermissionRequest, SessionEvent } from '../../src/protocol/domain';
import { Transcript } from '../../src/state/transcript';
import { Conversation, type ConversationHost, type DomSnapshot } from '../../src/ui/conversation';
import { hasUiHook, screenshot } from './ui';
import { SessionStore } from '../../src/state/sessionStore';

const S = 'conv-it-session';

async function waitForDom(host: ConversationHost, pred: (s: DomSnapshot) => boolean, what: string, timeoutMs = 15_000): Promise<DomSnapshot> {
  const end = Date.now() + timeoutMs;
  let last: DomSnapshot | undefined;
  while (Date.now() < end) {
    last = await host.requestDomSnapshot();
    if (pred(last)) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`webview never showed ${what}; it showed:\n${last?.text}`);
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

const events: SessionEvent[] = [
  { sessionId: S, kind: 'session_info', title: 'Integration conversation' },
  { sessionId: S, kind: 'message_chunk', role: 'user', messageId: 'u1', content: { type: 'text', text: 'Please fix the typo' } },
  { sessionId: S, kind: 'state', state: 'running' },
  { sessionId: S, kind: 'message_chunk', role: 'thought', messageId: 'th1', content: { type: 'text', text: 'Looking at the file' } },
  { sessionId: S, kind: 'message_chunk', role: 'agent', messageId: 'a1', content: { type: 'text', text: 'I will **fix** it ' } },
  {
    sessionId: S,
    kind: 'message_chunk',
    role: 'agent',
    messageId: 'a1',
    content: { type: 'text', text: 'now. <script>bad()</script> [run](command:workbench.action.quit)' },
  },
  {
    sessionId: S,
    kind: 'tool_call',
    toolCallId: 'edit1',
    fields: {
      title: 'Edit greeting.txt',
      kind: 'edit',
      status: 'completed',
      locations: [{ path: '/tmp/greeting.txt', line: 2 }],
      content: [
        {
          type: 'diff',
          changes: [{ operation: 'modify', path: '/tmp/greeting.txt' }],
          texts: [{ path: '/tmp/greeting.txt', oldText: 'hello\nwrold\n', newText: 'hello\nworld\n' }],
        },
      ],
    },
  },
  { sessionId: S, kind: 'terminal_update', terminalId: 'term1', command: 'npm test', output: b64('\x1b[32m3 passing\x1b[0m\n') },
  {
    sessionId: S,
    kind: 'tool_call',
    toolCallId: 'run1',
    fields: { title: 'Run tests', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term1' }] },
  },
];

const permissionRequest = (title: string): PermissionRequest => ({
  sessionId: S,
  title,
  subject: { type: 'command', command: 'rm -rf build', cwd: '/tmp' },
  options: [
    { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ],
});

describe('Conversation view (webview)', function () {
  this.timeout(90_000);
  let transcript: Transcript;
  let conversation: Conversation;
  let host: ConversationHost;

  before(async () => {
    const ext = vscode.extensions.getExtension('acp-plans.acp-plans');
    assert.ok(ext, 'the extension under test is installed');
    transcript = new Transcript();
    // Turn state, title and config options come from the SessionStore, as in the extension.
    const store = new SessionStore();
    const sessionFacts = {
      get: (id: string) => store.session('agent', id),
      onDidChange: (l: (id: string) => void) =>
        store.onDidChange((c) => {
          if (c.scope === 'session') l(c.sessionId);
        }),
    };
    conversation = new Conversation({ extensionUri: ext.extensionUri, transcript, sessionFacts });
    conversation.setActiveSession(S);
    for (const e of events) {
      store.applyEvent('agent', e);
      transcript.apply(e);
    }
    host = conversation.openPanel(vscode.ViewColumn.One);
    await host.whenReady();
  });

  after(() => {
    conversation?.dispose();
    transcript?.dispose();
  });

  /** The next choice the conversation reports for `requestId`. */
  const nextChoice = (requestId: string): Promise<{ sessionId: string; requestId: string; optionId: string; option: number }> =>
    new Promise((resolve) => {
      const sub = conversation.onDidSelectPermissionOption((p) => {
        if (p.requestId !== requestId) return;
        sub.dispose();
        resolve(p);
      });
    });
  const permissionState = (requestId: string): string | undefined => {
    const item = transcript.session(S)?.item(`p:${requestId}`);
    return item?.kind === 'permission' ? item.state : undefined;
  };

  it('shows the messages, a tool call with its diff and terminal, and a permission prompt', async () => {
    transcript.addPermissionRequest(permissionRequest('Delete the build folder?'), { requestId: 'perm-1', flags: ['not_in_plan'] });
    const answer = nextChoice('perm-1');
    const snap = await waitForDom(host, (s) => s.text.includes('Delete the build folder?'), 'the permission prompt');
    assert.equal(snap.sessionId, S);
    assert.ok(snap.text.includes('Integration conversation'), 'session title');
    assert.ok(snap.text.includes('Please fix the typo'), 'user message');
    assert.ok(snap.text.includes('I will fix it now.'), 'agent message, Markdown rendered');
    assert.ok(snap.text.includes('<script>bad()</script>'), 'raw HTML shown as text');
    assert.ok(snap.text.includes('[run](command:workbench.action.quit)'), 'command: link left as text');
    const thought = snap.items.find((i) => i.itemId === 'm:thought:th1');
    assert.ok(thought?.text.includes('Looking at the file'), 'thought (collapsed) is in the DOM');
    assert.ok(snap.text.includes('Edit greeting.txt') && snap.text.includes('greeting.txt:2'), 'tool call with location');
    assert.ok(snap.text.includes('Open Diff') && snap.text.includes('-wrold') && snap.text.includes('+world'), 'compact diff');
    assert.ok(snap.text.includes('$ npm test') && snap.text.includes('3 passing') && !snap.text.includes('[32m'), 'terminal, ANSI stripped');
    assert.ok(snap.text.includes('Not in plan'), 'not_in_plan flag');
    assert.ok(snap.text.includes('$ rm -rf build'), 'command subject');
    assert.ok(snap.text.includes('Allow once') && snap.text.includes('Reject'), 'options verbatim');
    assert.ok(snap.busy, 'a turn is running');
    if (hasUiHook()) await screenshot('conversation-panel');

    // A real click in the webview's DOM on the option button.
    const clicked = await host.requestDomSnapshot({ selector: 'button.perm-option', text: 'Allow once' });
    assert.equal(clicked.clicked, true);
    assert.deepEqual(await answer, { sessionId: S, requestId: 'perm-1', optionId: 'allow', option: 0 });
    assert.equal(permissionState('perm-1'), 'pending', 'the view only reports the choice; the decision resolves the prompt');
    // What the extension does with the broker's decision, once.
    assert.equal(transcript.resolvePermission(S, 'perm-1', { outcome: 'selected', optionId: 'allow' }), true);
    await waitForDom(host, (s) => s.text.includes('Answered: Allow once'), 'the answered prompt');
  });

  it('reports a choice posted as the webview would, refusing options not offered', async () => {
    transcript.addPermissionRequest(permissionRequest('Second request'), { requestId: 'perm-2' });
    const reported: string[] = [];
    const sub = conversation.onDidSelectPermissionOption((p) => reported.push(p.optionId));
    await waitForDom(host, (s) => s.text.includes('Second request'), 'the second prompt');
    host.receive({ type: 'permission', sessionId: S, requestId: 'perm-2', optionId: 'not-an-option', option: 0 });
    host.receive({ type: 'permission', sessionId: S, requestId: 'perm-2', optionId: 'reject', option: 0 });
    assert.deepEqual(reported, [], 'an option the agent did not offer (there) is not reported');
    host.receive({ type: 'permission', sessionId: S, requestId: 'perm-2', optionId: 'reject', option: 1 });
    assert.deepEqual(reported, ['reject']);
    assert.equal(permissionState('perm-2'), 'pending', 'not resolved by the view');
    transcript.resolvePermission(S, 'perm-2', { outcome: 'cancelled' });
    host.receive({ type: 'permission', sessionId: S, requestId: 'perm-2', optionId: 'reject', option: 1 });
    assert.deepEqual(reported, ['reject'], 'a request no longer pending is not reported');
    sub.dispose();
  });

  it('streams further chunks as deltas, not snapshots', async () => {
    const snapshots = host.stats.snapshotsPosted;
    const deltas = host.stats.deltasPosted;
    for (let i = 0; i < 200; i++) {
      transcript.apply({ sessionId: S, kind: 'message_chunk', role: 'agent', messageId: 'a2', content: { type: 'text', text: `w${i} ` } });
    }
    transcript.apply({ sessionId: S, kind: 'terminal_output_chunk', terminalId: 'term1', data: b64('4 passing\n') });
    const snap = await waitForDom(host, (s) => s.text.includes('w199') && s.text.includes('4 passing'), 'the streamed text');
    assert.equal(host.stats.snapshotsPosted, snapshots, 'no snapshot for streamed chunks');
    assert.ok(host.stats.deltasPosted - deltas < 50, `200 chunks coalesced into ${host.stats.deltasPosted - deltas} deltas`);
    assert.ok(snap.counters.deltasApplied > 0);
  });

  it('follows new text while the view is at the bottom, and stays where the user scrolled up', async () => {
    const chunk = (i: number): void =>
      transcript.apply({ sessionId: S, kind: 'message_chunk', role: 'agent', messageId: 'a3', content: { type: 'text', text: `line ${i}\n\n` } });
    const atBottom = (s: DomSnapshot): boolean => s.scroll.max > 0 && s.scroll.top >= s.scroll.max - 1;
    for (let i = 0; i < 80; i++) chunk(i);
    await waitForDom(host, (s) => s.text.includes('line 79') && atBottom(s), 'the view at the bottom of the streamed text');

    // The user scrolls to the top: new text no longer moves the view.
    assert.equal((await host.requestDomSnapshot({ scrollTop: 0 })).scroll.top, 0);
    for (let i = 80; i < 120; i++) chunk(i);
    await waitForDom(host, (s) => s.text.includes('line 119'), 'the text streamed while scrolled up');
    // A follow would have happened at the frame after the delta, before this second round trip.
    const after = await host.requestDomSnapshot();
    assert.equal(after.scroll.top, 0, `the view stayed where the user scrolled (max ${after.scroll.max})`);

    // Back at the bottom, it follows again.
    await host.requestDomSnapshot({ scrollTop: 1e9 });
    for (let i = 120; i < 160; i++) chunk(i);
    await waitForDom(host, (s) => s.text.includes('line 159') && atBottom(s), 'the view following again');
  });

  it('opens the diff editor for a v1 diff', async () => {
    host.receive({ type: 'openDiff', sessionId: S, itemId: 't:edit1', index: 0, file: 0 });
    const end = Date.now() + 10_000;
    let diffTab: vscode.Tab | undefined;
    while (!diffTab && Date.now() < end) {
      diffTab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.label.includes('greeting.txt'));
      if (!diffTab) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(diffTab, 'a diff editor opened');
    const input = diffTab.input as vscode.TabInputTextDiff;
    const left = await vscode.workspace.openTextDocument(input.original);
    const right = await vscode.workspace.openTextDocument(input.modified);
    assert.equal(left.getText(), 'hello\nwrold\n');
    assert.equal(right.getText(), 'hello\nworld\n');
    await vscode.window.tabGroups.close(diffTab);
  });

  it('opens the diff editor for a v2 git patch, rebuilt against the file on disk', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    const file = vscode.Uri.joinPath(folder.uri, 'conv-patch.txt');
    await vscode.workspace.fs.writeFile(file, Buffer.from('one\nTWO\nthree\n')); // the patch is already applied
    transcript.apply({
      sessionId: S,
      kind: 'tool_call',
      toolCallId: 'edit2',
      fields: {
        title: 'Edit conv-patch.txt',
        kind: 'edit',
        status: 'completed',
        content: [
          {
            type: 'diff',
            changes: [{ operation: 'modify', path: file.fsPath }],
            patch: {
              format: 'git_patch',
              text: 'diff --git a/conv-patch.txt b/conv-patch.txt\n--- a/conv-patch.txt\n+++ b/conv-patch.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
            },
          },
        ],
      },
    });
    await waitForDom(host, (s) => s.text.includes('Edit conv-patch.txt'), 'the v2 edit');
    host.receive({ type: 'openDiff', sessionId: S, itemId: 't:edit2', index: 0, file: 0 });
    const end = Date.now() + 10_000;
    let diffTab: vscode.Tab | undefined;
    while (!diffTab && Date.now() < end) {
      diffTab = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputTextDiff && t.label.includes('conv-patch.txt'));
      if (!diffTab) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(diffTab, 'a diff editor opened');
    const input = diffTab.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), 'one\ntwo\nthree\n');
    assert.equal(input.modified.toString(), file.toString(), 'the right side is the file itself');
    await vscode.window.tabGroups.close(diffTab);
  });

  it('fires onDidSubmitPrompt with the typed text', async () => {
    const got = new Promise((resolve) => {
      const d = conversation.onDidSubmitPrompt((p) => {
        d.dispose();
        resolve(p);
      });
    });
    host.receive({ type: 'submit', sessionId: S, text: 'next step', attachments: [] });
    assert.deepEqual(await got, { sessionId: S, text: 'next step', attachments: [], blocks: [{ type: 'text', text: 'next step' }], steer: false });
  });
});

describe('Conversation view (window of items)', function () {
  this.timeout(90_000);

  /** A conversation panel of `windowSize` items on a session of `count` one-chunk messages ("message number <i>"). */
  function windowed(sessionId: string, count: number, windowSize: number) {
    const ext = vscode.extensions.getExtension('acp-plans.acp-plans');
    assert.ok(ext);
    const transcript = new Transcript();
    const conversation = new Conversation({ extensionUri: ext.extensionUri, transcript, windowSize });
    const add = (from: number, to: number): void => {
      for (let i = from; i < to; i++)
        transcript.apply({ sessionId, kind: 'message_chunk', role: 'agent', messageId: `m${i}`, content: { type: 'text', text: `message number ${i}` } });
    };
    add(0, count);
    conversation.setActiveSession(sessionId);
    const host = conversation.openPanel(vscode.ViewColumn.One);
    const dispose = (): void => {
      conversation.dispose();
      transcript.dispose();
    };
    return { host, add, dispose };
  }

  it('keeps only the last window of items in the DOM and shows earlier ones on request', async () => {
    const { host, add, dispose } = windowed('window-session', 50, 20);
    try {
      await host.whenReady();
      let snap = await waitForDom(host, (s) => s.text.includes('message number 49'), 'the last message');
      assert.equal(snap.counters.domItems, 20);
      assert.ok(!snap.text.includes('message number 29'), 'older items are not in the DOM');
      assert.ok(snap.text.includes('Show earlier (30 more)'), snap.text);

      // New items push the oldest out of the DOM.
      add(50, 55);
      snap = await waitForDom(host, (s) => s.text.includes('message number 54'), 'the new messages');
      assert.equal(snap.counters.domItems, 20);
      assert.equal(snap.items[0].index, 35);

      const clicked = await host.requestDomSnapshot({ selector: 'button.show-earlier' });
      assert.equal(clicked.clicked, true);
      snap = await waitForDom(host, (s) => s.text.includes('message number 0'), 'the earlier messages');
      assert.equal(snap.counters.domItems, 55);
      assert.ok(!snap.text.includes('Show earlier'), 'nothing left to load');
    } finally {
      dispose();
    }
  });

  it('shows a long session newest first, then the rest of its window above, in order', async () => {
    // A window larger than the snapshot's first part (FIRST_PAINT_ITEMS, 100): the other 50 come as an earlier page.
    const { host, dispose } = windowed('long-window-session', 300, 150);
    try {
      await host.whenReady();
      const snap = await waitForDom(host, (s) => s.counters.domItems === 150 && s.text.includes('message number 299'), 'the whole window');
      assert.deepEqual(
        snap.items.map((i) => i.index),
        Array.from({ length: 150 }, (_, i) => 150 + i),
        'the window, oldest to newest, no item twice',
      );
      assert.ok(snap.text.includes('Show earlier (150 more)'), snap.text.slice(0, 200));
    } finally {
      dispose();
    }
  });
});
