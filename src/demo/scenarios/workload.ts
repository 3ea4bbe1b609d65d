// `/workload <rate>`: the steady-cost benchmark's scripted turn (bench/vscode.mjs, issue 26 goal 5):
// 2,000 message chunks, 41 plan updates and 500 tool-call events (100 calls: created, running, two
// output chunks, completed), interleaved evenly, sent at `rate` updates a second — 0 (the default)
// sends them back to back, as a burst. Every chunk is `‹<k>@<send time>› ` like `/pixel`'s, and the
// last update is the last chunk, so the page can tell when the turn's end became visible.

import { type Scenario } from './scenario';

export const WORKLOAD = { chunks: 2000, plans: 41, tools: 100, eventsPerTool: 5 } as const;
const STEPS = 20;

type Step = { kind: 'chunk'; k: number } | { kind: 'plan'; k: number } | { kind: 'tool'; k: number };

/** The turn's updates in the order they are sent (every kind spread evenly; the last chunk last). */
export function workloadSteps(): Step[] {
  const tools = WORKLOAD.tools * WORKLOAD.eventsPerTool;
  const all: [number, Step][] = [];
  const spread = (n: number, kind: Step['kind']): void => {
    for (let k = 1; k <= n; k++) all.push([k / (n + 1), { kind, k }]);
  };
  spread(WORKLOAD.chunks - 1, 'chunk');
  spread(WORKLOAD.plans, 'plan');
  spread(tools, 'tool');
  all.sort((a, b) => a[0] - b[0]);
  return [...all.map(([, s]) => s), { kind: 'chunk', k: WORKLOAD.chunks }];
}

const wallClock = (): number => performance.timeOrigin + performance.now();

export const workloadScenario: Scenario = {
  name: 'workload',
  description: 'Send a scripted turn of 2,541 updates at a steady rate, or as a burst (benchmark)',
  hint: 'updates per second (0: as fast as possible)',
  async run(turn, args) {
    const rate = Math.max(0, Math.min(5000, Number.parseInt(args, 10) || 0));
    const messageId = turn.id('msg');
    const steps = workloadSteps();
    const start = wallClock();
    for (let i = 0; i < steps.length; i++) {
      if (rate > 0) {
        const wait = start + (i * 1000) / rate - wallClock();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      }
      const s = steps[i];
      if (s.kind === 'chunk') turn.emit({ kind: 'message', role: 'agent', messageId, blocks: [{ type: 'text', text: `‹${s.k}@${wallClock().toFixed(1)}› ` }] });
      else if (s.kind === 'plan') {
        const done = Math.floor(((s.k - 1) * STEPS) / (WORKLOAD.plans - 1));
        turn.emit({
          kind: 'plan',
          plan: {
            type: 'items',
            planId: 'workload',
            entries: Array.from({ length: STEPS }, (_, j) => ({
              content: `Workload step ${j + 1}`,
              priority: 'medium' as const,
              status: j < done ? ('completed' as const) : j === done ? ('in_progress' as const) : ('pending' as const),
            })),
          },
        });
      } else {
        const call = Math.ceil(s.k / WORKLOAD.eventsPerTool);
        const toolCallId = `workload-${call}`;
        const phase = (s.k - 1) % WORKLOAD.eventsPerTool;
        if (phase === 0) turn.emit({ kind: 'tool', patch: { toolCallId, title: `Read file ${call}`, kind: 'read', status: 'pending' } });
        else if (phase === 1) turn.emit({ kind: 'tool', patch: { toolCallId, status: 'in_progress' } });
        else if (phase < 4) turn.emit({ kind: 'toolChunk', toolCallId, content: { type: 'text', text: `line ${phase - 1} of call ${call}\n` } });
        else turn.emit({ kind: 'tool', patch: { toolCallId, status: 'completed' } });
      }
    }
    turn.say(`workload: sent ${steps.length} updates at ${rate || 'full speed'}${rate ? '/s' : ''}`);
    await turn.pace();
  },
};
