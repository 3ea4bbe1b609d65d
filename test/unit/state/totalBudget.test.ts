// One memory limit for all agents together (acp.limits.totalMemoryMiB): N agents, each within its
// own budget, cannot hold N budgets. Through the real stores, fed as the composition root does,
// with the notice it adds: four agents' conversations, each under its own budget, together past
// the limit; the agent holding the most is cut first, oldest first, down to 90% of the limit, the
// newest message of every session kept, the cut said once per agent.
import assert from 'node:assert/strict';
import type { SessionEvent } from '../../../src/protocol/domain';
import { AgentBudget, budgetCutText, MIN_TOTAL_MEMORY_BYTES } from '../../../src/state/agentBudget';
import { PlanStore } from '../../../src/state/planStore';
import { sessionKey, SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';

const MiB = 1024 * 1024;
const AGENTS = ['a1', 'a2', 'a3', 'a4'];

function build(agentBytes: number, totalBytes: number) {
  const budget = new AgentBudget(agentBytes, totalBytes);
  const store = new SessionStore({ budget });
  const plans = new PlanStore({ budget });
  const transcript = new Transcript({ budget });
  const apply = (agentId: string, e: SessionEvent): void => {
    store.applyEvent(agentId, e);
    plans.apply(agentId, e);
    transcript.apply(e, sessionKey(agentId, e.sessionId));
  };
  const said: { agentId: string; sessionId?: string; text: string }[] = [];
  budget.onDidCut((cut) => {
    const text = budgetCutText(`Agent ${cut.agentId}`, cut);
    said.push({ agentId: cut.agentId, ...(cut.sessionId !== undefined ? { sessionId: cut.sessionId } : {}), text });
    if (cut.sessionId !== undefined) apply(cut.agentId, { kind: 'notice', sessionId: cut.sessionId, severity: 'warning', title: text });
  });
  for (const a of AGENTS) for (let s = 0; s < 4; s++) store.attachSession(a, `s${s}`);
  return { budget, transcript, apply, said };
}

const message = (sessionId: string, m: number, chars: number): SessionEvent => ({
  kind: 'message_chunk',
  sessionId,
  role: 'agent',
  messageId: `m${m}`,
  content: { type: 'text', text: `${m}:`.padEnd(chars, 'x') },
});

describe('One memory limit for all agents together', () => {
  it('four agents each within its budget, together past the limit: the largest cut first, the sum within it, said once per agent', () => {
    const total = MIN_TOTAL_MEMORY_BYTES; // 64 MiB
    const s = build(32 * MiB, total);
    // 24 MiB each (the first agent 28): under each one's 32 MiB, 100 MiB together.
    for (const [i, a] of AGENTS.entries()) for (let m = 0; m < (i === 0 ? 56 : 48); m++) s.apply(a, message(`s${m % 4}`, m, MiB / 2 - 256));
    let sum = 0;
    for (const a of AGENTS) {
      const held = s.budget.total(a);
      sum += held;
      assert.ok(held <= 32 * MiB, `${a} holds ${(held / MiB).toFixed(1)} MiB`);
      for (let k = 0; k < 4; k++) {
        const t = s.transcript.session(sessionKey(a, `s${k}`))!;
        assert.ok(t.size >= 1, `${a}/s${k} keeps its newest message`);
      }
    }
    assert.equal(sum, s.budget.sumBytes);
    assert.ok(sum <= total, `all agents hold ${(sum / MiB).toFixed(1)} MiB, the limit is ${total / MiB} MiB`);
    assert.ok(s.said.length >= 1, 'the cut is said');
    assert.equal(new Set(s.said.map((x) => x.agentId)).size, s.said.length, 'once per agent');
    assert.equal(s.said[0]!.agentId, 'a1', 'the agent holding the most is cut first');
    assert.match(
      s.said[0]!.text,
      /^All agents together hold more than 64 MiB; the oldest conversation items of Agent a1, which holds the most, were cut to stay within the memory limit of all agents \(acp\.limits\.totalMemoryMiB\)\.$/,
    );
    // Past the limit again: not said again.
    const before = s.said.length;
    for (let m = 100; m < 140; m++) s.apply('a4', message('s0', m, MiB / 2 - 256));
    assert.ok(s.budget.sumBytes <= total);
    assert.equal(s.said.filter((x) => x.agentId === 'a4').length <= 1, true);
    assert.ok(s.said.length - before <= 1, s.said.map((x) => x.text).join('\n'));
  });

  it('below the limit of all agents, only each agent budget applies (nothing is cut)', () => {
    const s = build(32 * MiB, 256 * MiB);
    for (const a of AGENTS) for (let m = 0; m < 48; m++) s.apply(a, message(`s${m % 4}`, m, MiB / 2 - 256));
    assert.equal(s.said.length, 0, s.said.map((x) => x.text).join('\n'));
    assert.ok(s.budget.sumBytes > 90 * MiB);
  });
});
