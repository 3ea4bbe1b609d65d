// `/steer`: a long turn to steer into (it only ends when you cancel it). Says so, then sends a
// thought chunk ("Working… (n)") every 2 × the step delay (at least 500 ms). Each message steered
// into it is answered in the turn (src/demo/steering.ts). `/steer refuse`: the turn refuses
// steering (`failed`, with a reason), so the client queues the message for after the turn.

import type { Scenario } from './scenario';

export const steerScenario: Scenario = {
  name: 'steer',
  description: 'A long turn you can steer into (Ctrl+Enter); "refuse" refuses steering',
  hint: '[refuse]',
  async run(turn, args) {
    const refuse = args.trim() === 'refuse';
    turn.refuseSteer = refuse ? 'this turn does not take steering' : undefined;
    turn.say(refuse ? 'Working on it; I will not take input until this turn ends.' : 'Working on it; steer me while I work.');
    const thoughtId = turn.id('thought');
    let n = 0;
    await turn.untilCancelled(
      () => {
        n += 1;
        turn.emit({ kind: 'message', role: 'thought', messageId: thoughtId, blocks: [{ type: 'text', text: `Working… (${n})\n` }] });
      },
      Math.max(500, 2 * turn.delayMs),
    );
  },
};
