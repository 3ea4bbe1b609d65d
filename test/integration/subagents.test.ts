// Subagents and background work through the whole extension, against the real Demo Agent (v2):
// child sessions nested under their parent in the Plans tree with their own plans, the
// inter-session message in both children's transcripts (webview DOM), a background child
// cancelled from its row (session/cancel), and a background terminal and tool call listed under
// the session, counted in the status bar and cancelled (terminal/cancel, tool_call/cancel).
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestApi as AcpPlansApi } from './support/ext';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { sessionKey } from '../../src/state/sessionStore';
import { childIds, SESSION_MESSAGE_TEXT, SUBAGENT_TITLES } from '../../src/demo/scenarios/subagents';
import { DEV_SERVER_COMMAND, WATCHER_TITLE } from '../../src/demo/scenarios/background';
import { prompt, session, startDemo, turnEnd, type SessionRef } from './support/demo';
import { hasUiHook, screenshot, waitForUi, waitForWebview } from './ui';
import { waitFor } from './support/ext';

const ROWS = '.part.sidebar .pane-body .monaco-list-row';

interface Row {
  node: PlanTreeNode;
  label: string;
  description: string;
  context: string;
}

async function rows(a: AcpPlansApi, node?: PlanTreeNode): Promise<Row[]> {
  const tree = a.internals.plansUi.tree;
  const out: Row[] = [];
  for (const c of (await tree.getChildren(node)) ?? []) {
    const item = await tree.getTreeItem(c);
    out.push({
      node: c,
      label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''),
      description: String(item.description ?? ''),
      context: item.contextValue ?? '',
    });
  }
  return out;
}

async function row(a: AcpPlansApi, parent: PlanTreeNode | undefined, label: string | RegExp): Promise<Row> {
  const all = await rows(a, parent);
  const r = all.find((x) => (typeof label === 'string' ? x.label === label : label.test(x.label)));
  if (!r) throw new Error(`no row ${String(label)} under ${parent?.id ?? 'the root'}: ${JSON.stringify(all.map((x) => x.label))}`);
  return r;
}

async function statusText(a: AcpPlansApi): Promise<string> {
  await a.internals.plansUi.statusBar.whenIdle();
  return a.internals.plansUi.statusBar.view.text;
}

function until(a: AcpPlansApi, check: () => boolean, what: string): Promise<void> {
  return waitFor(a.internals.store.onDidChange, check, 20000, what);
}

describe('Subagents and background work (Demo Agent, v2)', function () {
  this.timeout(120000);
  let a: AcpPlansApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;

  before(async () => {
    ({ a, ref, restore } = await startDemo('2'));
    await vscode.commands.executeCommand('workbench.view.extension.acp');
  });
  after(async () => {
    await vscode.commands.executeCommand('acp.stopAgent', 'demo');
    await restore();
    // The conversation panel opened here goes, so later tests see only the side bar's conversation.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('nests both children with their own plans under the parent; the message shows in both transcripts; the background child is cancelled from its row', async () => {
    const [research, watcher] = childIds(ref.sessionId);
    await prompt(ref, '/subagents');
    await turnEnd(a, ref);
    await until(
      a,
      () => session(a, ref)?.background?.length === 1 && a.internals.plans.plans('demo', watcher).length === 1,
      'the background child and its plan',
    );
    await a.internals.plansUi.tree.whenIdle();

    // The tree: one top-level session; its plan, then its two children, each with its own plan.
    const agentRow = await row(a, undefined, 'Demo Agent');
    const top = await rows(a, agentRow.node);
    assert.deepStrictEqual(
      top.map((r) => r.node.id),
      [`demo/${encodeURIComponent(ref.sessionId)}`],
      'children are not listed at the top level',
    );
    const parent = top[0]!;
    assert.deepStrictEqual(
      (await rows(a, parent.node)).map((r) => r.label),
      ['coordination', ...SUBAGENT_TITLES],
    );
    const researcher = await row(a, parent.node, SUBAGENT_TITLES[0]);
    const watcherRow = await row(a, parent.node, SUBAGENT_TITLES[1]);
    assert.match(researcher.description, /^subagent · idle \(end_turn\)/);
    assert.match(researcher.context, /:subagent$/, 'no cancel offered: no cancel action');
    assert.match(watcherRow.description, /^background subagent · running/);
    assert.match(watcherRow.context, /:subagent:background:cancellable$/);
    assert.deepStrictEqual(
      (await rows(a, researcher.node)).map((r) => [r.label, r.context]),
      [['research', 'plan:items:done']],
    );
    assert.deepStrictEqual(
      (await rows(a, watcherRow.node)).map((r) => r.label),
      ['watch'],
    );
    assert.strictEqual(a.internals.plansUi.tree.getParent(watcherRow.node)?.id, parent.node.id, 'getParent leads back to the parent session');
    a.internals.store.setActiveSession(ref);
    assert.match(await statusText(a), /\$\(sync\) 1 background$/);

    // The inter-session message, in the sender's and in the recipient's transcript.
    for (const id of [research, watcher]) {
      const item = a.internals.transcript.session(sessionKey('demo', id))?.item('m:session:' + (id === research ? 'smsg_out_1' : 'smsg_in_1'));
      assert.ok(item?.kind === 'message' && item.route?.from === research && item.route.to === watcher, `the message with its route in ${id}`);
    }
    if (hasUiHook()) {
      const host = a.internals.conversation.openPanel(vscode.ViewColumn.Two);
      await host.whenReady();
      for (const id of [watcher, research]) {
        a.internals.store.setActiveSession({ agentId: 'demo', sessionId: id });
        const texts = await waitForWebview('.message.role-session', (t) => t.some((x) => x.includes(SESSION_MESSAGE_TEXT)));
        const shown = texts.find((x) => x.includes(SESSION_MESSAGE_TEXT))!;
        assert.ok(shown.includes(`Message from ${SUBAGENT_TITLES[0]} to ${SUBAGENT_TITLES[1]}`), `sender and recipient shown by their titles: ${shown}`);
      }
      await vscode.commands.executeCommand('workbench.view.extension.acp');
      await a.internals.plansUi.treeView.reveal(watcherRow.node, { expand: true, select: true });
      // The list draws only the rows in view: bring the parent's row to the top so its plan and both children show.
      await a.internals.plansUi.treeView.reveal(parent.node, { select: false, focus: false });
      await waitForUi(
        ROWS,
        (t) =>
          ['coordination', ...SUBAGENT_TITLES, 'research', 'watch'].every((l) => t.some((x) => x.includes(l))) &&
          t.some((x) => x.includes('background subagent')),
      );
      await screenshot('subagents-nested-children');
    }

    // Cancel is refused where the agent does not offer it, and sent where it does.
    assert.strictEqual(await vscode.commands.executeCommand('acp.cancelSubagent', researcher.node), false);
    assert.strictEqual(await vscode.commands.executeCommand('acp.cancelSubagent', watcherRow.node), true);
    await until(
      a,
      () => a.internals.store.session('demo', watcher)?.stopReason === 'cancelled' && session(a, ref)?.background?.length === 0,
      'the child cancelled and the background emptied',
    );
    await a.internals.plansUi.tree.whenIdle();
    assert.match((await row(a, parent.node, SUBAGENT_TITLES[1])).description, /^subagent · idle \(cancelled\)/);
    assert.doesNotMatch(await statusText(a), /background/);
  });

  it('lists a background terminal and tool call under the session and cancels each (terminal/cancel, tool_call/cancel)', async () => {
    await prompt(ref, '/background');
    await turnEnd(a, ref);
    await until(a, () => session(a, ref)?.background?.length === 2 && session(a, ref)?.controls?.terminals.length === 1, 'two background items');
    await a.internals.plansUi.tree.whenIdle();
    const parent = (await rows(a, (await row(a, undefined, 'Demo Agent')).node))[0]!;
    const term = await row(a, parent.node, DEV_SERVER_COMMAND);
    const tool = await row(a, parent.node, WATCHER_TITLE);
    assert.strictEqual(term.description, 'background terminal · can be cancelled');
    assert.strictEqual(term.context, 'background:terminal:cancellable');
    assert.strictEqual(tool.context, 'background:tool_call:cancellable');
    assert.strictEqual(tool.description, 'background tool call · can be cancelled');
    a.internals.store.setActiveSession(ref);
    assert.match(await statusText(a), /\$\(sync\) 2 background$/);
    const bg = session(a, ref)!.background!;
    const terminalId = bg[0]!.type === 'terminal' ? bg[0]!.terminalId : '';
    const toolCallId = bg[1]!.type === 'tool_call' ? bg[1]!.toolCallId : '';
    const transcript = () => a.internals.transcript.session(sessionKey('demo', ref.sessionId))!;
    assert.strictEqual(transcript().terminal(terminalId)?.command, DEV_SERVER_COMMAND);
    const running = transcript().item(`t:${toolCallId}`);
    assert.ok(running?.kind === 'tool_call' && !running.unfinished, 'a tool call running on in the background is not marked unfinished at the end of the turn');
    if (hasUiHook()) {
      await a.internals.plansUi.treeView.reveal(term.node, { select: true });
      await waitForUi(ROWS, (t) => t.some((x) => x.includes('background terminal')) && t.some((x) => x.includes('background tool call')));
      await screenshot('background-work');
    }

    // The agent ends each item only when it receives its cancel request.
    assert.strictEqual(await vscode.commands.executeCommand('acp.cancelBackgroundWork', term.node), true);
    await until(a, () => session(a, ref)?.background?.length === 1, 'the terminal gone from the background');
    assert.strictEqual(transcript().terminal(terminalId)?.exitStatus?.signal, 'SIGTERM');
    assert.strictEqual(await vscode.commands.executeCommand('acp.cancelBackgroundWork', tool.node), true);
    await until(a, () => session(a, ref)?.background?.length === 0, 'the tool call gone from the background');
    const call = transcript().item(`t:${toolCallId}`);
    assert.ok(call?.kind === 'tool_call' && call.status === 'cancelled' && call.title === WATCHER_TITLE, 'the watcher tool call is cancelled');
    await a.internals.plansUi.tree.whenIdle();
    assert.deepStrictEqual(
      (await rows(a, parent.node)).filter((r) => r.context.startsWith('background:')),
      [],
      'no background rows left',
    );
    // Not offered any more: refused without a request.
    assert.strictEqual(await vscode.commands.executeCommand('acp.cancelBackgroundWork', term.node), false);
  });
});
