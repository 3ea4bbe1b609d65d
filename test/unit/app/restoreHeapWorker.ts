// A worker thread for historyBounds.test.ts: restores one stored session (the folder given as
// workerData) into fresh stores, as a reload does, and posts the heap growth it saw and the plan's
// last state. Run in a worker with a heap limit, so a restore that costs more than its limit ends
// the worker (reported to the test), not the test run.
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { HistoryStore } from '../../../src/app/history/historyStore';
import { SessionHistory } from '../../../src/app/history/sessionHistory';
import { PlanStore } from '../../../src/state/planStore';
import { SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';

export interface HeapReport {
  baseMiB: number;
  peakGrowthMiB: number;
  entries: number;
  entry7: unknown;
  warnings: string[];
}

function gc(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

async function main(dir: string): Promise<HeapReport> {
  const warnings: string[] = [];
  const history = new HistoryStore(dir, { maxSessions: 10, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: (m) => warnings.push(m) });
  const plans = new PlanStore();
  const h = new SessionHistory({
    history,
    store: new SessionStore(),
    plans,
    transcript: new Transcript(),
    agentName: () => 'Demo',
    ignored: () => false,
    setReplayTime: () => undefined,
  });
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  let sampling = true;
  // Between the restore's slices (it yields to the event loop between them): the heap it holds.
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    if (sampling) setImmediate(sample);
  };
  sample();
  h.restore();
  await h.whenRestored();
  sampling = false;
  sample();
  const p = plans.get({ agentId: 'demo', sessionId: 's1', planId: 'big' });
  const entries = p?.plan.type === 'items' ? p.plan.entries : [];
  return { baseMiB: base / 1048576, peakGrowthMiB: (peak - base) / 1048576, entries: entries.length, entry7: entries[7], warnings };
}

if (parentPort) {
  const port = parentPort;
  main(workerData as string).then(
    (r) => port.postMessage(r),
    (err: unknown) => port.postMessage({ error: String(err) }),
  );
}
