// The hostile battery (issue 12, "Build" and must-show 2): two hostile agents (test/agents/
// hostileAgent.ts, one speaking v2, one v1) configured in `acp.agents`, started through the real
// extension in the real VS Code, each running probes of every class of the issue: lying option
// names, floods, commands a narrow rule must not cover, terminals and writes that must be asked,
// devices/FIFOs/environ as files and plans, huge and quadratic input, deep lines, unusable ids,
// other agents' and invented sessions, secrets in what an agent prints. The "user" clicks only
// what the test says. Checked: zero silent approvals, nothing touched outside the workspace,
// nothing run without a click, and the extension host stayed responsive and bounded (event-loop
// delay and RSS against the limits in docs/SECURITY.md). The tests after the first check what the
// battery (the first test) recorded, so they stay in this one file and describe. The agents, the
// user's clicks and the clean-up: support/hostileBattery.ts; the other helpers: support/hostile.ts.
import * as assert from 'assert';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, waitFor, type Internals, type TestApi } from './support/ext';
import { turnEnd, withSetting, type SessionRef } from './support/demo';
import { fileState, measureHost, plant, readRecords, snapshotTree, User, watchLogs, type HostMeasure, type Plant } from './support/hostile';
import { A, B, SECRETS, WRITE_TARGETS, addHostileAgents, cleanUpBattery, hostileClicks } from './support/hostileBattery';
import type { ProbeRecord } from '../agents/hostile/results';
import { DEFAULT_TERMINAL_LIMITS } from '../../src/agents/terminalService';
import { sessionKey } from '../../src/state/sessionStore';
import { MAX_PENDING_PER_AGENT } from '../../src/app/permissionBroker';

/** Limits stated in docs/SECURITY.md ("What the battery measured"). */
// Reasoning in SECURITY.md: parsing a line is synchronous (a 10 MB plan revision is 100+ ms of CPU,
// several times that on two shared cores); CPU time does not depend on the machine's load, so it
// is the sharp check; the heap after a GC is the leak check, RSS the ceiling a user sees.
// The wall time (120 s; 25 s on a quiet machine, 72 s at load 7–10) only catches a hang: it follows the load.
const LIMITS = { lagP99Ms: 750, lagMaxMs: 2500, hostCpuS: 30, heapGrowthMiB: 112, rssGrowthMiB: 400, batteryMs: 120_000 };

describe('Hostile agent battery', function () {
  this.timeout(120_000);
  let a: TestApi;
  let internals: Internals;
  let files: Plant;
  let user: User;
  let logs: ReturnType<typeof watchLogs>;
  const restores: (() => Promise<void>)[] = [];
  let refA: SessionRef;
  let refB: SessionRef;
  let refB2: SessionRef;
  let measured: HostMeasure | undefined;
  let batteryMs = 0;
  let records: ProbeRecord[] = [];
  const canaryBefore: Record<string, string> = {};
  const targetsBefore: Record<string, string> = {};
  /** Facts read during the battery (later phases add their own). */
  const facts = { rulesDuring: [] as unknown[], injectedInA: false, hugeMessageChars: 0, hugeTruncated: false };

  const record = (probe: string): ProbeRecord =>
    records.find((r) => r.probe === probe) ??
    assert.fail(
      `the agent recorded no answer for ${probe}; it recorded ${records
        .map((r) => r.probe)
        .filter((p) => !p.includes('flood'))
        .join(', ')}`,
    );
  const title = (ref: SessionRef): string | undefined => internals.store.session(ref.agentId, ref.sessionId)?.title;

  before(async () => {
    a = await api();
    internals = a.internals;
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail('no workspace folder open');
    files = plant(workspace);
    Object.assign(canaryBefore, snapshotTree(files.canary));
    for (const t of WRITE_TARGETS) targetsBefore[t] = fileState(path.join(workspace, t));
    assert.deepStrictEqual(
      internals.broker.rules.filter((r) => r.agentId === A || r.agentId === B),
      [],
      'no rules for the hostile agents yet',
    );
    const agentJs = path.join(__dirname, '..', 'agents', 'hostileAgent.js');
    await addHostileAgents(internals, files, agentJs, restores);
    logs = watchLogs([internals.logs.main, internals.logs.trace], SECRETS);
    user = new User(internals, [A, B]);
    user.policy = hostileClicks;
  });

  after(async function () {
    this.timeout(120_000);
    user?.dispose();
    logs?.restore();
    const problems = await cleanUpBattery(internals, restores, files);
    assert.deepStrictEqual(problems, [], 'cleanup');
  });

  async function run(ref: SessionRef, phase: string, extra: Record<string, unknown> = {}): Promise<void> {
    const { results: _r, cleanup: _c, ...params } = files;
    const ok = await vscode.commands.executeCommand<boolean>('acp.sendPrompt', ref, `${phase} ${JSON.stringify({ ...params, ...extra })}`);
    assert.strictEqual(ok, true, `acp.sendPrompt ${phase}`);
  }

  async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
    await waitFor(internals.store.onDidChange, check, ms, what);
  }

  const pendingWith = (ref: SessionRef, s: string): number =>
    internals.broker.pendingFor(ref.sessionId).filter((p) => p.agentId === ref.agentId && p.request.title.includes(s)).length;

  it('runs every probe through the real extension, within its time', async () => {
    const t0 = Date.now();
    const host = measureHost();
    const done = (what: string): void => console.log(`[hostile] ${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
    // The wire recorder of the test harness (raw traffic, for the schema check of what the client
    // sends) would write A's half gigabyte to disk: A runs unrecorded, B (small traffic) recorded.
    const recordDir = process.env.ACP_WIRE_RECORD_DIR;
    delete process.env.ACP_WIRE_RECORD_DIR;
    try {
      refA =
        (await vscode.commands.executeCommand<SessionRef>('acp.startAgent', A)) ?? assert.fail(`${A} did not start: ${internals.agents.get(A)?.lastError}`);
    } finally {
      if (recordDir !== undefined) process.env.ACP_WIRE_RECORD_DIR = recordDir;
    }
    refB = (await vscode.commands.executeCommand<SessionRef>('acp.startAgent', B)) ?? assert.fail(`${B} did not start: ${internals.agents.get(B)?.lastError}`);
    // A second session of B before the client phase (its probes aim at it). Through the supervisor:
    // "New Session" right after Start Agent reuses the untouched first session.
    const cwdB = internals.store.session(B, refB.sessionId)?.cwd ?? vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    refB2 = { agentId: B, sessionId: await internals.agents.get(B)!.newSession(cwdB) };
    done('agents started');

    // Consent: three requests the user answers, 200 the user never does: at most
    // MAX_PENDING_PER_AGENT wait for the user, the others are answered `cancelled` at once.
    await run(refA, 'consent');
    const flood = '[probe consent.flood-';
    const cappedFlood = (): number =>
      user.decided.filter((d) => d.request.title.includes(flood) && d.outcome.outcome === 'cancelled' && !user.asked.some((p) => p.id === d.id)).length;
    await until(
      () =>
        title(refA) === 'hostile: waiting (consent)' &&
        user.askedWith(flood).length + cappedFlood() === 200 &&
        pendingWith(refA, flood) === user.askedWith(flood).length &&
        pendingWith(refA, flood) <= MAX_PENDING_PER_AGENT &&
        cappedFlood() > 0 &&
        ['two-ok', 'same-id', 'reject-named-allow-always'].every((p) => user.decided.some((d) => d.request.title.includes(`[probe consent.${p}]`))),
      'the consent probes asked, three answered',
    );
    await vscode.commands.executeCommand('acp.cancelTurn', refA);
    assert.strictEqual(await turnEnd(a, refA), 'cancelled');
    done('consent');

    // Rules: an "always allow" of `rm -i tmp.txt`, then eight requests it must not cover.
    await run(refA, 'rules');
    const wider = ['rm-rf-home', 'env-sh', 'sudo', 'bash-lc', 'git-log-output', 'chain', 'other-cwd', 'tool-call'].map((p) => `[probe rules.${p}]`);
    await until(
      () =>
        title(refA) === 'hostile: waiting (rules)' &&
        wider.every((w) => user.asked.some((p) => p.request.title.includes(w)) || user.decided.some((d) => d.request.title.includes(w))),
      'the rules probes asked',
    );
    facts.rulesDuring = internals.broker.rules.filter((r) => r.agentId === A || r.agentId === B);
    await vscode.commands.executeCommand('acp.cancelTurn', refA);
    assert.strictEqual(await turnEnd(a, refA), 'cancelled');
    done('rules');

    // Huge and quadratic input, file plans, unusable ids: the turn must end on its own.
    await run(refA, 'huge');
    assert.strictEqual(await turnEnd(a, refA, 60_000), 'end_turn');
    await internals.plansUi.files.whenLoaded();
    done(
      `huge (${readRecords(path.join(files.results, 'a.json'))
        .filter((r) => /^(huge|quadratic|file-plans|ids)\./.test(r.probe))
        .map((r) => `${r.probe} at ${r.ms} ms`)
        .join(', ')})`,
    );

    // Client services (v1), with the verbose trace on: terminals, writes, reads, depth, the other agent's session.
    const traceOff = await withSetting('trace.server', 'verbose');
    restores.push(traceOff);
    await run(refB, 'client', { otherAgentSession: refA.sessionId });
    await until(
      () =>
        title(refB) === 'hostile: waiting (client)' &&
        user.askedWith('marker-flood-').length >= DEFAULT_TERMINAL_LIMITS.perSession &&
        WRITE_TARGETS.every((t) => user.askedWith(t).length === 1) &&
        user.askedWith('[probe depth.permission-raw-input]').length === 1,
      'the client probes asked',
    );
    for (const m of ['marker-cwd-root', 'marker-ld-preload', 'marker-flood-0', 'hook-ran'])
      assert.strictEqual(fileState(path.join(files.canary, m)), 'absent', `${m} while the requests are pending`);
    await vscode.commands.executeCommand('acp.cancelTurn', refB);
    assert.strictEqual(await turnEnd(a, refB), 'cancelled');
    await traceOff();
    done('client');

    batteryMs = Date.now() - t0;
    measured = host.stop();

    // Facts for the session checks, before the sessions phase adds its own.
    facts.injectedInA = transcriptText(refA).includes('INJECTED-BY-OTHER-AGENT');
    const huge = messageOf(refA, 'huge-message');
    facts.hugeMessageChars = huge.chars;
    facts.hugeTruncated = huge.truncated;
    records = [...readRecords(path.join(files.results, 'a.json')), ...readRecords(path.join(files.results, 'b.json'))];
    const m = measured;
    console.log(
      `[hostile] battery ${(batteryMs / 1000).toFixed(1)} s, ${records.length} probe answers, ${user.asked.length} requests asked, ${user.clicked.size} clicked`,
    );
    console.log(
      `[hostile] event-loop lag p99 ${m.p99Ms} ms, max ${m.maxMs} ms, mean ${m.meanMs} ms; RSS ${m.rssBeforeMiB} → ${m.rssAfterMiB} MiB, heap ${m.heapBeforeMiB} → ${m.heapAfterMiB} MiB (${m.gc}); extension host CPU ${m.cpuS} s in ${m.wallS} s; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    assert.ok(batteryMs < LIMITS.batteryMs, `the battery took ${batteryMs} ms`);
  });

  it('zero silent approvals: every allow was a click; no rule but the one the user made', () => {
    assert.deepStrictEqual(user.silentApprovals(), [], 'requests allowed without a click');
    assert.deepStrictEqual(user.failures, []);
    assert.ok(user.clicked.size >= 5, `the test clicked ${user.clicked.size} times`);
    const clickedProbes = [...user.clicked.values()].map((c) => /\[probe ([^\]]+)\]/.exec(c.title)?.[1]).filter(Boolean);
    const allowedWithoutClick = records.filter((r) => r.optionKind?.startsWith('allow') && !clickedProbes.includes(r.probe));
    assert.deepStrictEqual(allowedWithoutClick, [], 'the agent received an allow the user never clicked');
    // Consent: the id the user picked, never the first "OK"; a shared id answers a reject `cancelled`.
    assert.strictEqual(record('consent.reject-named-allow-always').answer, 'selected reject-named-always');
    assert.strictEqual(record('consent.two-ok').answer, 'selected ok-second');
    assert.strictEqual(record('consent.same-id').answer, 'cancelled');
    const flood = records.filter((r) => r.probe.startsWith('consent.flood-'));
    assert.strictEqual(flood.length, 200);
    assert.deepStrictEqual([...new Set(flood.map((r) => r.answer))], ['cancelled'], 'the flood was never answered but by the cancel');
    // Rules: the only rule is the narrow one the user made; nothing wider was answered by it.
    assert.strictEqual(facts.rulesDuring.length, 1, `rules: ${JSON.stringify(facts.rulesDuring)}`);
    assert.match(JSON.stringify(facts.rulesDuring[0]), /"type":"commandExact"/);
    assert.match(JSON.stringify(facts.rulesDuring[0]), /"rm","-i","tmp.txt"/);
    for (const p of ['rm-rf-home', 'env-sh', 'sudo', 'bash-lc', 'git-log-output', 'chain', 'other-cwd', 'tool-call']) {
      assert.strictEqual(record(`rules.${p}`).answer, 'cancelled', `rules.${p} was answered without the user`);
    }
    assert.deepStrictEqual(
      user.decided.filter((d) => d.auto?.byRule),
      [],
      'a rule answered a request',
    );
  });

  it('zero files touched outside the workspace; writes that run later were asked, never done', () => {
    assert.deepStrictEqual(snapshotTree(files.canary), canaryBefore, 'the canary folder outside the workspace changed');
    for (const t of WRITE_TARGETS) assert.strictEqual(fileState(path.join(files.workspace, t)), targetsBefore[t], `${t} changed`);
    for (const p of ['writes.git-hook', 'writes.vscode-tasks', 'writes.workflow']) assert.match(record(p).answer, /^error /, `${p}: ${record(p).answer}`);
    for (const t of WRITE_TARGETS) assert.strictEqual(user.askedWith(t).length, 1, `the user was asked about ${t}`);
    for (const p of ['writes.dangling-symlink', 'writes.absolute-outside', 'writes.dotdot'])
      assert.match(record(p).answer, /^error /, `${p}: ${record(p).answer}`);
  });

  it('nothing ran in a terminal without a click; terminal ids are scoped; the count is capped', () => {
    for (const p of ['terminals.cwd-root', 'terminals.cwd-dotdot', 'terminals.ld-preload', 'terminals.node-options', 'terminals.path-env']) {
      assert.match(record(p).answer, /^error /, `${p}: ${record(p).answer}`);
    }
    assert.match(record('terminals.approved').answer, /^result \{"terminalId":"term_/);
    assert.match(record('terminals.own-wait').answer, /^result /);
    for (const p of ['terminals.other-session', 'terminals.guessed-id'])
      assert.match(record(p).answer, /^error .*nknown terminal/i, `${p}: ${record(p).answer}`);
    // Another agent's session is refused before any terminal is looked up: this connection never opened it.
    const other = record('terminals.other-agent-session').answer;
    assert.match(other, /^error .*nknown (terminal|session)/i, `terminals.other-agent-session: ${other}`);
    const flood = records.filter((r) => r.probe.startsWith('terminals.flood-'));
    assert.strictEqual(flood.length, 100);
    const capped = flood.filter((r) => /Too many terminals/.test(r.answer)).length;
    const refused = flood.filter((r) => /did not allow/.test(r.answer)).length;
    assert.strictEqual(refused, DEFAULT_TERMINAL_LIMITS.perSession, 'asked up to the per-session limit, none allowed');
    assert.strictEqual(capped + refused, 100, flood.map((r) => r.answer).join('\n'));
    assert.strictEqual(user.askedWith('marker-flood-').length, DEFAULT_TERMINAL_LIMITS.perSession);
    for (let i = 0; i < 100; i++) assert.strictEqual(fileState(path.join(files.canary, `marker-flood-${i}`)), 'absent');
  });

  it('devices, FIFOs, the environment and links out are never read, as files or as plans', () => {
    for (const p of ['reads.proc-environ', 'reads.dev-zero', 'reads.fifo', 'reads.zero-link', 'reads.outside']) {
      assert.match(record(p).answer, /^error /, `${p}: ${record(p).answer}`);
      assert.ok(record(p).ms < 10_000);
    }
    for (const planId of ['file-dev-zero', 'file-fifo', 'file-proc-environ', 'file-zero-link', 'file-outside']) {
      const plan = internals.plans.get({ agentId: A, sessionId: refA.sessionId, planId });
      assert.ok(plan?.file?.error && !plan.file.text, `${planId}: ${JSON.stringify(plan?.file)}`);
    }
  });

  it('keeps the limits: depth, unusable ids, message, plan and archive sizes', () => {
    assert.match(record('depth.deep-request').answer, /^error -32600 /);
    assert.match(record('depth.after-million').answer, /readable after deep/);
    assert.strictEqual(record('depth.permission-raw-input').answer, 'cancelled');
    assert.match(record('ids.null').answer, /^error -32600 /);
    assert.match(record('ids.object').answer, /^error -32600 /);
    assert.ok(
      facts.hugeMessageChars <= 1024 * 1024 && facts.hugeTruncated,
      `the 300 MB message kept ${facts.hugeMessageChars} chars (truncated ${facts.hugeTruncated})`,
    );
    const big = internals.plans.get({ agentId: A, sessionId: refA.sessionId, planId: 'huge-plan' }) ?? assert.fail('no huge-plan');
    const limits = internals.plans.limits;
    assert.ok(
      big.revisions.every((r) => r.plan.type === 'markdown' && Buffer.byteLength(r.plan.content) <= limits.maxPlanBytes && r.truncated),
      'each revision cut to the cap, and says so',
    );
    assert.ok(big.historyBytes <= limits.maxHistoryBytes, `history ${big.historyBytes} bytes`);
    const archived = internals.plans.archived(A, refA.sessionId);
    assert.ok(archived.length <= limits.maxArchived, `${archived.length} archived plans kept`);
    assert.ok(internals.plans.droppedArchived(A, refA.sessionId) >= 10_000 - limits.maxArchived);
    for (const md of ['brackets', 'stars', 'backticks', 'mixed'])
      assert.ok(internals.plans.get({ agentId: A, sessionId: refA.sessionId, planId: `md-${md}` }), `md-${md} parsed`);
  });

  it('keeps secrets out of the ACP log and trace', () => {
    assert.deepStrictEqual(logs.leaks, [], 'secrets reached the ACP log or trace');
    assert.ok(
      logs.stderrLines.some((l) => l.includes('connecting with --api-key')),
      `the agent's stderr was logged: ${logs.stderrLines.join('\n')}`,
    );
    assert.ok(logs.wireLines > 0, 'the verbose trace was on during the client phase');
  });

  it('the extension host stayed responsive and bounded', () => {
    const m = measured ?? assert.fail('the battery did not finish');
    assert.ok(m.p99Ms <= LIMITS.lagP99Ms, `event-loop lag p99 ${m.p99Ms} ms > ${LIMITS.lagP99Ms} ms`);
    assert.ok(m.maxMs <= LIMITS.lagMaxMs, `event-loop lag max ${m.maxMs} ms > ${LIMITS.lagMaxMs} ms`);
    assert.ok(m.cpuS <= LIMITS.hostCpuS, `the extension host used ${m.cpuS} s of CPU > ${LIMITS.hostCpuS} s`);
    assert.ok(
      m.heapAfterMiB - m.heapBeforeMiB <= LIMITS.heapGrowthMiB,
      `the heap grew ${(m.heapAfterMiB - m.heapBeforeMiB).toFixed(1)} MiB > ${LIMITS.heapGrowthMiB} MiB (${m.gc})`,
    );
    assert.ok(
      m.rssAfterMiB - m.rssBeforeMiB <= LIMITS.rssGrowthMiB,
      `RSS grew ${(m.rssAfterMiB - m.rssBeforeMiB).toFixed(1)} MiB > ${LIMITS.rssGrowthMiB} MiB`,
    );
  });

  // class 5: sessions keyed by (agent, session); updates for sessions an agent never
  // created are ignored and reported). Before that fix, agent B's message shows in A's conversation,
  // and 100,000 invented session ids become 100,000 sessions (the host is busy for minutes).
  // ACP_HOSTILE_INVENTED_SESSIONS lowers the count (for a branch without that fix).
  it("sessions belong to their agent: another agent's and 100,000 invented sessions are neither kept nor shown", async () => {
    const invented = Number(process.env.ACP_HOSTILE_INVENTED_SESSIONS ?? 100_000);
    const host = measureHost();
    const t0 = Date.now();
    await run(refA, 'sessions', { inventedSessions: invented });
    assert.strictEqual(await turnEnd(a, refA, 30_000), 'end_turn');
    const ms = Date.now() - t0;
    const m = host.stop();
    console.log(
      `[hostile] ${invented} invented sessions: ${(ms / 1000).toFixed(1)} s; event-loop lag p99 ${m.p99Ms} ms, max ${m.maxMs} ms; RSS ${m.rssBeforeMiB} → ${m.rssAfterMiB} MiB`,
    );
    const pending = internals.broker.pending
      .filter((p) => p.agentId === A || p.agentId === B)
      .map((p) => `${p.agentId} in ${p.request.sessionId}: ${p.request.title}`);
    assert.strictEqual(facts.injectedInA, false, "agent B's message appeared in agent A's conversation");
    assert.deepStrictEqual(
      internals.store.sessions(A).map((s) => s.sessionId),
      [refA.sessionId],
      "A's sessions",
    );
    assert.deepStrictEqual(
      internals.store
        .sessions(B)
        .map((s) => s.sessionId)
        .sort(),
      [refB.sessionId, refB2.sessionId].sort(),
      "B's sessions",
    );
    assert.strictEqual(internals.transcript.sessionIds().filter((s) => s.includes('invented-')).length, 0, 'transcripts of invented sessions');
    const mine = new Set([`${A} ${refA.sessionId}`, `${B} ${refB.sessionId}`, `${B} ${refB2.sessionId}`]);
    const foreign = user.asked
      .filter((p) => !mine.has(`${p.agentId} ${p.request.sessionId}`))
      .map((p) => `${p.agentId} in ${p.request.sessionId}: ${p.request.title}`);
    assert.deepStrictEqual(foreign, [], 'permission requests shown for sessions the agent never created');
    assert.deepStrictEqual(pending, [], 'requests left pending after the battery');
    assert.ok(m.p99Ms <= LIMITS.lagP99Ms && m.maxMs <= LIMITS.lagMaxMs, `event-loop lag p99 ${m.p99Ms} ms, max ${m.maxMs} ms`);
    assert.ok(m.rssAfterMiB - m.rssBeforeMiB <= LIMITS.rssGrowthMiB, `RSS grew ${m.rssAfterMiB - m.rssBeforeMiB} MiB`);
  });

  function transcriptText(ref: { agentId: string; sessionId: string }): string {
    const t = internals.transcript.session(sessionKey(ref.agentId, ref.sessionId));
    return t ? JSON.stringify(t.slice(t.firstIndex)) : '';
  }

  function messageOf(ref: { agentId: string; sessionId: string }, messageId: string): { chars: number; truncated: boolean } {
    const t = internals.transcript.session(sessionKey(ref.agentId, ref.sessionId));
    const m = t?.slice(t.firstIndex).find((i) => i.kind === 'message' && i.messageId === messageId);
    if (!m || m.kind !== 'message') return { chars: -1, truncated: false };
    return { chars: m.parts.reduce((n, p) => n + (p.type === 'text' ? p.length : 0), 0), truncated: !!m.truncated };
  }
});
