// Usage that moves, through the real extension host and workbench:
//   - live: during a Demo Agent `/slow` turn (v2; it reports usage and a rate limit mid-turn), the
//     session's row in the Plans tree shows the meter (`<used>/200k · $<cost>`) and it changes while
//     the turn still runs; the status bar's tooltip has the context, the cost and the rate limit;
//   - stored: three agents' sessions over two days, imported as session bundles (their records keep
//     their times), counted in ACP: Show Usage per day and per agent, the rows asserted in the page,
//     a screenshot of the page saved (out/screenshots/usage-three-agents-by-*.png).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { BUNDLE_FORMAT } from '../../src/app/history/bundle';
import type { HistoryRecord } from '../../src/app/history/records';
import type { PlanTreeNode } from '../../src/ui/tree/nodes';
import type { UsageTable } from '../../src/ui/usage/usageMessages';
import { prompt, session, startDemo, turnEnd, type SessionRef } from './support/demo';
import { api, type TestApi } from './support/ext';
import { hasUiHook, screenshot, waitForUi, waitForWebview } from './ui';

const ROWS = '.part.sidebar .pane-body .monaco-list-row';

/** The session's row node (agent → session, top level). */
function sessionNode(a: TestApi, ref: SessionRef): PlanTreeNode {
  const tree = a.internals.plansUi.tree;
  const agent = tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === ref.agentId);
  assert.ok(agent, `an agent row for ${ref.agentId}`);
  const row = tree.getChildren(agent).find((n) => n.kind === 'session' && n.sessionId === ref.sessionId);
  assert.ok(row, `a session row for ${ref.sessionId}`);
  return row;
}

/** Resolves with the row's description once `ok` holds for it (checked at each refresh of the tree). */
async function rowWhen(a: TestApi, ref: SessionRef, ok: (description: string) => boolean, what: string): Promise<string> {
  const tree = a.internals.plansUi.tree;
  const text = (): string => String(tree.getTreeItem(sessionNode(a, ref)).description ?? '');
  if (ok(text())) return text();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => (sub.dispose(), reject(new Error(`timed out waiting for ${what}; the row says "${text()}"`))), 20000);
    const sub = tree.onDidChangeTreeData(() => {
      if (!ok(text())) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
  return text();
}

const METER = /(\d+(?:\.\d)?k)\/200k · \$(\d\.\d\d)/;

describe('Usage that moves (live meter, rate limits, stored history)', function () {
  this.timeout(120000);

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the session row and the status bar follow usage while a Demo Agent turn runs, before it ends', async () => {
    const { a, ref, restore } = await startDemo('2');
    try {
      await vscode.commands.executeCommand('acp.focusPlans');
      await prompt(ref, '/slow');
      const first = await rowWhen(a, ref, (d) => METER.test(d), 'the first meter');
      assert.strictEqual(session(a, ref)?.turnState, 'running', `the meter shows while the turn runs: ${first}`);
      // It moves: a later report (more context, more cost) changes the row while the turn still runs.
      const later = await rowWhen(a, ref, (d) => METER.test(d) && METER.exec(d)![2] !== METER.exec(first)![2], 'the meter to move');
      assert.strictEqual(session(a, ref)?.turnState, 'running', `still running when it moved: ${first} → ${later}`);
      const statusBar = a.internals.plansUi.statusBar;
      await statusBar.whenIdle();
      const tip = statusBar.view.tooltip;
      assert.match(tip, /Context: [\d,]+ of 200,000 tokens/, tip);
      assert.match(tip, /Cost so far: \$0\.\d\d/, tip);
      assert.match(tip, /Rate limit five hour: \d+% used, resets /, tip);
      if (hasUiHook()) {
        // What the workbench shows: the row's description with the meter, the turn still running.
        const rows = await waitForUi(ROWS, (x) => x.some((r) => METER.test(r)));
        assert.ok(
          rows.some((r) => /running/.test(r) && METER.test(r)),
          JSON.stringify(rows),
        );
        await screenshot('usage-live-meter');
      }
      assert.ok(await vscode.commands.executeCommand('acp.cancelTurn', ref));
      assert.strictEqual(await turnEnd(a, ref), 'cancelled');
      // The panel lists the rate limit the Demo Agent reported.
      const t = (await vscode.commands.executeCommand<UsageTable>('acp.showUsage', { by: 'agent' }))!;
      const limit = t.limits?.rows.find((r) => r.key === `${ref.agentId}\0five_hour`)?.cells.map((c) => c.text);
      assert.ok(limit, JSON.stringify(t.limits));
      assert.deepStrictEqual([limit[0], limit[1], limit[3]], ['Demo Agent', 'five hour', 'allowed']);
      assert.match(limit[2]!, /^\d+%$/);
    } finally {
      await restore();
    }
  });

  it('three agents over two days from stored history: per day and per agent, in the page', async function () {
    const a = await api();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-usage-history-'));
    // Two local days (the ledger charges each record to the local day it was recorded on).
    const day1 = new Date(2026, 2, 2, 10, 0).getTime();
    const day2 = new Date(2026, 2, 3, 15, 30).getTime();
    const agents = [
      { id: 'usage-claude', name: 'Claude (stored)', costs: [0.25, 0.75], tokens: [1000, 3000] },
      { id: 'usage-codex', name: 'Codex (stored)', costs: [0.1, 0.4], tokens: [2000, 500] },
      { id: 'usage-gemini', name: 'Gemini (stored)', costs: [0.05, 0.05], tokens: [400, 600] },
    ];
    const keys: SessionRef[] = [];
    for (const ag of agents) {
      const sessionId = `${ag.id}-sess`;
      const turn = (t: number, cost: number, input: number): HistoryRecord[] => [
        { t, e: { sessionId, kind: 'state', state: 'running' } },
        { t: t + 1000, e: { sessionId, kind: 'usage', used: input * 10, size: 200_000, cost: { amount: cost, currency: 'USD' } } },
        { t: t + 2000, e: { sessionId, kind: 'state', state: 'idle', stopReason: 'end_turn', usage: { inputTokens: input, outputTokens: 100 } } },
      ];
      // The running total: day 1 reports costs[0], day 2 the total grows to costs[0] + costs[1].
      const records = [
        { t: day1 - 1, e: { sessionId, kind: 'session_info', title: `${ag.name} session` } } as HistoryRecord,
        ...turn(day1, ag.costs[0]!, ag.tokens[0]!),
        ...turn(day2, ag.costs[0]! + ag.costs[1]!, ag.tokens[1]!),
      ];
      const file = path.join(dir, `${ag.id}.json`);
      const bundle = { format: BUNDLE_FORMAT, version: 1, agentId: ag.id, agentName: ag.name, sessionId, exportedAt: new Date(day2).toISOString(), records };
      fs.writeFileSync(file, JSON.stringify(bundle));
      const key = await vscode.commands.executeCommand<SessionRef | false>('acp.importSession', vscode.Uri.file(file));
      assert.ok(key, `imported ${ag.id}`);
      keys.push(key);
    }
    try {
      const byDay = (await vscode.commands.executeCommand<UsageTable>('acp.showUsage', { by: 'day' }))!;
      const col = (t: UsageTable, label: string): number => t.columns.findIndex((c) => c.label === label);
      const dayRow = (k: string) => byDay.rows.find((r) => r.key === k)?.cells;
      const d1 = dayRow('2026-03-02');
      const d2 = dayRow('2026-03-03');
      assert.ok(d1 && d2, `rows for both days: ${JSON.stringify(byDay.rows.map((r) => r.key))}`);
      const cost = col(byDay, 'Cost (USD)');
      assert.strictEqual(d1[col(byDay, 'Turns')]!.sort, 3);
      assert.strictEqual(d2[col(byDay, 'Turns')]!.sort, 3);
      assert.ok(Math.abs(Number(d1[cost]!.sort) - 0.4) < 1e-9, `day 1: ${d1[cost]!.text}`);
      assert.ok(Math.abs(Number(d2[cost]!.sort) - 1.2) < 1e-9, `day 2: ${d2[cost]!.text}`);
      assert.strictEqual(d1[col(byDay, 'Input tokens')]!.sort, 3400);
      assert.strictEqual(d2[col(byDay, 'Input tokens')]!.sort, 4100);
      if (hasUiHook()) {
        await waitForWebview('#table td', (x) => x.includes('2026-03-02') && x.includes('2026-03-03') && x.includes('$1.20'));
        await screenshot('usage-three-agents-by-day');
      }

      const byAgent = (await vscode.commands.executeCommand<UsageTable>('acp.showUsage', { by: 'agent' }))!;
      const acost = col(byAgent, 'Cost (USD)');
      const mine = keys.map((k) => byAgent.rows.find((r) => r.key === k.agentId)?.cells.map((c) => c.text));
      assert.ok(
        mine.every((r) => r),
        `a row per agent: ${JSON.stringify(byAgent.rows.map((r) => r.key))}`,
      );
      assert.deepStrictEqual(
        mine.map((r) => [r![0], r![col(byAgent, 'Turns')], r![acost]]),
        [
          // An imported session's agent is the bundle's, named as imported (never the live agent).
          ['Imported: Claude (stored)', '2', '$1.00'],
          ['Imported: Codex (stored)', '2', '$0.50'],
          ['Imported: Gemini (stored)', '2', '$0.10'],
        ],
      );
      if (hasUiHook()) {
        await waitForWebview('#table td', (x) =>
          ['Imported: Claude (stored)', 'Imported: Codex (stored)', 'Imported: Gemini (stored)', '$1.00', '$0.50', '$0.10'].every((s) => x.includes(s)),
        );
        await screenshot('usage-three-agents-by-agent');
      }
    } finally {
      for (const k of keys) await a.internals.history?.delete(k).catch(() => undefined);
    }
  });
});
