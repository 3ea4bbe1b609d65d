// `/planmode [noplan]`: plan mode as Claude's adapter does it. A tool call "Approve Plan" (kind
// `switch_mode`) carries the plan in its raw input (`plan`); a permission "Ready to code?" about
// it offers four options (leave plan mode: default / auto / bypass permissions, or keep
// planning); once approved the plan follows as a Markdown plan_update (planId `plan-mode`),
// except with `noplan` (an agent that never sends it). Reports usage with a cost below a cent.

import type { PermissionOutcome } from '../model';
import { type Scenario } from './scenario';

export const PLAN_MODE_PLAN = [
  '# Plan: add a farewell to hello.ts',
  '',
  'The greeting module says hello but never goodbye.',
  '',
  '## Steps',
  '- [ ] Add `farewell(name)` beside `greet(name)`',
  '- [ ] Export it and bump `GREETING_VERSION`',
  '- [ ] Add a unit test for both greetings',
  '',
  '## Risks',
  '- Callers that import `*` get one more name.',
].join('\n');

export const PLAN_MODE_OPTIONS = [
  { optionId: 'default', name: 'Yes, and manually approve edits', kind: 'allow_once' },
  { optionId: 'auto', name: 'Yes, and use auto mode', kind: 'allow_always' },
  { optionId: 'bypassPermissions', name: 'Yes, and bypass permissions', kind: 'allow_always' },
  { optionId: 'plan', name: 'No, keep planning', kind: 'reject_once' },
] as const;

function approved(outcome: PermissionOutcome): string | undefined {
  if (outcome.outcome !== 'selected') return undefined;
  return PLAN_MODE_OPTIONS.find((o) => o.optionId === outcome.optionId && o.kind.startsWith('allow'))?.optionId;
}

export const planModeScenario: Scenario = {
  name: 'planmode',
  description: 'Plan mode: ask to approve a plan before coding (as Claude does)',
  hint: '[noplan]',
  async run(turn, args) {
    turn.say('I have a plan. Approve it to leave plan mode.');
    const toolCallId = turn.id('call_exit_plan');
    turn.tool({ toolCallId, title: 'Approve Plan', kind: 'switch_mode', status: 'pending', rawInput: { plan: PLAN_MODE_PLAN } });
    await turn.pace(0.3);
    // Like the adapter: the permission names the tool call without its kind; the plan is in the input.
    const outcome = await turn.requestPermission({
      title: 'Ready to code?',
      toolCall: { toolCallId, rawInput: { plan: PLAN_MODE_PLAN } },
      options: [...PLAN_MODE_OPTIONS],
    });
    const mode = approved(outcome);
    turn.tool({ toolCallId, status: mode ? 'completed' : 'failed' });
    if (mode && args.trim() !== 'noplan') turn.emit({ kind: 'plan', plan: { type: 'markdown', planId: 'plan-mode', content: PLAN_MODE_PLAN } });
    turn.emit({ kind: 'usage', used: 1200, size: 200000, cost: { amount: 0.004, currency: 'USD' } });
    turn.say(mode ? `plan approved: leaving plan mode (${mode})` : 'plan not approved: staying in plan mode');
  },
};
