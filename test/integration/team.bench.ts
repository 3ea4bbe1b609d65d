// Five agents at once (a benchmark, not a test: loaded only with ACP_BENCH=1): Run Prompt on
// Several Agents with five Demo Agent sessions, each in its own worktree of a temporary
// repository, all streaming the burst scenario (`/burst <n>`: n plan updates back to back, default
// 2000 each, ACP_TEAM_BURST). Measured in the extension host while they stream: the event-loop
// delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution) p50/p99/max, from the five prompts
// sent to the five turns ended (the worktrees' creation is timed apart). Goal: p99 ≤ 50 ms.
// Prints one line `TEAMLAG {...}` and `TEAMGC [...]` (the extension host's garbage-collection
// pauses meanwhile, ms); with ACP_PROFILE=<file> also writes a CPU profile of the stream there.
// Run on a quiet machine:
//   node esbuild.mjs && ACP_BENCH=1 MOCHA_GREP='Five agents' node test/harness/run-vscode-tests.mjs
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { monitorEventLoopDelay, PerformanceObserver } from 'perf_hooks';
import * as inspector from 'inspector';
import * as vscode from 'vscode';
import { TEST_HOOKS_KEY, type TestHooks } from '../../src/testHooks';
import { startDemo, turnEnd, type SessionRef } from './support/demo';
import type { TestApi } from './support/ext';

/** PerformanceObserver's gc kinds: minor (scavenge), major (mark-compact), incremental marking, weak callbacks. */
const GC_KINDS: Record<number, string> = { 1: ' minor', 2: ' major', 4: ' incremental', 8: ' weak' };
const BURST = Number(process.env.ACP_TEAM_BURST ?? 2000);
const GOAL_P99_MS = 50;

describe('Five agents streaming at once', function () {
  this.timeout(600000);
  let a: TestApi;
  let restore: () => Promise<void>;
  let dir: string;

  before(async () => {
    ({ a, restore } = await startDemo('1'));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-team-bench-'));
    const repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
    const sh = (...args: string[]) => execFileSync('git', args, { cwd: repo });
    sh('init', '-q', '-b', 'main');
    sh('-c', 'user.email=bench@example.com', '-c', 'user.name=Bench', 'commit', '-q', '--allow-empty', '-m', 'base');
  });
  after(async () => {
    const team = ((globalThis as Record<symbol, unknown>)[TEST_HOOKS_KEY] as TestHooks).ext.team;
    for (const w of team.sessions.worktrees()) await team.sessions.forget(w.path);
    await restore?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps the extension host's event-loop lag p99 within ${GOAL_P99_MS} ms while five Demo Agents stream /burst ${BURST}`, async () => {
    // The worktrees and sessions are made first (git and the agent's start are not the streaming measured):
    // the monitor starts when the five prompts have been sent.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    const t0 = performance.now();
    const refs = await vscode.commands.executeCommand<SessionRef[] | undefined>('acp.runPromptOnSeveralAgents', {
      folder: path.join(dir, 'repo'),
      agents: ['demo', 'demo', 'demo', 'demo', 'demo'],
      prompt: `/burst ${BURST}`,
    });
    assert.ok(refs && refs.length === 5, 'five sessions started');
    const gcs: string[] = [];
    const heap0 = process.memoryUsage();
    const gcObs = new PerformanceObserver((l) => {
      for (const e of l.getEntries())
        gcs.push(`${Math.round(e.duration * 10) / 10}${GC_KINDS[(e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? '?'}`);
    });
    gcObs.observe({ entryTypes: ['gc'] });
    const prof = process.env.ACP_PROFILE ? new inspector.Session() : undefined;
    if (prof) {
      prof.connect();
      if (process.env.ACP_HEAP)
        await new Promise<void>((r) =>
          prof.post(
            'HeapProfiler.startSampling',
            { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true },
            () => r(),
          ),
        );
      await new Promise<void>((r) =>
        prof.post('Profiler.enable', () => prof.post('Profiler.setSamplingInterval', { interval: 200 }, () => prof.post('Profiler.start', () => r()))),
      );
    }
    lag.enable();
    const setupMs = Math.round(performance.now() - t0);
    for (const r of refs) assert.strictEqual(await turnEnd(a, r, 480000), 'end_turn');
    lag.disable();
    gcObs.disconnect();
    const heap1 = process.memoryUsage();
    const mb = (n: number): number => Math.round(n / 1e6);
    console.log(
      `TEAMGC ${JSON.stringify(gcs)} heap ${mb(heap0.heapUsed)}→${mb(heap1.heapUsed)} MB of ${mb(heap1.heapTotal)}, rss ${mb(heap0.rss)}→${mb(heap1.rss)} MB`,
    );
    if (prof) {
      if (process.env.ACP_HEAP)
        await new Promise<void>((r) =>
          prof.post('HeapProfiler.stopSampling', (_e, res) => {
            fs.writeFileSync(process.env.ACP_HEAP!, JSON.stringify((res as { profile: unknown }).profile));
            r();
          }),
        );
      await new Promise<void>((r) =>
        prof.post('Profiler.stop', (_e, res) => {
          fs.writeFileSync(process.env.ACP_PROFILE!, JSON.stringify((res as { profile: unknown }).profile));
          r();
        }),
      );
      prof.disconnect();
    }
    const ms = (ns: number): number => Math.round(ns / 1e4) / 100;
    const result = {
      sessions: refs.length,
      burst: BURST,
      setupMs,
      streamMs: Math.round(performance.now() - t0) - setupMs,
      p50Ms: ms(lag.percentile(50)),
      p99Ms: ms(lag.percentile(99)),
      maxMs: ms(lag.max),
      // 10 ms samples: over ~1 s (the default burst) p99 is the largest delay or the one below it.
      samples: lag.count,
      goalP99Ms: GOAL_P99_MS,
    };
    console.log(`TEAMLAG ${JSON.stringify(result)}`);
    assert.ok(result.p99Ms <= GOAL_P99_MS, `event-loop lag p99 ${result.p99Ms} ms > ${GOAL_P99_MS} ms (measured on a loaded machine it means little)`);
  });
});
