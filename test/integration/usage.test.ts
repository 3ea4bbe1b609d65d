// ACP: Show Usage with the Demo Agent (v2) through the real extension host and page: a turn's
// cost appears in the usage table (the session row, in the real webview), the agent's running total
// reported again after a second turn is not charged twice, the page regroups per agent and sorts by
// a column when its header is clicked, and the CSV export writes today's row.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { UsageTable } from '../../src/ui/usage/usageMessages';
import { nextPermission, prompt, startDemo, turnEnd, type SessionRef } from './support/demo';
import type { TestApi } from './support/ext';
import { hasUiHook, screenshot, uiAttrs, waitForWebview, webviewClick } from './ui';

/** The texts of the row with `key` (a session's: agent id and session id joined by NUL). */
const rowOf = (t: UsageTable, key: string): string[] | undefined => t.rows.find((r) => r.key === key)?.cells.map((c) => c.text);

async function demoTurn(a: TestApi, ref: SessionRef): Promise<void> {
  await prompt(ref, 'Add a farewell function');
  await a.internals.broker.respond((await nextPermission(a, ref)).id, 'allow_once');
  assert.strictEqual(await turnEnd(a, ref), 'end_turn');
}

describe('Usage (ACP: Show Usage, Demo Agent v2)', function () {
  this.timeout(90000);
  let a: TestApi;
  let ref: SessionRef;
  let restore: () => Promise<void>;

  before(async () => {
    ({ a, ref, restore } = await startDemo('2'));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('acp.stopAgent', 'demo');
    await restore();
  });

  it('shows the turn and its cost on the session row, and never charges a repeated total twice', async () => {
    await demoTurn(a, ref);
    const key = `${ref.agentId}\0${ref.sessionId}`;
    let t = (await vscode.commands.executeCommand<UsageTable>('acp.showUsage', { by: 'session' }))!;
    const turns = t.columns.findIndex((c) => c.label === 'Turns');
    const cost = t.columns.findIndex((c) => c.label === 'Cost (USD)');
    assert.ok(turns > 0 && cost > 0, JSON.stringify(t.columns));
    let row = rowOf(t, key);
    assert.ok(row, `a row for this session: ${JSON.stringify(t.rows.map((r) => r.key))}`);
    assert.strictEqual(row[0], 'Demo Agent');
    assert.strictEqual(row[turns], '1');
    assert.match(row[cost]!, /0\.0042/);
    // The Demo Agent reports the same running total after every turn: a second turn adds a turn, not cost.
    await demoTurn(a, ref);
    t = (await vscode.commands.executeCommand<UsageTable>('acp.showUsage', { by: 'session' }))!;
    row = rowOf(t, key)!;
    assert.strictEqual(row[turns], '2');
    assert.match(row[cost]!, /0\.0042/);
    assert.doesNotMatch(row[cost]!, /0\.0084/);
  });

  it('the page shows the table, regroups per agent, and sorts by a clicked header', async function () {
    if (!hasUiHook()) this.skip();
    await waitForWebview('#table td', (texts) => texts.includes('Demo Agent') && texts.some((x) => /0\.0042/.test(x)));
    assert.ok(await webviewClick('input[value="agent"]'), 'the "Agent" grouping is on the page');
    await waitForWebview('#table th', (texts) => texts[0]?.replace(/[▲▼ ]/g, '') === 'Agent' && !texts.some((x) => x.startsWith('Session')));
    assert.ok(await webviewClick('#table th', 'Turns'), 'the "Turns" header is on the page');
    await waitForWebview('#table th', (texts) => texts.some((x) => x.startsWith('Turns')));
    const sorts = await uiAttrs('#table th', 'aria-sort', true);
    assert.ok(sorts.includes('ascending') || sorts.includes('descending'), `a column says how it is sorted: ${JSON.stringify(sorts)}`);
    await screenshot('usage-per-agent');
  });

  it("exports the day's usage as CSV, the same numbers as the page", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-usage-')), 'usage.csv');
    const t = (await vscode.commands.executeCommand<UsageTable>('acp.showUsage', { by: 'day', exportTo: file }))!;
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n');
    assert.strictEqual(lines[0], 'day,turns,input tokens,output tokens,total tokens,cost (USD),last used');
    const d = new Date();
    const today = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const csv = lines.find((l) => l.startsWith(`${today},`))?.split(',');
    const page = t.rows.find((r) => r.key === today)?.cells;
    assert.ok(csv && page, `a row for ${today}: ${JSON.stringify(lines)}`);
    const turns = Number(csv[1]);
    assert.ok(turns >= 2, `today counts at least this test's two turns: ${csv[1]}`);
    assert.strictEqual(page[1]!.sort, turns, 'the page and the file agree on the turns');
    assert.ok(Number(csv[5]) >= 0.0042, `today's cost: ${csv[5]}`);
    assert.strictEqual(page[5]!.sort, Number(csv[5]), 'the page and the file agree on the cost');
  });
});
