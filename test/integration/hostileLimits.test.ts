// The hostile battery, second part (issue 25, must-show 2): classes 1, 3 and 4 of hardening round 2
// through the real extension and the real UI.
//   Budget: one connection of the hostile agent (agent C, v2) floods past its memory budget (set to
//   128 MiB here, to halve the traffic) and the count caps (230 Markdown plans of 512 KiB, then
//   120 subagent sessions each with one: ~175 MiB sent): the
//   caps hold, the oldest are cut, each cut is said once (in the conversation and the ACP log), the
//   Plans tree shows sane rows and the extension host stays responsive and bounded.
//   Import as data: ACP: Import Session… of a bundle that names C's live session, holds `write`
//   records (.vscode/tasks.json, a file outside the workspace, deleting README.md) and names 251
//   sessions: a read-only copy of its own, at most 100 sessions and the rest reported, Revert
//   refused with its sentence, no file written or deleted.
//   Archive bomb: Add Agent from Registry… of a .tar.bz2 of 276 bytes that unpacks to 256 MiB of
//   zeros: refused in ≤ 2 s with a sentence, the host's thread busy ≤ 50 ms at a time, RSS bounded.
// Limits and measured figures: docs/SECURITY.md ("The hostile battery").
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, type Internals, type TestApi } from './support/ext';
import { turnEnd, withSetting, type SessionRef } from './support/demo';
import { measureHost, type HostMeasure } from './support/hostile';
import {
  addBudgetAgent,
  BOMB_ID,
  BOMB_NAME,
  C,
  craftBundle,
  importTargets,
  INJECTED_PLAN,
  INJECTED_TITLE,
  idleStall,
  rssPeak,
  serveBomb,
  stallTrace,
} from './support/hostileLimits';
import { clearNotes, toastWith } from './support/notifications';
import { confirm } from './support/quickPick';
import { hasUiHook, screenshot, waitForUi, waitForWebview } from './ui';
import { BUDGET_DEFAULTS, childId } from '../agents/hostile/budgetPhase';
import { TestServer } from '../unit/registry/support/server';
import { FIXTURES } from '../unit/registry/fixtures';
import { IMPORTED_REVERT_REFUSED } from '../../src/app/revertPlan';
import { IMPORT_AGENT_PREFIX } from '../../src/common/pseudoAgents';
import { MAX_SESSIONS_PER_FILE } from '../../src/common/sessionBudget';
import { MAX_CHILDREN_PER_SESSION, sessionKey } from '../../src/state/sessionStore';

const MiB = 1024 * 1024;
/** The battery's limits (hostile.test.ts, docs/SECURITY.md); the budget case may keep its budget on top of the heap and RSS ones. */
const LIMITS = { lagP99Ms: 750, lagMaxMs: 2500, heapGrowthMiB: 112, rssGrowthMiB: 400 };
/** The budget case: agent C's budget (acp.limits.agentMemoryMiB) and what it sends: ~175 MiB, 37% over its budget. */
const BUDGET_MIB = 128;
const FLOOD = { ...BUDGET_DEFAULTS, planBytes: 512 * 1024 - 512 };
/** Issue 25, class 4: a bomb is refused in ≤ 2 s with ≤ 50 ms of host stall; RSS (peak) grows at most this much. */
const BOMB = { refusedMs: 2000, stallMs: 50, rssPeakGrowthMiB: 128 };
const mib = (bytes: number): number => Math.round((bytes / MiB) * 10) / 10;
const line = (m: HostMeasure): string =>
  `event-loop lag p99 ${m.p99Ms} ms, max ${m.maxMs} ms, mean ${m.meanMs} ms; RSS ${m.rssBeforeMiB} → ${m.rssAfterMiB} MiB, heap ${m.heapBeforeMiB} → ${m.heapAfterMiB} MiB (${m.gc}); host CPU ${m.cpuS} s in ${m.wallS} s; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

describe('Hostile agent battery, round 2: budget and imports (real UI)', function () {
  this.timeout(180_000);
  let a: TestApi;
  let internals: Internals;
  let ref: SessionRef;
  let results: string;
  const restores: (() => Promise<void>)[] = [];

  before(async function () {
    if (!hasUiHook()) this.skip();
    a = await api();
    internals = a.internals;
    results = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-hostile-c-'));
    await addBudgetAgent(internals, path.join(__dirname, '..', 'agents', 'hostileAgent.js'), results, restores);
    await vscode.commands.executeCommand('workbench.view.extension.acp');
  });

  after(async function () {
    this.timeout(60_000);
    if (!internals) return;
    if (internals.agents.get(C) && internals.agents.get(C)!.status !== 'stopped') await vscode.commands.executeCommand('acp.stopAgent', C);
    const imported = `${IMPORT_AGENT_PREFIX}${C}`;
    for (const id of [C, imported]) {
      for (const s of internals.store.sessions(id)) {
        await internals.history?.delete({ agentId: id, sessionId: s.sessionId });
        internals.transcript.removeSession(sessionKey(id, s.sessionId));
        internals.store.removeSession(id, s.sessionId);
      }
      internals.plans.clearAgent(id);
      internals.store.removeAgent(id);
      internals.budget.forget(id);
    }
    for (const r of restores.reverse()) await r();
    fs.rmSync(results, { recursive: true, force: true });
    await clearNotes();
  });

  it('budget: one connection past its memory budget and caps is cut oldest first, said once, the host responsive', async () => {
    const o = FLOOD;
    restores.push(await withSetting('limits.agentMemoryMiB', BUDGET_MIB));
    assert.strictEqual(internals.budget.limitBytes, BUDGET_MIB * MiB, 'the budget setting is applied');
    const recordDir = process.env.ACP_WIRE_RECORD_DIR; // 350 MB of traffic: not recorded (as agent A's huge phase)
    delete process.env.ACP_WIRE_RECORD_DIR;
    try {
      ref = (await vscode.commands.executeCommand<SessionRef>('acp.startAgent', C)) ?? assert.fail(`${C} did not start: ${internals.agents.get(C)?.lastError}`);
    } finally {
      if (recordDir !== undefined) process.env.ACP_WIRE_RECORD_DIR = recordDir;
    }
    const warnings: string[] = [];
    const main = internals.logs.main as unknown as { warn: (...a: unknown[]) => void };
    const warn = main.warn;
    main.warn = (...a: unknown[]) => {
      if (warnings.length < 200) warnings.push(a.map(String).join(' '));
      warn.apply(internals.logs.main, a);
    };
    const host = measureHost();
    const t0 = Date.now();
    let m: HostMeasure;
    try {
      const ok = await vscode.commands.executeCommand<boolean>('acp.sendPrompt', ref, `budget ${JSON.stringify({ workspace: '', budget: o })}`);
      assert.strictEqual(ok, true, 'acp.sendPrompt budget');
      assert.strictEqual(await turnEnd(a, ref, 150_000), 'end_turn');
    } finally {
      m = host.stop();
      main.warn = warn;
    }
    const ms = Date.now() - t0;
    const limit = internals.budget.limitBytes;
    const total = internals.budget.total(C);
    console.log(
      `[hostile] budget: ${o.plans} plans + ${o.children} subagents of ${mib(o.planBytes)} MiB in ${(ms / 1000).toFixed(1)} s; agent total ${mib(total)} of ${mib(limit)} MiB; ${line(m)}`,
    );

    // The budget holds: what the stores keep of C (by their own count) is within it.
    assert.ok(total <= limit, `agent C keeps ${mib(total)} MiB > its ${mib(limit)} MiB budget`);
    const kept = internals.store
      .sessions(C)
      .flatMap((s) => [...internals.plans.plans(C, s.sessionId), ...internals.plans.archived(C, s.sessionId)])
      .reduce((n, p) => n + p.historyBytes, 0);
    assert.ok(kept <= limit, `C's plans hold ${mib(kept)} MiB`);
    // Caps: live plans per session, archived plans, children per session; the refused children are nowhere.
    const live = internals.plans.plans(C, ref.sessionId);
    assert.ok(live.length <= internals.plans.limits.maxLive, `${live.length} live plans in one session`);
    assert.ok(internals.plans.archived(C, ref.sessionId).length <= internals.plans.limits.maxArchived);
    const children = internals.store.sessions(C).filter((s) => s.parentSessionId === ref.sessionId);
    assert.strictEqual(children.length, MAX_CHILDREN_PER_SESSION, 'children kept');
    for (let i = MAX_CHILDREN_PER_SESSION; i < o.children; i++) {
      const id = childId(ref.sessionId, i);
      assert.strictEqual(internals.store.session(C, id), undefined, `refused child ${i} is a session`);
      assert.strictEqual(internals.plans.plans(C, id).length, 0, `refused child ${i} has plans`);
    }
    // Oldest first: the first flood plans are gone from the live ones, the newest plan of each kind is kept.
    const liveIds = new Set(live.map((p) => p.planId));
    assert.ok(!liveIds.has('flood-0') && !liveIds.has(`flood-${o.plans - internals.plans.limits.maxLive}`), 'the oldest live plans were cut');
    assert.ok(liveIds.has(`flood-${o.plans - 1}`), 'the newest flood plan is kept');
    assert.ok(
      internals.plans.get({ agentId: C, sessionId: childId(ref.sessionId, MAX_CHILDREN_PER_SESSION - 1), planId: 'child-plan' }),
      'the newest child plan is kept',
    );

    // Each cut said once: one notice per kind in the agent's sessions, one warning per kind in the
    // ACP log. The count caps are said in the session that passed them; the memory cut in the
    // session whose update passed the budget (here a subagent's).
    const kinds = [
      /more than 200 live plans in one session/,
      /more than 100 subagent sessions in one session/,
      /memory budget \(acp\.limits\.agentMemoryMiB\)/,
    ];
    const noticesOf = (sessionId: string): string[] => {
      const t = internals.transcript.session(sessionKey(C, sessionId));
      return (t ? t.slice(t.firstIndex) : []).flatMap((i) => (i.kind === 'notice' ? [i.title] : []));
    };
    const said = internals.store.sessions(C).flatMap((x) => noticesOf(x.sessionId).map((title) => ({ sessionId: x.sessionId, title })));
    for (const k of kinds) {
      assert.strictEqual(said.filter((n) => k.test(n.title)).length, 1, `notice ${k}: ${JSON.stringify(said)}`);
      assert.strictEqual(warnings.filter((x) => k.test(x)).length, 1, `log warning ${k}: ${JSON.stringify(warnings.slice(0, 10))}`);
    }
    // …and a person sees them: each session's conversation shows its notices, once each.
    for (const sessionId of [...new Set(said.map((n) => n.sessionId))]) {
      const mine = kinds.filter((k) => said.some((n) => n.sessionId === sessionId && k.test(n.title)));
      internals.store.setActiveSession({ agentId: C, sessionId });
      await internals.conversation.reveal();
      const shown = await waitForWebview('.notice .notice-title', (x) => mine.every((k) => x.some((n) => k.test(n))), 20_000);
      for (const k of mine) assert.strictEqual(shown.filter((n) => k.test(n)).length, 1, `shown notice ${k}: ${JSON.stringify(shown)}`);
      await screenshot(`hostile-budget-notices${sessionId === ref.sessionId ? '' : '-child'}`);
    }

    // The Plans tree: sane rows (at most the caps), the newest plan and the children shown.
    const tree = internals.plansUi.tree;
    const agentNode = tree.getChildren().find((n) => n.kind === 'agent' && n.agentId === C) ?? assert.fail('agent C is not in the tree');
    const sessionNode = tree.getChildren(agentNode).find((n) => n.kind === 'session' && n.sessionId === ref.sessionId) ?? assert.fail('no session row');
    const rows = tree.getChildren(sessionNode);
    const count = (k: string): number => rows.filter((n) => n.kind === k).length;
    assert.ok(count('plan') <= internals.plans.limits.maxLive, `${count('plan')} plan rows`);
    assert.strictEqual(count('session'), MAX_CHILDREN_PER_SESSION, 'child session rows');
    assert.ok(count('archive') <= 1 && rows.length <= internals.plans.limits.maxLive + MAX_CHILDREN_PER_SESSION + 2, `${rows.length} rows under the session`);
    const newest = rows.find((n) => n.kind === 'plan' && n.ref.planId === `flood-${o.plans - 1}`) ?? assert.fail('the newest plan has no row');
    await internals.plansUi.treeView.reveal(newest, { select: true, focus: false });
    await waitForUi('.part.sidebar .pane-body .monaco-list-row', (x) => x.some((r) => r.includes(`Flood plan ${o.plans - 1}`)));
    await screenshot('hostile-budget-tree');

    // Responsive and bounded: the battery's lag limits; heap and RSS may hold the budget itself on top of the battery's limits.
    assert.ok(m.p99Ms <= LIMITS.lagP99Ms, `event-loop lag p99 ${m.p99Ms} ms > ${LIMITS.lagP99Ms} ms`);
    assert.ok(m.maxMs <= LIMITS.lagMaxMs, `event-loop lag max ${m.maxMs} ms > ${LIMITS.lagMaxMs} ms`);
    // The heap may hold the budget and the battery's limit on top (alone: +165 to +171 MiB of 240). In the full suite it once grew
    // +332/+336 MiB: a test extension kept every API event with its plan, and the history kept the last plan it stored of each plan
    // strongly, cut plans included; both fixed, so a store that keeps what the budget cut fails here.
    const heapCap = mib(limit) + LIMITS.heapGrowthMiB;
    const rssCap = mib(limit) + LIMITS.rssGrowthMiB;
    assert.ok(m.heapAfterMiB - m.heapBeforeMiB <= heapCap, `the heap grew ${(m.heapAfterMiB - m.heapBeforeMiB).toFixed(1)} MiB > ${heapCap} MiB`);
    assert.ok(m.rssAfterMiB - m.rssBeforeMiB <= rssCap, `RSS grew ${(m.rssAfterMiB - m.rssBeforeMiB).toFixed(1)} MiB > ${rssCap} MiB`);
  });

  it('import as data: a bundle naming the live session, with writes and 251 sessions, is a read-only copy; Revert refused; no file touched', async () => {
    assert.ok(ref, 'the budget test started agent C');
    assert.ok(internals.history, 'the session history is on');
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail('no workspace folder');
    const targets = importTargets(workspace);
    try {
      const files = [targets.tasks, targets.outside, targets.readme];
      const before = files.map((f) => fs.readFileSync(f, 'utf8'));
      const liveTitle = internals.store.session(C, ref.sessionId)?.title;
      const livePlans = internals.plans
        .plans(C, ref.sessionId)
        .map((p) => `${p.planId}@${p.version}`)
        .sort();
      const bundle = path.join(results, 'crafted.acp-session.json');
      const extra = 250;
      fs.writeFileSync(bundle, craftBundle(C, ref.sessionId, targets, extra));
      await clearNotes();

      const t0 = Date.now();
      const first = await vscode.commands.executeCommand<SessionRef | false>('acp.importSession', vscode.Uri.file(bundle));
      const importMs = Date.now() - t0;
      const imported = `${IMPORT_AGENT_PREFIX}${C}`;
      assert.deepStrictEqual(first, { agentId: imported, sessionId: ref.sessionId }, 'the copy is in the import namespace');
      // At most 100 sessions from one file; the rest reported to the user.
      const copies = internals.store.sessions(imported);
      console.log(`[hostile] import: ${copies.length} of ${extra + 1} sessions imported in ${importMs} ms`);
      assert.strictEqual(copies.length, MAX_SESSIONS_PER_FILE);
      await toastWith(`The file names ${extra + 1} sessions; only the first ${MAX_SESSIONS_PER_FILE} were imported.`);
      // The live session is untouched; the copy is read-only data with what the file says.
      assert.strictEqual(internals.store.session(C, ref.sessionId)?.title, liveTitle, 'the live title');
      assert.notStrictEqual(liveTitle, INJECTED_TITLE);
      assert.deepStrictEqual(
        internals.plans
          .plans(C, ref.sessionId)
          .map((p) => `${p.planId}@${p.version}`)
          .sort(),
        livePlans,
        'the live plans',
      );
      assert.strictEqual(internals.plans.get({ agentId: C, sessionId: ref.sessionId, planId: INJECTED_PLAN }), undefined);
      const copy = internals.store.session(imported, ref.sessionId) ?? assert.fail('no copy');
      assert.strictEqual(copy.live, false, 'the copy is not live');
      assert.strictEqual(copy.title, INJECTED_TITLE);
      assert.ok(internals.plans.get({ agentId: imported, sessionId: ref.sessionId, planId: INJECTED_PLAN }), 'the copy has the plan the file holds');
      assert.strictEqual(internals.agents.get(imported), undefined, 'no agent runs for the copy');

      // Revert of the imported step (its writes are unplanned work): refused with its sentence, nothing written.
      const r = await vscode.commands.executeCommand<{ reverted: string[]; refused?: string } | undefined>('acp.revertStepChanges', {
        agentId: imported,
        sessionId: ref.sessionId,
      });
      assert.strictEqual(r?.refused, IMPORTED_REVERT_REFUSED, `revert: ${JSON.stringify(r)}`);
      assert.deepStrictEqual(r.reverted, []);
      await toastWith(IMPORTED_REVERT_REFUSED);
      await screenshot('hostile-import-revert-refused');
      assert.deepStrictEqual(
        files.map((f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : 'deleted')),
        before,
        'no file written or deleted',
      );
      // The tree shows the copy under its own "Imported:" agent, beside the live agent.
      assert.ok(
        internals.plansUi.tree.getChildren().some((n) => n.kind === 'agent' && n.agentId === imported),
        'the imported agent has a row',
      );
      // Its row at the top level of the view (collapsed, so the flood's rows do not hide it).
      await vscode.commands.executeCommand('workbench.actions.treeView.acp.plans.collapseAll');
      await waitForUi('.part.sidebar .pane-body .monaco-list-row', (x) => x.some((row) => row.startsWith('Imported: ')));
      await screenshot('hostile-import-tree');
    } finally {
      targets.cleanup();
    }
  });
});

describe('Hostile agent battery, round 2: archive bomb (real UI)', function () {
  this.timeout(60_000);
  let internals: Internals;
  let server: TestServer;
  const restores: (() => Promise<void>)[] = [];

  before(async function () {
    if (!hasUiHook()) this.skip();
    internals = (await api()).internals;
    server = await new TestServer().start();
    const bomb = fs.readFileSync(path.join(FIXTURES, 'bomb.tar.bz2'));
    assert.ok(bomb.length < 1024, `the bomb is ${bomb.length} bytes`);
    restores.push(await withSetting('registry.url', serveBomb(server, bomb)));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await clearNotes();
    for (const r of restores.reverse()) await r();
    await server?.stop();
  });

  it('Add Agent from Registry… of a .tar.bz2 of 276 bytes that unpacks to 256 MiB: refused in ≤ 2 s, its host thread busy ≤ 50 ms at a time', async () => {
    await clearNotes();
    // What this machine alone stalls an idle extension host (other work shares its two cores).
    const idleMs = await idleStall(2000);
    const done = vscode.commands.executeCommand<string | undefined>('acp.addAgentFromRegistry', { id: BOMB_ID });
    const whole = stallTrace();
    let t0 = 0;
    let window: { trace: ReturnType<typeof stallTrace>; host: { stop(): HostMeasure }; peak: { stop(): number } } | undefined;
    // From the archive's request (the user confirmed) to the refusal: the install's own work.
    const asked = server.requested('/bomb.tar.bz2').then(() => {
      t0 = Date.now();
      window = { trace: stallTrace(), host: measureHost(1, false), peak: rssPeak() };
      whole.mark('download');
    });
    await confirm(`Install ${BOMB_NAME} 1.0.0 from the ACP Registry?`, 'Install, then run:');
    await asked;
    assert.strictEqual(await done, undefined, 'nothing installed');
    const refusedMs = Date.now() - t0;
    const w = window!.trace.stop();
    const m = window!.host.stop();
    const peakMiB = window!.peak.stop();
    whole.mark('refused');
    console.log(
      `[hostile] archive bomb: refused ${refusedMs} ms after its download began; longest event-loop stall ${w.maxGapMs} ms (p99 ${m.p99Ms} ms; idle host before: ${idleMs} ms), most CPU of the host's thread in one stall ${w.maxCpuMs} ms; RSS ${m.rssBeforeMiB} → peak ${peakMiB} → ${m.rssAfterMiB} MiB; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(`[hostile] archive bomb, stalls over 20 ms from the command to the refusal: ${whole.stop().text}`);
    await toastWith(`The archive of ${BOMB_NAME} unpacks to more than 16 MiB; it was not installed.`);
    await screenshot('hostile-bomb-refused');
    assert.strictEqual(internals.agents.get(`registry:${BOMB_ID}`), undefined, 'no agent');
    assert.ok(refusedMs <= BOMB.refusedMs, `refused after ${refusedMs} ms > ${BOMB.refusedMs} ms`);
    // The sharp check: the host's thread never works (or collects garbage) 50 ms in one go. The
    // wall-clock stall also counts the time the machine's scheduler gives other work (on this
    // shared 2-core machine an idle host stalls up to 145 ms): it is printed, and held to the
    // battery's lag limit only (docs/SECURITY.md).
    assert.ok(w.maxCpuMs <= BOMB.stallMs, `the extension host's thread worked ${w.maxCpuMs} ms in one stall > ${BOMB.stallMs} ms`);
    assert.ok(w.maxGapMs <= LIMITS.lagMaxMs, `the extension host stalled ${w.maxGapMs} ms`);
    assert.ok(peakMiB - m.rssBeforeMiB <= BOMB.rssPeakGrowthMiB, `RSS peaked ${(peakMiB - m.rssBeforeMiB).toFixed(1)} MiB above where it was`);
  });
});
