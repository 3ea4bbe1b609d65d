// Ten agents at once (a benchmark, not a test: loaded only with ACP_BENCH=1): ten Demo Agent
// processes (v2, each its own `acp.agents` entry), each streaming `/pixel plan <n> <rate>` — one
// item plan rewritten <rate> times a second, default 200/s for 60 s (ACP_TEN_RATE, ACP_TEN_SECONDS)
// — all at once. Measured in the extension host from the ten prompts sent to the ten turns ended:
// the event-loop delay (monitorEventLoopDelay, 10 ms resolution: the delay is what exceeds 10 ms)
// p50/p99/max and the garbage-collection pauses; at the end every session's plan must show its
// last update, and each agent process's RSS is read from /proc. Goal (issue 26): lag p99 ≤ 50 ms.
// Also the extension host's CPU share and the machine's load (on 2 cores, ten agents and the
// workbench compete with the host: a pause is then partly the host waiting for a core). With
// ACP_HEAP=<file>, a sampling heap profile of what is retained after the stream.
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

const AGENTS = 10;
const RATE = Number(process.env.ACP_TEN_RATE ?? 200);
const SECONDS = Number(process.env.ACP_TEN_SECONDS ?? 60);
const COUNT = RATE * SECONDS;
const GOAL_P99_MS = 50;
const RESOLUTION_MS = 10;

/** RSS (MiB) of the processes whose command line names `marker`. */
function rssOf(marker: string): number[] {
  const out: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue;
      const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (kb) out.push(Math.round(Number(kb) / 102.4) / 10);
    } catch {
      // gone meanwhile
    }
  }
  return out;
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
    const rssBefore = rssOf(dir);
    const gcs: number[] = [];
    const gcObs = new PerformanceObserver((l) => {
      for (const e of l.getEntries()) gcs.push(e.duration);
    });
    gcObs.observe({ entryTypes: ['gc'] });
    const lag = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    const heap0 = process.memoryUsage();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (const ref of refs) assert.strictEqual(await vscode.commands.executeCommand<boolean>('acp.sendPrompt', ref, `/pixel plan ${COUNT} ${RATE}`), true);
    const prof = process.env.ACP_HEAP ? new inspector.Session() : undefined;
    if (prof) {
      prof.connect();
      await new Promise<void>((r) => prof.post('HeapProfiler.startSampling', { samplingInterval: 8192 }, () => r()));
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
      return !entry || !entry.content.startsWith(`tick ${COUNT} @`) || entry.status !== 'completed';
    });
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
