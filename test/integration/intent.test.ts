// Intent plans through the whole extension, driven by the Demo Agent's `/intent` scenario (v2):
// the plan in the Plans tree with its verification, steps and usage; the out-of-plan permission
// request flagged `not_in_plan` (pending request, transcript, tree); the required step missing at
// the end of the turn; never "verified" without the right keys; the plan a declare_plan tool call
// declares; auto-reject only for a verified plan. Waits on events, never on time. The intent rows
// of a tree fed by the test's own stores: intentTree.test.ts.
import { sessionKey } from '../../src/state/sessionStore';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestApi as AcpPlansApi } from './support/ext';
import { generateSigningKey, makeJwks } from '../../src/intent/keys';
import { permissionItemId } from '../../src/state/transcript';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { api, waitFor } from './support/ext';
import { rowOf, setting, type Row } from './support/intent';
import { hasUiHook, screenshot, waitForUi, waitForWebview } from './ui';

const ROWS = '.part.sidebar .pane-body .monaco-list-row';

interface SessionRef {
  agentId: string;
  sessionId: string;
}

async function children(a: AcpPlansApi, node?: PlanTreeNode): Promise<{ node: PlanTreeNode; row: Row }[]> {
  const tree = a.internals.plansUi.tree;
  const out: { node: PlanTreeNode; row: Row }[] = [];
  for (const c of (await tree.getChildren(node)) ?? []) out.push({ node: c, row: rowOf(await tree.getTreeItem(c)) });
  return out;
}

async function child(a: AcpPlansApi, parent: PlanTreeNode | undefined, match: (r: Row) => boolean, what: string): Promise<{ node: PlanTreeNode; row: Row }> {
  const all = await children(a, parent);
  return all.find((c) => match(c.row)) ?? assert.fail(`no tree node ${what} under ${parent?.id ?? 'the root'}: ${JSON.stringify(all.map((c) => c.row.label))}`);
}

/** The `intent` plan node of the session. */
async function intentPlan(a: AcpPlansApi, ref: SessionRef): Promise<{ node: PlanTreeNode; row: Row }> {
  const agent = await child(a, undefined, (r) => r.label === 'Demo Agent', 'Demo Agent');
  const session =
    (await children(a, agent.node)).find((c) => c.node.kind === 'session' && c.node.sessionId === ref.sessionId) ?? assert.fail('no session node');
  return child(a, session.node, (r) => r.label === 'intent', '"intent"');
}

function intentOf(a: AcpPlansApi, ref: SessionRef) {
  return a.internals.intent.snapshot(ref)[0];
}

async function newSession(): Promise<SessionRef> {
  const ref = await vscode.commands.executeCommand<SessionRef | undefined>('acp.startAgent', 'demo');
  assert.ok(ref, 'acp.startAgent returned no session');
  return ref;
}

async function prompt(ref: SessionRef, text: string): Promise<void> {
  assert.equal(await vscode.commands.executeCommand<boolean>('acp.sendPrompt', ref, text), true, 'acp.sendPrompt failed');
}

async function turnEnd(a: AcpPlansApi, ref: SessionRef): Promise<void> {
  const done = (): boolean => {
    const s = a.internals.store.session(ref.agentId, ref.sessionId);
    return !!s && s.turnState === 'idle' && !!s.stopReason;
  };
  // The registry hears the idle state first; the agent manager reports the session free after it.
  const changes = (l: (e: unknown) => void): vscode.Disposable => a.internals.store.onDidChange(l);
  await waitFor(changes, done, 20_000, 'the end of the turn').catch((err: Error) => {
    const s = a.internals.store.session(ref.agentId, ref.sessionId);
    const state = {
      turn: s?.turnState,
      stopReason: s?.stopReason,
      busy: a.internals.agents.get(ref.agentId)?.busy(ref.sessionId),
      pending: a.internals.broker.pendingFor(ref.sessionId).length,
      intent: intentOf(a, ref)?.verification,
    };
    throw new Error(`${err.message}: ${JSON.stringify(state)}`);
  });
}

/** Every verification state the session's intent plan went through while `run` ran (by token id). */
async function recordStates(a: AcpPlansApi, ref: SessionRef, run: () => Promise<void>): Promise<Map<string, string[]>> {
  const seen = new Map<string, string[]>();
  const note = (): void => {
    const s = intentOf(a, ref);
    if (!s?.jti || !s.verification) return;
    const list = seen.get(s.jti) ?? [];
    if (list.at(-1) !== s.verification.state) list.push(s.verification.state);
    seen.set(s.jti, list);
  };
  const sub = a.internals.intent.onDidChange(note);
  try {
    await run();
  } finally {
    sub.dispose();
  }
  note();
  return seen;
}

describe('Intent plans (Demo Agent /intent, v2)', function () {
  this.timeout(90_000);
  let a: AcpPlansApi;
  let jwksFile: string;
  const restore: (() => Thenable<void>)[] = [];
  const temp: string[] = [];

  before(async () => {
    a = await api();
    const sup = a.internals.agents.get('demo');
    if (sup && sup.status !== 'stopped') await vscode.commands.executeCommand('acp.stopAgent', 'demo');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail('no workspace folder');
    jwksFile = path.join(folder, '.acp-demo', 'jwks.json');
    restore.push(await setting('demo.protocol', '2'), await setting('demo.stepDelayMs', 0), await setting('intent.autoRejectOutOfPlan', false));
    restore.push(await setting('intent.jwks', jwksFile));
    await vscode.commands.executeCommand('workbench.view.extension.acp');
  });

  after(async () => {
    await vscode.commands.executeCommand('acp.stopAgent', 'demo');
    for (const r of restore.splice(0).reverse()) await r();
    for (const d of temp) rmSync(d, { recursive: true, force: true });
  });

  it('shows the signed plan verified with its steps, flags the out-of-plan request everywhere, and reports the required step not run', async () => {
    const ref = await newSession();
    const broker = a.internals.broker;
    await prompt(ref, '/intent');
    await waitFor(a.internals.store.onDidChange, () => broker.pendingFor(ref.sessionId).length > 0, 20_000, 'the permission request');
    await waitFor(a.internals.intent.onDidChange, () => intentOf(a, ref)?.verification?.state === 'verified', 20_000, 'the verified intent plan');

    // The pending request and its transcript item carry the flag.
    const pending = broker.pendingFor(ref.sessionId)[0]!;
    assert.equal(pending.request.subject?.type, 'tool_call');
    assert.deepEqual(pending.flags, ['not_in_plan']);
    const item = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId))?.item(permissionItemId(pending.id));
    assert.ok(item?.kind === 'permission', 'the request is in the transcript');
    assert.deepEqual(item.flags, ['not_in_plan']);

    // The snapshot: verified by the demo key, usage and verdicts as the scenario made them.
    const snap = intentOf(a, ref)!;
    assert.equal(snap.planId, 'intent');
    assert.equal(snap.verification?.kid, 'demo-1');
    assert.deepEqual(
      snap.steps.map((s) => [s.tool, s.callsUsed, s.maxCalls, s.required]),
      [
        ['read_file', 1, 20, false],
        ['edit_file', 0, 20, true],
        ['run_tests', 1, 2, false],
      ],
    );
    const outside = snap.verdicts.filter((v) => v.verdict === 'not_in_plan');
    assert.deepEqual(
      outside.map((v) => [v.toolName, v.verdict === 'not_in_plan' && v.reason]),
      [['edit_file', 'argument_fails_constraint']],
    );

    // The tree: plan node, goal, user, one row per step, the call outside the plan.
    await a.internals.plansUi.tree.whenIdle();
    const plan = await intentPlan(a, ref);
    assert.match(plan.row.description, /^intent · verified \(kid demo-1, (59|60) min left\) · 1 call outside the plan$/);
    assert.equal(plan.row.icon, 'verified-filled');
    assert.equal(plan.row.context, 'plan:unknown:intent:verified');
    const rows = (await children(a, plan.node)).map((c) => c.row);
    assert.deepEqual(
      rows.map((r) => r.label),
      [
        'Goal: Add a farewell() helper next to greet() in src/greeting.ts',
        'For: ada@example.com',
        // Work: the plan's calls attributed to it as a whole (test/integration/attribution.test.ts).
        'read_file',
        'edit_file',
        'run_tests',
        'Calls outside the plan',
        'Work',
      ],
    );
    assert.deepEqual(
      rows.slice(2, 5).map((r) => [r.description, r.icon]),
      [
        ['1/20 calls', 'pass'],
        ['0/20 calls · required', 'circle-outline'],
        ['1/2 calls', 'pass'],
      ],
    );
    assert.match(rows[2]!.tooltip, /path matches the glob "src\/\*\*"/);
    assert.match(rows[3]!.tooltip, /path equals "src\/greeting.ts"/);
    assert.equal(rows[1]!.description, '', 'the user is confirmed by the verified token');
    const outsideNode = await child(a, plan.node, (r) => r.label === 'Calls outside the plan', 'Calls outside the plan');
    assert.equal(outsideNode.row.description, '1');
    const calls = (await children(a, outsideNode.node)).map((c) => c.row);
    assert.deepEqual(
      calls.map((c) => [c.label, c.description]),
      [['edit_file', 'not_in_plan: an argument is outside its constraint']],
    );
    assert.match(calls[0]!.tooltip, /"path" must equal "src\/greeting.ts"/);
    assert.equal(a.internals.plansUi.tree.getParent((await children(a, outsideNode.node))[0]!.node)?.id, outsideNode.node.id, 'getParent walks back up');

    if (hasUiHook()) {
      await a.internals.plansUi.treeView.reveal((await children(a, outsideNode.node))[0]!.node, { expand: true });
      await waitForUi(ROWS, (t) => t.some((x) => x.includes('verified (kid demo-1')) && t.some((x) => x.includes('Calls outside the plan')));
      await waitForWebview('.perm-flags', (t) => t.some((f) => f.includes('Not in plan')));
      await screenshot('intent-plan-permission-pending');
    }

    // Reject; the turn ends without the required step.
    assert.ok(await broker.respond(pending.id, 'reject_once'));
    await turnEnd(a, ref);
    await waitFor(a.internals.intent.onDidChange, () => (intentOf(a, ref)?.missingRequired?.length ?? 0) > 0, 10_000, 'the missing required step');
    assert.deepEqual(
      intentOf(a, ref)!.missingRequired!.map((s) => s.tool),
      ['edit_file'],
    );
    const resolved = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId))?.item(permissionItemId(pending.id));
    assert.ok(resolved?.kind === 'permission' && resolved.state === 'selected' && resolved.optionId === 'reject_once');

    await a.internals.plansUi.tree.whenIdle();
    const after = await intentPlan(a, ref);
    const last = (await children(a, after.node)).map((c) => c.row).filter((r) => r.label !== 'Work'); // the plan's work as a whole: attribution.test.ts
    assert.deepEqual(last.at(-1)?.label, 'Required steps not run: edit_file');
    assert.equal(last.at(-1)?.icon, 'warning');
    if (hasUiHook()) {
      await a.internals.plansUi.treeView.reveal(after.node, { expand: true, select: true });
      const dom = await waitForUi(ROWS, (t) => t.some((x) => x.includes('Required steps not run: edit_file')));
      assert.ok(
        dom.some((x) => /intent · verified \(kid demo-1, (59|60) min left\)/.test(x)),
        JSON.stringify(dom),
      );
      await screenshot('intent-plan-verified');
    }
  });

  it('never shows the plan verified without keys, or with keys that do not match; flags without auto-reject', async () => {
    const restoreAuto = await setting('intent.autoRejectOutOfPlan', true); // must not fire: the plan is not verified
    try {
      // No keys configured.
      const restoreKeys = await setting('intent.jwks', '');
      try {
        const ref = await newSession();
        const broker = a.internals.broker;
        const states = await recordStates(a, ref, async () => {
          await prompt(ref, '/intent');
          await waitFor(a.internals.store.onDidChange, () => broker.pendingFor(ref.sessionId).length > 0, 20_000, 'the permission request (not auto-rejected)');
          await a.internals.intent.whenChecked();
        });
        assert.equal(states.size, 1);
        assert.ok(![...states.values()][0]!.includes('verified'), JSON.stringify([...states]));
        assert.equal(intentOf(a, ref)?.verification?.state, 'unverified');
        const pending = broker.pendingFor(ref.sessionId)[0]!;
        assert.deepEqual(pending.flags, ['not_in_plan'], 'still flagged');
        await a.internals.plansUi.tree.whenIdle();
        const plan = await intentPlan(a, ref);
        assert.match(plan.row.description, /^intent · unverified \(no keys configured\)/);
        assert.equal(plan.row.icon, 'unverified');
        const user = (await children(a, plan.node)).map((c) => c.row).find((r) => r.label.startsWith('For: '));
        assert.equal(user?.description, 'not confirmed by a verified token');
        assert.ok(await broker.respond(pending.id, 'reject_once'));
        await turnEnd(a, ref);
      } finally {
        await restoreKeys();
      }

      // Keys of someone else with the same key id: a bad signature.
      const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-intent-keys-'));
      temp.push(dir);
      const foreign = path.join(dir, 'jwks.json');
      writeFileSync(foreign, JSON.stringify(makeJwks([generateSigningKey('demo-1').publicJwk])));
      const restoreForeign = await setting('intent.jwks', foreign);
      try {
        const ref = await newSession();
        const broker = a.internals.broker;
        const states = await recordStates(a, ref, async () => {
          await prompt(ref, '/intent');
          await waitFor(a.internals.store.onDidChange, () => broker.pendingFor(ref.sessionId).length > 0, 20_000, 'the permission request (not auto-rejected)');
          await a.internals.intent.whenChecked();
        });
        assert.ok(![...states.values()].flat().includes('verified'), JSON.stringify([...states]));
        assert.equal(intentOf(a, ref)?.verification?.state, 'bad_signature');
        await a.internals.plansUi.tree.whenIdle();
        assert.match((await intentPlan(a, ref)).row.description, /^intent · bad signature/);
        assert.ok(await broker.respond(broker.pendingFor(ref.sessionId)[0]!.id, 'reject_once'));
        await turnEnd(a, ref);
      } finally {
        await restoreForeign();
      }
    } finally {
      await restoreAuto();
    }
  });

  it('takes the plan a declare_plan tool call declares, shows the token claims, infers unnamed tools and says when it cannot', async () => {
    const ref = await newSession();
    await prompt(ref, '/declare');
    await turnEnd(a, ref);
    await a.internals.intent.whenChecked();
    const snap = intentOf(a, ref)!;
    assert.equal(snap.planId, 'declare_plan');
    assert.equal(snap.verification?.state, 'verified');
    assert.deepEqual(
      snap.steps.map((s) => [s.tool, s.callsUsed]),
      [
        ['read_file', 1],
        ['run_tests', 0],
      ],
    );
    const read = snap.verdicts.find((v) => v.title === 'Reading src/greeting.ts');
    assert.ok(read?.verdict === 'in_plan' && read.inferredFrom === 'kind', JSON.stringify(read));
    assert.ok(!snap.verdicts.some((v) => v.verdict === 'not_in_plan'), 'the declare_plan call itself is not judged against the plan');

    await a.internals.plansUi.tree.whenIdle();
    const agent = await child(a, undefined, (r) => r.label === 'Demo Agent', 'Demo Agent');
    const session =
      (await children(a, agent.node)).find((c) => c.node.kind === 'session' && c.node.sessionId === ref.sessionId) ?? assert.fail('no session node');
    // The row's title is the planId in words (the planId stays in its tooltip).
    const plan = await child(a, session.node, (r) => r.label === 'Declare plan', '"Declare plan"');
    assert.match(plan.row.description, /^intent · verified \(kid demo-1, (59|60) min left\)$/);
    const tip = plan.row.tooltip;
    assert.match(tip, /Declared by the declare_plan tool call call_declare\S* \(completed\)/);
    assert.match(
      tip,
      /Signed claims:\n {2}Agent: demo-agent\n {2}Policy: read-and-test \(version 3, hash [0-9a-f]{64}\)\n {2}Role: developer\n {2}Groups: web, oncall/,
    );
    const rows = (await children(a, plan.node)).filter((r) => r.row.label !== 'Work'); // the plan's work as a whole: attribution.test.ts
    assert.deepEqual(
      rows.map((r) => r.row.label),
      ['Goal: Check the greeting and run the tests', 'For: ada@example.com', 'read_file', 'run_tests', 'Calls outside the plan', 'Calls not checked'],
    );
    const unchecked = (await children(a, rows.at(-1)!.node)).map((c) => c.row);
    assert.deepEqual(
      unchecked.map((r) => r.label),
      ['Fetching the release notes'],
    );
    assert.match(
      unchecked[0]!.tooltip,
      /Not checked: The call names no tool; its title "Fetching the release notes" names no step's tool and its kind "fetch" fits no step's tool\./,
    );
    if (hasUiHook()) {
      await a.internals.plansUi.treeView.reveal((await children(a, rows.at(-1)!.node))[0]!.node, { expand: true, select: true, focus: true });
      await waitForUi(ROWS, (t) => t.some((x) => x.includes('Calls not checked')) && t.some((x) => x.includes('Fetching the release notes')), 30_000);
      await screenshot('intent-declare-plan');
    }
  });

  it('rejects an out-of-plan request automatically only when the plan is verified and the setting is on', async () => {
    const restoreAuto = await setting('intent.autoRejectOutOfPlan', true);
    try {
      const ref = await newSession();
      const broker = a.internals.broker;
      const decided: string[] = [];
      const sub = broker.onDidDecide((d) => {
        if (d.sessionId === ref.sessionId && d.outcome.outcome === 'selected') decided.push(d.outcome.optionId);
      });
      try {
        await prompt(ref, '/intent');
        await turnEnd(a, ref);
      } finally {
        sub.dispose();
      }
      assert.equal(intentOf(a, ref)?.verification?.state, 'verified');
      assert.deepEqual(decided, ['reject_once'], "answered with the agent's reject option");
      assert.equal(broker.pendingFor(ref.sessionId).length, 0, 'never shown to the user');
      const t = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId));
      const said = t
        ?.slice(t.firstIndex)
        .flatMap((i) => (i.kind === 'message' && i.role === 'agent' ? [i.parts.map((p) => (p.type === 'text' ? p.chunks.join('') : '')).join('')] : []));
      assert.ok(said?.includes('permission: selected reject_once'), JSON.stringify(said));
    } finally {
      await restoreAuto();
    }
  });
});
