// Ten agents at once (a benchmark, not a test: loaded only with ACP_BENCH=1): ten Demo Agent
// processes (v2, each its own `acp.agents` entry), each streaming `/pixel plan <n> <rate>` — one
// item plan rewritten <rate> times a second, default 200/s for 60 s (ACP_TEN_RATE, ACP_TEN_SECONDS)
// — all at once. Measured in the extension host from the ten prompts sent to the ten turns ended:
// the event-loop delay (monitorEventLoopDelay, 10 ms resolution: the delay is what exceeds 10 ms)
// p50/p99/max and the garbage-collection pauses; at the end every session's plan must show its
// last update, and each agent process's RSS is read from /proc. Goal (issue 26): lag p99 ≤ 50 ms.
// The first agent's session is the active one and streams `/pixel mixed` instead (plan updates and
// twice as many message chunks, ~RATE updates/s in all, labelled `a`): through the UI hook, the
// page notes when each of its updates is painted in the Plans tree, the status bar and the
// conversation (issue 26's goals 1–2 for the active session; printed, not asserted).
// Also the extension host's CPU share and the machine's load (on 2 cores, ten agents and the
// workbench compete with the host: a pause is then partly the host waiting for a core). With
// ACP_HEAP=<file>, a sampling heap profile of what is retained after the stream; with ACP_TEN_TRACE=<file>,
// a Chrome trace of the page over the stream; with ACP_TEN_PROFILE=<file>, a CPU profile of the host.
// Prints one line `TENAGENTS {...}`. Run on a quiet machine:
//   node esbuild.mjs && ACP_BENCH=1 MOCHA_GREP='Ten agents' node test/harness/run-vscode-tests.mjs
import * as assert from 'assert';
import * as inspector from 'inspector';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { monitorEventLoopDelay, PerformanceObserver } from 'perf_hooks';
import * as vscode from 'vscode';
import { api, waitFor, type TestApi } from './support/ext';
import { turnEnd, withSetting, type SessionRef } from './support/demo';
import { hasUiHook, startUiTrace, stopUiTrace, waitForUi, waitForWebview, watchedUntil, watchUi } from './ui';

const AGENTS = 10;
const RATE = Number(process.env.ACP_TEN_RATE ?? 200);
const SECONDS = Number(process.env.ACP_TEN_SECONDS ?? 60);
const COUNT = RATE * SECONDS;
const GOAL_P99_MS = 50;
const RESOLUTION_MS = 10;
/** The active session's mixed stream: `MIXED_RATE` plan updates/s and twice as many chunks ≈ RATE/s. */
const MIXED_RATE = Math.round(RATE / 3);
const MIXED_COUNT = MIXED_RATE * SECONDS;
const STAMP = '(\\d+(?:\\.\\d+)?)';

interface Shown {
  shown: number;
  of: number;
  p50: number;
  p95: number;
  max: number;
  /** The last update's send → paint. */
  last: number;
  /** The longest time the surface showed nothing new (newer updates were due all along). */
  stall: number;
}

/** Send → paint of what a watcher saw (value, paint time, send time), against `of` updates. */
function shown(seen: [string, number, string][], of: number): Shown {
  const ms = seen.map(([, at, sent]) => at - Number(sent)).sort((x, y) => x - y);
  const q = (f: number): number => Math.round((ms[Math.min(ms.length - 1, Math.floor(f * ms.length))] ?? NaN) * 10) / 10;
  const at = seen.map(([, t]) => t).sort((x, y) => x - y);
  let stall = 0;
  for (let i = 1; i < at.length; i++) stall = Math.max(stall, at[i]! - at[i - 1]!);
  const last = seen.find(([k]) => Number(k) === of);
  return {
    shown: seen.length,
    of,
    p50: q(0.5),
    p95: q(0.95),
    max: q(1),
    last: last ? Math.round((last[1] - Number(last[2])) * 10) / 10 : NaN,
    stall: Math.round(stall * 10) / 10,
  };
}

/** Reads `file` of /proc/<pid> for each process whose command line names `marker` (gone ones skipped). */
function procsOf<T>(marker: string, file: string, read: (text: string) => T | undefined): T[] {
  const out: T[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue;
      const v = read(fs.readFileSync(`/proc/${pid}/${file}`, 'utf8'));
      if (v !== undefined) out.push(v);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU seconds (user + system) so far of the processes whose command line names `marker`. */
function cpuOf(marker: string): number {
  const ticks = procsOf(marker, 'stat', (stat) => {
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  });
  return ticks.reduce((x, y) => x + y, 0) / 100;
}

/** RSS (MiB) of the processes whose command line names `marker`. */
function rssOf(marker: string): number[] {
  return procsOf(marker, 'status', (status) => {
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 102.4) / 10 : undefined;
  });
}

describe('Ten agents streaming at once', function () {
  this.timeout(15 * 60_000);
  let a: TestApi;
  let restore: (() => Promise<void>) | undefined;
  let dir: string;
  const ids = Array.from({ length: AGENTS }, (_, i) => `agent:Bench ${i + 1}`);

  before(async () => {
    a = await api();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ten-bench-'));
    const agentJs = path.join(__dirname, '..', '..', '..', 'dist', 'demo-agent.js');
    assert.ok(fs.existsSync(agentJs), `the Demo Agent bundle: ${agentJs}`);
    const previous = vscode.workspace.getConfiguration('acp').inspect<unknown[]>('agents')?.globalValue ?? [];
    const defined = waitFor(a.internals.agents.onDidChangeDefinitions, () => ids.every((id) => !!a.internals.agents.get(id)), 10_000, 'ten agents defined');
    const defs = ids.map((_, i) => ({
      name: `Bench ${i + 1}`,
      command: process.execPath,
      protocol: '2',
      args: [agentJs, '--protocol=2', '--delay=0', `--state-dir=${path.join(dir, `agent-${i + 1}`)}`],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    }));
    restore = await withSetting('agents', [...previous, ...defs]);
    await defined;
  });
  after(async () => {
    for (const id of ids) if (a.internals.agents.get(id)?.status === 'running') await vscode.commands.executeCommand('acp.stopAgent', id);
    await restore?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps the extension host's event-loop lag p99 within ${GOAL_P99_MS} ms while ten agents stream ${RATE} plan updates/s for ${SECONDS} s`, async () => {
    const refs: SessionRef[] = [];
    for (const id of ids) {
      const ref = await vscode.commands.executeCommand<SessionRef | undefined>('acp.startAgent', id);
      assert.ok(ref, `${id} started: ${a.internals.agents.get(id)?.lastError ?? ''}`);
      refs.push(ref);
    }
    // The first session is the one on screen: its plan expanded in the tree, its conversation shown.
    const active = refs[0]!;
    const ui = hasUiHook();
    if (ui) {
      await vscode.commands.executeCommand('workbench.view.extension.acp');
      assert.strictEqual(await vscode.commands.executeCommand<boolean>('acp.sendPrompt', active, '/pixel plan 1 50 a'), true);
      assert.strictEqual(await turnEnd(a, active), 'end_turn');
      a.internals.store.setActiveSession(active);
      const node = a.internals.plansUi.tree.planNode({ agentId: active.agentId, sessionId: active.sessionId, planId: 'pixel' });
      // Ten sessions' rows are more than the view shows: reveal scrolls the plan's rows in (again if
      // the tree re-rendered under it, as a person would scroll again).
      for (let i = 0; ; i++) {
        await a.internals.plansUi.treeView.reveal(node, { expand: true, select: false, focus: false });
        const seen = await waitForUi('.part.sidebar .pane-body .monaco-list-row', (t) => t.some((x) => x.includes('tick a1 @')), 5000).then(
          () => true,
          (e: unknown) => (i < 2 ? false : Promise.reject(e)),
        );
        if (seen) break;
      }
      await watchUi('tenTree', '.part.sidebar', `tick a(\\d+) @${STAMP}`);
      await watchUi('tenStatus', '.part.statusbar', `tick a(\\d+) @${STAMP}`);
      // The conversation shows the active session (its first turn's answer) before it is watched.
      await waitForWebview('.transcript', (t) => t.some((x) => x.includes('sent 1 plan updates at 50/s')), 30_000);
      await watchUi('tenChat', 'body', `‹a(\\d+)@${STAMP}›`, true);
    }
    const rssBefore = rssOf(dir);
    const agentCpu0 = cpuOf(dir);
    const gcs: number[] = [];
    const gcObs = new PerformanceObserver((l) => {
      for (const e of l.getEntries()) gcs.push(e.duration);
    });
    gcObs.observe({ entryTypes: ['gc'] });
    const lag = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    const heap0 = process.memoryUsage();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (const ref of refs.slice(1))
      assert.strictEqual(await vscode.commands.executeCommand<boolean>('acp.sendPrompt', ref, `/pixel plan ${COUNT} ${RATE}`), true);
    const first = ui ? `/pixel mixed ${MIXED_COUNT} ${MIXED_RATE} a` : `/pixel plan ${COUNT} ${RATE}`;
    assert.strictEqual(await vscode.commands.executeCommand<boolean>('acp.sendPrompt', active, first), true);
    if (ui) a.internals.store.setActiveSession(active);
    const prof = process.env.ACP_HEAP ? new inspector.Session() : undefined;
    if (prof) {
      prof.connect();
      await new Promise<void>((r) => prof.post('HeapProfiler.startSampling', { samplingInterval: 8192 }, () => r()));
    }
    // ACP_TEN_TRACE=<file>: a Chrome trace of the page over the stream (diagnosis).
    if (ui && process.env.ACP_TEN_TRACE) await startUiTrace();
    // ACP_TEN_PROFILE=<file>: a CPU profile of the extension host over the stream (diagnosis).
    const cpuProf = process.env.ACP_TEN_PROFILE ? new inspector.Session() : undefined;
    const cpuPost = (method: string): Promise<unknown> =>
      new Promise((resolve, reject) => cpuProf!.post(method, {}, (err, r) => (err ? reject(err) : resolve(r))));
    if (cpuProf) {
      cpuProf.connect();
      await cpuPost('Profiler.enable');
      await cpuPost('Profiler.start');
    }
    lag.enable();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      const now = rssOf(dir);
      if (now.reduce((x, y) => x + y, 0) > rssPeak.reduce((x, y) => x + y, 0)) rssPeak = now;
    }, 5000);
    try {
      for (const ref of refs) assert.strictEqual(await turnEnd(a, ref, (SECONDS + 120) * 1000), 'end_turn');
    } finally {
      clearInterval(sampler);
      lag.disable();
      gcObs.disconnect();
    }
    const streamMs = Math.round(performance.now() - t0);
    const agentCpu = cpuOf(dir) - agentCpu0;
    if (ui && process.env.ACP_TEN_TRACE) await stopUiTrace(process.env.ACP_TEN_TRACE);
    if (cpuProf) {
      const r = (await cpuPost('Profiler.stop')) as { profile: unknown };
      fs.writeFileSync(process.env.ACP_TEN_PROFILE!, JSON.stringify(r.profile));
      cpuProf.disconnect();
    }
    const cpu = process.cpuUsage(cpu0);
    if (prof) {
      await new Promise<void>((r) => prof.post('HeapProfiler.collectGarbage', () => r()));
      await new Promise<void>((r) =>
        prof.post('HeapProfiler.stopSampling', (_e, res) => {
          fs.writeFileSync(process.env.ACP_HEAP!, JSON.stringify((res as { profile: unknown }).profile));
          r();
        }),
      );
      prof.disconnect();
    }
    const heap1 = process.memoryUsage();
    // What stays: the heap after a full collection.
    const gcSession = new inspector.Session();
    gcSession.connect();
    await new Promise<void>((r) => gcSession.post('HeapProfiler.collectGarbage', () => r()));
    gcSession.disconnect();
    const kept = process.memoryUsage();
    // Every session's plan shows its last update: the first entry names the last tick, completed.
    const wrong = refs.filter((r) => {
      const plan = a.internals.plans.get({ agentId: r.agentId, sessionId: r.sessionId, planId: 'pixel' })?.plan;
      const entry = plan?.type === 'items' ? plan.entries[0] : undefined;
      const last = ui && r === active ? `tick a${MIXED_COUNT} @` : `tick ${COUNT} @`;
      return !entry || !entry.content.startsWith(last) || entry.status !== 'completed';
    });
    // What the page painted of the active session, once its last updates are on screen (5 s at most).
    const has = (n: number) => (seen: [string, number, string][]) => seen.some(([k]) => Number(k) === n);
    const painted = ui
      ? {
          tree: await watchedUntil('tenTree', has(MIXED_COUNT), 5000),
          status: await watchedUntil('tenStatus', has(MIXED_COUNT), 5000),
          chat: await watchedUntil('tenChat', has(2 * MIXED_COUNT), 5000, true),
        }
      : undefined;
    const ms = (ns: number): number => Math.round(Math.max(0, ns / 1e6 - RESOLUTION_MS) * 100) / 100;
    const sorted = [...gcs].sort((x, y) => y - x);
    const result = {
      agents: AGENTS,
      rate: RATE,
      seconds: SECONDS,
      streamMs,
      p50Ms: ms(lag.percentile(50)),
      p99Ms: ms(lag.percentile(99)),
      maxMs: ms(lag.max),
      samples: lag.count,
      gcCount: gcs.length,
      gcLongestMs: sorted.slice(0, 3).map((d) => Math.round(d * 10) / 10),
      plansRight: AGENTS - wrong.length,
      // The extension host's CPU time over the stream, as a share of one core, and the machine's load.
      hostCpuShare: Math.round(((cpu.user + cpu.system) / 1000 / streamMs) * 100) / 100,
      load1: Math.round(os.loadavg()[0]! * 100) / 100,
      hostRssMiB: [Math.round(heap0.rss / 1048576), Math.round(heap1.rss / 1048576)],
      hostHeapMiB: { before: Math.round(heap0.heapUsed / 1048576), end: Math.round(heap1.heapUsed / 1048576), afterGc: Math.round(kept.heapUsed / 1048576) },
      agentRssMiB: rssPeak,
      // The ten agent processes' CPU over the stream, in cores (they share the machine's two).
      agentsCpuShare: Math.round((agentCpu / (streamMs / 1000)) * 100) / 100,
      // The active session's mixed stream as painted (send → paint, ms), when the UI hook is there.
      ...(painted
        ? {
            active: {
              planRate: MIXED_RATE,
              tree: shown(painted.tree, MIXED_COUNT),
              status: shown(painted.status, MIXED_COUNT),
              chat: shown(painted.chat, 2 * MIXED_COUNT),
            },
          }
        : {}),
      goalP99Ms: GOAL_P99_MS,
    };
    console.log(`TENAGENTS ${JSON.stringify(result)}`);
    assert.deepStrictEqual(
      wrong.map((r) => r.agentId),
      [],
      'every session ends with its last plan update',
    );
    assert.ok(result.p99Ms <= GOAL_P99_MS, `event-loop lag p99 ${result.p99Ms} ms > ${GOAL_P99_MS} ms (measured on a loaded machine it means little)`);
  });
});
