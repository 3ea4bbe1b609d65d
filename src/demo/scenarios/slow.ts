// `/slow`: a turn that only ends on cancel. Sends an item plan `slow` (first entry in progress)
// and a message, then a thought chunk ("Still working… (n)") every 2 × the step delay
// (at least 500 ms) until `session/cancel`. Usage is reported as it grows, mid-turn: a
// `usage_update` after the message and with every thought (context +1000, cost +0.01 USD), each
// carrying a rate limit in `_meta` the way claude-agent-acp does (`_claude/rateLimit`).

import { ItemPlan, type Scenario } from './scenario';

export const slowScenario: Scenario = {
  name: 'slow',
  description: 'A long turn that only ends when you cancel it',
  async run(turn) {
    const plan = new ItemPlan(turn, 'slow', [
      ['Think very hard', 'high'],
      ['Think even harder', 'medium'],
      ['Give up', 'low'],
    ]);
    plan.set([0, 'in_progress']);
    turn.say('This turn only ends when you cancel it.');
    const thoughtId = turn.id('thought');
    let n = 0;
    const started = Date.now();
    const usage = (): void =>
      turn.emit({
        kind: 'usage',
        used: 2000 + n * 1000,
        size: 200_000,
        cost: { amount: Math.round((0.01 + n * 0.01) * 100) / 100, currency: 'USD' },
        _meta: {
          '_claude/rateLimit': {
            status: 'allowed',
            rateLimitType: 'five_hour',
            utilization: Math.min(1, 0.4 + n / 100),
            resetsAt: Math.floor(started / 1000) + 3 * 3600,
          },
        },
      });
    usage();
    await turn.untilCancelled(
      () => {
        n += 1;
        turn.emit({ kind: 'message', role: 'thought', messageId: thoughtId, blocks: [{ type: 'text', text: `Still working… (${n})\n` }] });
        usage();
      },
      Math.max(500, 2 * turn.delayMs),
    );
  },
};
