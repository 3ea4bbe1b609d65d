// The longest stall of the host while a large history is restored: writes 51 stored sessions of
// 20,000 items in all (one of 10,000; agent messages, tool calls, plan updates) with the real
// history writer into a temporary folder, then restores them into fresh stores (the same
// SessionHistory.restore a reload runs) while a setImmediate probe notes the longest gap between
// two turns of the event loop, in wall-clock time and in the process's CPU time (on a loaded machine
// the wall clock counts the time the scheduler gave to others). Prints one JSON line. Run through bench/restore-stall.mjs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore } from '../../src/app/history/historyStore';
import { SessionHistory } from '../../src/app/history/sessionHistory';
import type { SessionEvent } from '../../src/protocol/domain';
import { WorkStore } from '../../src/state/attribution/workStore';
import { PlanStore } from '../../src/state/planStore';
import { SessionStore } from '../../src/state/sessionStore';
import { Transcript } from '../../src/state/transcript';

const [sessionsArg, itemsArg, longArg] = process.argv.slice(2);
const SESSIONS = Number(sessionsArg ?? 51);
const ITEMS = Number(itemsArg ?? 20_000);
const LONG = Number(longArg ?? 10_000);

function event(sessionId: string, i: number): SessionEvent {
  if (i % 10 === 5)
    return { sessionId, kind: 'tool_call', toolCallId: `call-${i}`, fields: { title: `Read file ${i}`, kind: 'read', status: 'completed' } } as SessionEvent;
  if (i % 10 === 7) {
    const entries = Array.from({ length: 20 }, (_, j) => ({ content: `Step ${j}`, status: j < i % 20 ? 'completed' : 'pending', priority: 'medium' }));
    return { sessionId, kind: 'plan_update', plan: { type: 'items', planId: 'plan', entries } } as SessionEvent;
  }
  return { sessionId, kind: 'message_chunk', role: 'agent', messageId: `m-${i}`, content: { type: 'text', text: `Item ${i}: ${'some words '.repeat(12)}` } };
}

function world(dir: string) {
  const history = new HistoryStore(dir, { maxSessions: 100, maxBytes: 1e9, maxPlanRevisions: 200, warn: () => undefined });
  const store = new SessionStore();
  const plans = new PlanStore();
  const h = new SessionHistory({
    history,
    store,
    plans,
    transcript: new Transcript(),
    work: new WorkStore(),
    agentName: () => 'Stored agent',
    ignored: () => false,
    setReplayTime: () => undefined,
  });
  store.onDidChange((c) => c.scope === 'session' && c.kind !== 'removed' && h.describe(c));
  return { history, store, plans, h };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-restore-stall-'));
  try {
    const w = world(dir);
    const per = Math.ceil((ITEMS - LONG) / Math.max(1, SESSIONS - 1));
    for (let s = 0, written = 0; s < SESSIONS; s++) {
      const agentId = `agent-${s % 3}`;
      const sessionId = `stored-${s}`;
      w.store.addStoredSession(agentId, sessionId, { title: `Stored session ${s}` });
      const n = s === 0 ? LONG : Math.min(per, ITEMS - LONG - written);
      for (let i = 0; i < n; i++) {
        const e = event(sessionId, i);
        w.store.applyEvent(agentId, e);
        w.plans.apply(agentId, e);
        w.h.record(agentId, sessionId, { t: i + 1, e });
      }
      if (s > 0) written += n;
      await w.history.flush();
    }
    w.h.dispose();
    const r = world(dir);
    const gaps: number[] = [];
    let last = performance.now();
    let lastCpu = process.cpuUsage();
    let maxCpuMs = 0;
    let on = true;
    const probe = (): void => {
      const t = performance.now();
      const cpu = process.cpuUsage(lastCpu);
      gaps.push(t - last);
      maxCpuMs = Math.max(maxCpuMs, (cpu.user + cpu.system) / 1000);
      last = t;
      lastCpu = process.cpuUsage();
      if (on) setImmediate(probe);
    };
    const t0 = performance.now();
    setImmediate(probe);
    r.h.restore();
    const restoreCallMs = performance.now() - t0;
    await r.h.whenRestored();
    on = false;
    gaps.sort((a, b) => a - b);
    const at = (q: number): number => gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))] ?? 0;
    process.stdout.write(
      `${JSON.stringify({ sessions: SESSIONS, items: ITEMS, restoreCallMs, totalMs: performance.now() - t0, turns: gaps.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: gaps.at(-1) ?? 0, maxCpuMs })}\n`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
