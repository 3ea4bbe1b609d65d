// `/slow`: a turn that only ends on cancel. Sends an item plan `slow` (first entry in progress)
// and a message, then a thought chunk ("Still working… (n)") every 2 × the step delay
// (at least 500 ms) until `session/cancel`.

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
    await turn.untilCancelled(
      () => {
        n += 1;
        turn.emit({ kind: 'message', role: 'thought', messageId: thoughtId, blocks: [{ type: 'text', text: `Still working… (${n})\n` }] });
      },
      Math.max(500, 2 * turn.delayMs),
    );
  },
};
