// `/intent`: placeholder for the intent-plan scenario (another part of the project adds it).
// For now it answers with one message: "intent: the intent-plan scenario is not available yet."

import { type Scenario } from './scenario';

export const intentScenario: Scenario = {
  name: 'intent',
  description: 'Intent-plan scenario (not available yet)',
  async run(turn) {
    turn.say('intent: the intent-plan scenario is not available yet.');
    await turn.pace(0);
  },
};
