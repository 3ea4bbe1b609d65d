// `/crash`: sends an item plan `crash` (first entry in progress), writes a line to stderr and exits
// with code 3 in the middle of the turn. Nothing of the turn is saved.

import { ItemPlan, type Scenario } from './scenario';

export const CRASH_EXIT_CODE = 3;

export const crashScenario: Scenario = {
  name: 'crash',
  description: 'Exit with code 3 in the middle of a turn',
  async run(turn) {
    const plan = new ItemPlan(turn, 'crash', [
      ['Start something risky', 'high'],
      ['Finish it', 'medium'],
    ]);
    plan.set([0, 'in_progress']);
    await turn.pace();
    turn.log(`crashing on purpose (/crash), exit code ${CRASH_EXIT_CODE}`);
    await turn.exit(CRASH_EXIT_CODE);
  },
};
