// One memory budget per agent: an agent cannot multiply the per-plan and per-session caps by
// opening more plans or subagent sessions. Through the real stores, built and fed as the
// composition root does (src/root/acpExtension.ts `apply`), with the notice it adds: 1,000
// Markdown plans of 1 MiB, and 100 subagent sessions with 8 MiB of messages each, stay within the
// agent's budget (the accountant's total and the heap), the newest state of every live plan is
// kept, and the cut is said once.
import assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { PlanContent, SessionEvent } from '../../../src/protocol/domain';
import { AgentBudget, budgetCutText } from '../../../src/state/agentBudget';
import { PlanStore } from '../../../src/state/planStore';
import { sessionKey, SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';

const MiB = 1024 * 1024;
const A = 'hostile';

function gc(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/** A fresh flat string of `bytes` characters, as the wire's JSON parser makes it (never shared). */
function wireText(bytes: number, tag: string): string {
  const head = `# ${tag}\n\n`;
  return head + Buffer.alloc(bytes - head.length, 'abcdefghij klmnopqrs\n').toString('latin1');
}

/** The stores as the composition root builds them, its `apply`, and the notices it adds. */
function build(budgetBytes: number) {
  const budget = new AgentBudget(budgetBytes);
  const store = new SessionStore({ budget });
  const plans = new PlanStore({ budget });
  const transcript = new Transcript({ budget });
  const apply = (agentId: string, e: SessionEvent): void => {
    store.applyEvent(agentId, e);
    plans.apply(agentId, e);
    transcript.apply(e, sessionKey(agentId, e.sessionId));
  };
  const said: string[] = [];
  budget.onDidCut((cut) => {
    const text = budgetCutText('Hostile Agent', cut);
    said.push(text);
    if (cut.sessionId !== undefined) apply(cut.agentId, { kind: 'notice', sessionId: cut.sessionId, severity: 'warning', title: text });
  });
  store.attachSession(A, 'main');
  return { budget, store, plans, transcript, apply, said };
}

function contentOf(plan: PlanContent): string | undefined {
  return plan.type === 'markdown' ? plan.content : undefined;
}

/** Growth of the heap and of external memory (Node keeps a string of over about 1 MB made from a Buffer outside the heap). */
function heapGrowth(run: () => void): number {
  const used = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  gc();
  const before = used();
  run();
  gc();
  return used() - before;
}

describe('One memory budget per agent', function () {
  this.timeout(120_000);

  it('1,000 Markdown plans of 1 MiB in one session: within the budget, live plans capped, the newest of each kept', () => {
    const s = build(256 * MiB);
    let last = '';
    const grew = heapGrowth(() => {
      for (let i = 0; i < 1_000; i++) {
        last = wireText(MiB - 64, `plan ${i}`);
        s.apply(A, { kind: 'plan_update', sessionId: 'main', plan: { type: 'markdown', planId: `p${i}`, content: last } });
      }
    });
    assert.ok(s.budget.total(A) <= 256 * MiB, `the agent holds ${(s.budget.total(A) / MiB).toFixed(0)} MiB`);
    assert.ok(grew < 2 * 256 * MiB, `the heap grew ${(grew / MiB).toFixed(0)} MiB`);
    const live = s.plans.plans(A, 'main');
    assert.ok(live.length <= 200, `${live.length} live plans`);
    assert.equal(live.at(-1)!.planId, 'p999');
    assert.equal(contentOf(live.at(-1)!.plan), last, 'the newest plan is kept whole');
    assert.deepEqual(s.said, ['Hostile Agent has more than 200 live plans in one session; the least recently updated ones are archived.']);
  });

  it('400 Markdown plans across 10 sessions, 2 revisions of 512 KiB each: within the budget and the heap, the newest plan whole, said once', () => {
    const s = build(256 * MiB);
    for (let k = 0; k < 10; k++) s.store.attachSession(A, `s${k}`);
    let last = '';
    const grew = heapGrowth(() => {
      for (let i = 0; i < 400; i++) {
        for (let r = 0; r < 2; r++) {
          last = wireText(MiB / 2, `plan ${i} rev ${r}`);
          s.apply(A, { kind: 'plan_update', sessionId: `s${i % 10}`, plan: { type: 'markdown', planId: `p${i}`, content: last } });
        }
      }
    });
    assert.ok(s.budget.total(A) <= 256 * MiB, `the agent holds ${(s.budget.total(A) / MiB).toFixed(0)} MiB`);
    assert.ok(grew < 2 * 256 * MiB, `the heap grew ${(grew / MiB).toFixed(0)} MiB`);
    const newest = s.plans.get({ agentId: A, sessionId: 's9', planId: 'p399' });
    assert.equal(newest && contentOf(newest.plan), last);
    const memory = s.said.filter((t) => t.includes('memory budget'));
    assert.equal(memory.length, 1, s.said.join('\n'));
    assert.match(
      memory[0]!,
      /^Hostile Agent sent more than 256 MiB; the oldest .*plan.* were cut to stay within its memory budget \(acp\.limits\.agentMemoryMiB\)\.$/,
    );
    const notices = s.transcript.sessionIds().flatMap((key) => {
      const t = s.transcript.session(key)!;
      return t.slice(t.firstIndex).filter((item) => item.kind === 'notice');
    });
    assert.equal(notices.length, 1, 'one notice, in the session whose update passed the budget');
  });

  it('100 subagent sessions with 8 MiB of messages each: within the budget and the heap, said once in the session', () => {
    const s = build(256 * MiB);
    const grew = heapGrowth(() => {
      for (let c = 0; c < 100; c++) {
        const child = `main:sub:${c}`;
        s.apply(A, { kind: 'subagent', sessionId: 'main', childSessionId: child });
        for (let m = 0; m < 8; m++) {
          s.apply(A, {
            kind: 'message_chunk',
            sessionId: child,
            role: 'agent',
            messageId: `m${m}`,
            content: { type: 'text', text: wireText(MiB - 64, `c${c}m${m}`) },
          });
        }
      }
    });
    assert.ok(s.budget.total(A) <= 256 * MiB, `the agent holds ${(s.budget.total(A) / MiB).toFixed(0)} MiB`);
    assert.ok(grew < 2 * 256 * MiB, `the heap grew ${(grew / MiB).toFixed(0)} MiB`);
    assert.equal(s.store.children(A, 'main').length, 100);
    const newest = s.transcript.session(sessionKey(A, 'main:sub:99'))!;
    assert.equal(newest.size >= 8, true, 'the most recent session keeps its messages');
    assert.equal(s.said.length, 1, s.said.join('\n'));
    assert.match(s.said[0]!, /the oldest conversation items were cut to stay within its memory budget/);
  });

  it('children: 100 per session and 500 per agent; the next ones are ignored and said once', () => {
    const s = build(256 * MiB);
    for (let p = 0; p < 7; p++) s.store.attachSession(A, `p${p}`);
    for (let p = 0; p < 7; p++) for (let c = 0; c < 120; c++) s.apply(A, { kind: 'subagent', sessionId: `p${p}`, childSessionId: `p${p}:c${c}` });
    assert.equal(s.store.children(A, 'p0').length, 100);
    assert.equal(s.store.sessions(A).filter((x) => x.parentSessionId !== undefined).length, 500);
    assert.deepEqual(s.said, [
      'Hostile Agent announced more than 100 subagent sessions in one session; the further ones are ignored.',
      'Hostile Agent announced more than 500 subagent sessions; the further ones are ignored.',
    ]);
  });
});
