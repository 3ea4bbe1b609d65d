// Consumer (a): our whole pipeline. The agent's stdout goes through our NDJSON transport,
// connect() (v2 negotiated), the v2 schemas and adapter, then into PlanStore.apply and
// Transcript.apply, synchronously, as the extension does. Checks that every update arrived and
// that the plan store ends with the generator's last plan of every planId.
// With a storage folder (argv 5, "(a+p)"), persistence is on, as in the extension: the session
// store too, and the real SessionHistory recording every event into a real HistoryStore; the time
// then runs until the last record is flushed to disk (bench/src/persist.ts).
import { readFileSync, statSync } from 'node:fs';
import { connect } from '../../../src/protocol/connect';
import type { PlanEntry } from '../../../src/protocol/domain';
import { PlanStore } from '../../../src/state/planStore';
import { Transcript } from '../../../src/state/transcript';
import { args, cpuUs, fail, heapAfterGc, maxRss, now, report, spawnProducer } from '../common';
import { Persistence, type PersistStats } from '../persist';

const CONSUMER = 'ours';
const AGENT = 'bench-agent';

interface Expected {
  sessionId: string;
  expected: { lastPlan: Record<string, PlanEntry[]>; agentText: number; toolCalls: number };
}

async function main(): Promise<void> {
  const a = args();
  const exp = JSON.parse(readFileSync(a.expected, 'utf8')) as Expected;
  const child = spawnProducer(a);
  const plans = new PlanStore();
  const transcript = new Transcript();
  const persistDir = process.argv[6];
  const persist = persistDir ? new Persistence(persistDir, AGENT, exp.sessionId, plans, transcript) : undefined;
  let count = 0;
  let t1 = 0;
  let c1 = 0;
  let tailMs = 0;
  let onAll!: () => void;
  const all = new Promise<void>((resolve) => {
    onAll = resolve;
  });
  const conn = await connect(
    { readable: child.stdout, writable: child.stdin },
    {
      protocol: 'auto',
      clientInfo: { name: 'acp-plans-bench', version: '0.0.0' },
      handlers: {
        onEvent(e) {
          if (persist) persist.apply(e);
          else {
            plans.apply(AGENT, e);
            transcript.apply(e);
          }
          if (++count === a.count) {
            if (persist) {
              const tl = now();
              void persist.flush().then(() => {
                t1 = now();
                c1 = cpuUs();
                tailMs = t1 - tl;
                onAll();
              });
            } else {
              t1 = now();
              c1 = cpuUs();
              onAll();
            }
          }
        },
        requestPermission: () => Promise.resolve({ outcome: 'cancelled' }),
      },
    },
  );
  const t0 = now();
  const c0 = cpuUs();
  const closed = new Promise<void>((resolve) => {
    conn.onClose(() => resolve());
  });
  await Promise.race([all, closed]);
  await closed;
  if (count === a.count) await all; // with persistence: until the last record is on disk
  const seconds = (t1 - t0) / 1000;
  let persisted: PersistStats | undefined;
  // bench/profile.mjs profiles the timed part only: no reload of the log after it.
  if (persist && !process.env.BENCH_PROFILE) persisted = await persist.stats();

  // Checks.
  const problems: string[] = [];
  if (conn.version !== 2) problems.push(`negotiated v${conn.version}`);
  if (count !== a.count) problems.push(`${count} events for ${a.count} updates`);
  let revisions = 0;
  let dropped = 0;
  for (const [planId, entries] of Object.entries(exp.expected.lastPlan)) {
    const rec = plans.get({ agentId: AGENT, sessionId: exp.sessionId, planId });
    if (!rec || rec.plan.type !== 'items') {
      problems.push(`plan ${planId} missing`);
      continue;
    }
    const got = rec.plan.entries.map((x) => ({ content: x.content, priority: x.priority, status: x.status }));
    if (JSON.stringify(got) !== JSON.stringify(entries)) problems.push(`plan ${planId} differs from the generator's last plan`);
    revisions += rec.revisions.length;
    dropped += rec.droppedRevisions;
  }
  const transcriptKey = persist ? persist.key(exp.sessionId) : exp.sessionId;
  const { agentText, toolCalls, items } = transcriptTotals(transcript, transcriptKey);
  if (agentText !== exp.expected.agentText) problems.push(`agent text ${agentText} chars, expected ${exp.expected.agentText}`);
  if (toolCalls !== exp.expected.toolCalls) problems.push(`${toolCalls} tool calls, expected ${exp.expected.toolCalls}`);
  if (persisted?.replayDifference) problems.push(`restored from the log: ${persisted.replayDifference}`);

  // Heap with everything held, then without the plan store, then without the transcript.
  const heap = heapAfterGc();
  plans.clearAgent(AGENT);
  const heapNoPlans = heapAfterGc();
  transcript.removeSession(transcriptKey);
  const heapNoTranscript = heapAfterGc();
  conn.dispose();
  child.kill();
  report({
    consumer: persist ? `${CONSUMER}+persist` : CONSUMER,
    updates: count,
    seconds,
    updatesPerSec: count / seconds,
    cpuUsPerUpdate: (c1 - c0) / count,
    maxRss: maxRss(),
    ok: problems.length === 0,
    problems,
    heap: {
      total: heap,
      planStore: heap !== null && heapNoPlans !== null ? heap - heapNoPlans : null,
      transcript: heapNoPlans !== null && heapNoTranscript !== null ? heapNoPlans - heapNoTranscript : null,
    },
    plans: { count: Object.keys(exp.expected.lastPlan).length, revisionsHeld: revisions, revisionsDropped: dropped, maxRevisions: plans.maxRevisions },
    transcriptItems: items,
    ...(persisted ? { persist: { ...persisted, wireBytes: statSync(a.stream).size, tailMs } } : {}),
  });
  process.exit(0);
}

function transcriptTotals(transcript: Transcript, sessionId: string): { agentText: number; toolCalls: number; items: number } {
  const session = transcript.session(sessionId);
  let agentText = 0;
  let toolCalls = 0;
  let items = 0;
  for (const it of session ? session.slice(session.firstIndex) : []) {
    items++;
    if (it.kind === 'message' && it.role === 'agent') for (const p of it.parts) agentText += p.type === 'text' ? p.length : 0;
    if (it.kind === 'tool_call') toolCalls++;
  }
  return { agentText, toolCalls, items };
}

main().catch((err: unknown) => fail(CONSUMER, err));
