// Intent plans in the Plans tree, with the test's own stores (SessionStore, PlanStore, IntentChecks,
// PlansTreeProvider) fed SessionEvents directly, and a key set of its own: the intent plan's rows
// next to another unknown plan type, the element-scoped refresh when a call is checked, the calls
// outside the plan, and a key setting change shown at once (never verified without keys). The
// Demo Agent's intent scenarios through the whole extension: intent.test.ts.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Config } from '../../src/platform/config';
import { generateSigningKey, makeJwks } from '../../src/intent/keys';
import { signIntentToken } from '../../src/intent/sign';
import type { SessionEvent } from '../../src/protocol/domain';
import { PlanStore } from '../../src/state/planStore';
import { SessionStore } from '../../src/state/sessionStore';
import { IntentChecks } from '../../src/app/intentChecks';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import { PlansTreeProvider } from '../../src/ui/tree/plansTreeProvider';
import { api, waitFor } from './support/ext';
import { rowOf, setting } from './support/intent';

describe('Intent plans in the Plans tree (own stores)', function () {
  this.timeout(30_000);
  const A = 'intent-fixture';
  const S = 'sess-intent';
  const owned: { dispose(): unknown }[] = [];
  let registry: SessionStore;
  let plans: PlanStore;
  let intent: IntentChecks;
  let tree: PlansTreeProvider;
  let restoreKeys: () => Thenable<void>;
  let dir: string;

  const feed = (e: SessionEvent): void => {
    registry.applyEvent(A, e);
    plans.apply(A, e);
    intent.apply(A, e);
  };
  const items = async (node?: PlanTreeNode) => Promise.all(tree.getChildren(node).map(async (n) => ({ node: n, row: rowOf(await tree.getTreeItem(n)) })));
  const planNode = async (planId: string) => {
    const session = tree.getChildren(tree.getChildren()[0])[0] ?? assert.fail('no session node');
    return (await items(session)).find((c) => c.row.label === planId) ?? assert.fail(`no plan ${planId}`);
  };

  before(async () => {
    const key = generateSigningKey('fixture-1');
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-intent-tree-'));
    writeFileSync(path.join(dir, 'jwks.json'), JSON.stringify(makeJwks([key.publicJwk])));
    restoreKeys = await setting('intent.jwks', path.join(dir, 'jwks.json'));
    const config = new Config();
    registry = new SessionStore();
    plans = new PlanStore();
    // The extension's own log channel: a second "ACP" channel would share its id, and disposing
    // it would close the extension's.
    intent = new IntentChecks(config, (await api()).internals.logs, plans);
    tree = new PlansTreeProvider(registry, plans, { intent });
    owned.push(tree, intent, plans, registry);
    registry.setAgent({ id: A, name: 'Fixture Agent', protocolVersion: 2, status: 'running' });
    registry.attachSession(A, S);
    const plan = { version: 1, goal: 'Tidy <b>docs</b>', user: 'bo@example.com', steps: [{ tool: 'read_file', maxCalls: 1 }] };
    const { token } = await signIntentToken(plan, key, { lifetimeSeconds: 600 });
    feed({
      sessionId: S,
      kind: 'plan_update',
      plan: { type: 'unknown', planId: 'custom', rawType: '_custom', raw: { type: '_custom', planId: 'custom', title: 'Board' } },
    });
    feed({
      sessionId: S,
      kind: 'plan_update',
      plan: { type: 'unknown', planId: 'i1', rawType: '_intent', raw: { type: '_intent', planId: 'i1', plan, token } },
    });
    await intent.whenChecked();
    await tree.whenIdle();
  });

  after(async () => {
    for (const d of owned.splice(0)) d.dispose();
    await restoreKeys();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the intent plan with its rows; another unknown type keeps the generic rendering', async () => {
    const custom = await planNode('custom');
    assert.deepEqual(
      (await items(custom.node)).map((c) => [c.node.kind, c.row.label]),
      [['field', 'title']],
    );
    const i1 = await planNode('i1');
    assert.match(i1.row.description, /^intent · verified \(kid fixture-1, (9|10) min left\)$/);
    const rows = await items(i1.node);
    assert.deepEqual(
      rows.map((c) => c.row.label),
      ['Goal: Tidy <b>docs</b>', 'For: bo@example.com', 'read_file', 'Calls outside the plan'],
    );
    assert.deepEqual(
      rows.map((c) => c.row.context),
      ['intent:goal', 'intent:user', 'intent:step:unused', 'intent:outside'],
    );
    assert.ok(rows.every((c) => typeof (c.node as { id: string }).id === 'string'));
    const ids = rows.map((c) => (c.node as { id: string }).id);
    assert.equal(new Set(ids).size, ids.length, 'unique ids');
    for (const c of rows) assert.equal(tree.getParent(c.node)?.id, i1.node.id);
    assert.deepEqual(
      tree.getChildren(i1.node),
      rows.map((c) => c.node),
      'the same (interned) nodes on every call',
    );
  });

  it('refreshes only the intent plan node when a call is checked, and lists calls outside the plan', async () => {
    const fired: (string | undefined)[] = [];
    const sub = tree.onDidChangeTreeData((e) => {
      for (const n of e === undefined ? [undefined] : Array.isArray(e) ? e : [e]) fired.push(n?.id);
    });
    try {
      feed({ sessionId: S, kind: 'tool_call', toolCallId: 'c1', fields: { title: 'Read a', rawInput: { path: 'a' }, _meta: { toolName: 'read_file' } } });
      feed({ sessionId: S, kind: 'tool_call', toolCallId: 'c2', fields: { title: 'Read b', rawInput: { path: 'b' }, _meta: { toolName: 'read_file' } } });
      feed({ sessionId: S, kind: 'tool_call', toolCallId: 'c3', fields: { title: 'Wipe', rawInput: {}, _meta: { toolName: 'rm_rf' } } });
      await tree.whenIdle();
    } finally {
      sub.dispose();
    }
    const i1 = await planNode('i1');
    assert.deepEqual([...new Set(fired)], [i1.node.id], 'element-scoped refresh of the intent plan');
    const rows = await items(i1.node);
    assert.deepEqual(rows.map((c) => [c.row.label, c.row.description, c.row.icon]).slice(2), [
      ['read_file', '1/1 call', 'warning'],
      ['Calls outside the plan', '2', 'warning'],
    ]);
    const calls = await items(rows[3]!.node);
    assert.deepEqual(
      calls.map((c) => [c.row.label, c.row.description]),
      [
        ['read_file', 'not_in_plan: the step has no calls left'],
        ['rm_rf', 'not_in_plan: no step for this tool'],
      ],
    );
    assert.match(calls[1]!.row.tooltip, /^Wipe\n/);
  });

  it('shows a key setting change at once: checking, then unverified without keys (never verified)', async () => {
    const restore = await setting('intent.jwks', '');
    try {
      await waitFor(intent.onDidChange, () => intent.snapshot({ agentId: A, sessionId: S })[0]?.verification?.state !== 'verified', 10_000, 'the recheck');
      await intent.whenChecked();
      await tree.whenIdle();
      assert.match((await planNode('i1')).row.description, /^intent · unverified \(no keys configured\)/);
    } finally {
      await restore();
    }
    await waitFor(intent.onDidChange, () => intent.snapshot({ agentId: A, sessionId: S })[0]?.verification?.state === 'verified', 10_000, 'verified again');
  });
});
