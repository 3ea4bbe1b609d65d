// Context compaction with the Demo Agent (`/compact`) through the real extension host and page: the
// compaction is one conversation row ("Context compacted", the token counts before → after), never
// an unknown update; its summary is folded under it until opened; the turn's plan goes on. v1 (the
// client's `session.compaction` opt-in) and v2.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { COMPACTION_SUMMARY } from '../../src/demo/scenarios/compact';
import { sessionKey } from '../../src/state/sessionStore';
import { prompt, startDemo, turnEnd, type SessionRef } from './support/demo';
import type { TestApi } from './support/ext';
import { hasUiHook, screenshot, uiAttrs, waitForWebview, webviewClick } from './ui';

const ROW = '.item[data-kind="compaction"]';

for (const protocol of ['2', '1'] as const) {
  describe(`Context compaction (Demo Agent v${protocol})`, function () {
    this.timeout(90000);
    let a: TestApi;
    let ref: SessionRef;
    let restore: () => Promise<void>;

    before(async () => {
      ({ a, ref, restore } = await startDemo(protocol));
    });
    after(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await restore();
    });

    it('shows one compaction row with its counts and folded summary; the plan goes on', async function () {
      await prompt(ref, '/compact');
      assert.strictEqual(await turnEnd(a, ref), 'end_turn');
      const items = a.internals.transcript.session(sessionKey(ref.agentId, ref.sessionId))!.slice(0);
      const kinds = items.map((i) => i.kind);
      assert.deepStrictEqual(
        kinds.filter((k) => k === 'compaction' || k === 'unknown'),
        ['compaction'],
        `one compaction, nothing unknown: ${JSON.stringify(kinds)}`,
      );
      const c = items.find((i) => i.kind === 'compaction');
      assert.ok(c?.kind === 'compaction' && c.status === 'completed');
      assert.deepStrictEqual(c.tokens, { before: 184000, after: 12500 });
      // The plan sent before the compaction was revised after it (its steps completed), not reset.
      const plans = a.internals.plans.plans(ref.agentId, ref.sessionId);
      assert.strictEqual(plans.length, 1, 'one plan');
      const plan = plans[0]!.plan;
      assert.ok(plan.type === 'items' && plan.entries.every((e) => e.status === 'completed'), JSON.stringify(plan));
      assert.ok(plans[0]!.revisions.length >= 3, `revised across the compaction: ${plans[0]!.revisions.length}`);
      if (!hasUiHook()) this.skip();
      const host = a.internals.conversation.openPanel(vscode.ViewColumn.Two);
      await host.whenReady();
      a.internals.store.setActiveSession(ref);
      // The conversation view and the panel both show the session: every row the same, one per view.
      const texts = await waitForWebview(ROW, (t) => t.length > 0 && t.every((x) => x.includes('Context compacted')));
      for (const x of texts) {
        assert.ok(x.includes('184000 → 12500 tokens'), x);
        assert.ok(!x.includes(COMPACTION_SUMMARY[0]!.trim()), `the summary is folded: ${x}`);
      }
      const opened = await uiAttrs(`${ROW} details.compaction-summary`, 'open', true);
      assert.ok(opened.length > 0 && opened.every((v) => v === null), `folded: ${JSON.stringify(opened)}`);
      assert.ok(await webviewClick(`${ROW} details.compaction-summary > summary`), 'the summary fold is on the page');
      const open = await waitForWebview(ROW, (t) => t.some((x) => x.includes(COMPACTION_SUMMARY[2]!.trim())));
      const shown = open.find((x) => x.includes(COMPACTION_SUMMARY[2]!.trim()))!;
      assert.ok(shown.includes(COMPACTION_SUMMARY.join('').trim().slice(0, 60)), `the summary in order: ${shown}`);
      await screenshot(`compaction-v${protocol}`);
    });
  });
}
