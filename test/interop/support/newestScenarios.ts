// Model scripts for the newest adapters (codex-acp 2.6, claude-agent-acp 0.101): a plan turn, a
// plan-mode turn, an elicitation and a subagent. How each flow is triggered: shared/acp/PREVIEW.md.
import type { Scenario } from './fakeModel';
import { claudeScenario, FILE_NAME, FILE_TEXT, FINAL_TEXT } from './scenarios';

/** The Markdown plan both agents propose in plan mode. */
export const PLAN_MD = '# Interop plan\n\n1. Write the greeting file\n2. Create the marker\n';
/** The text codex sends to continue after the user approved its plan. */
export const CODEX_IMPLEMENT = 'Implement the approved plan.';
/** Marks the subagent's own conversation (its task), so the fake model answers it apart. */
export const CHILD_MARKER = 'CHILD-TASK';
export const CHILD_TEXT = 'The greeting is fine.';
export const QUESTION = {
  id: 'lang',
  header: 'Language',
  question: 'Which language should the greeting use?',
  options: [
    { label: 'English', description: 'Hello' },
    { label: 'French', description: 'Bonjour' },
  ],
};

const codexPlan = (s: [string, string][]) => ({ explanation: 'Interop plan', plan: s.map(([step, status]) => ({ step, status })) });
const addFile = `*** Begin Patch\n*** Add File: ${FILE_NAME}\n+${FILE_TEXT.trimEnd()}\n*** End Patch\n`;

/**
 * codex-acp 2.6 with `gpt-5.5` (classic top-level tools): plan, edit (asks the client in the
 * read-only mode), plan completed. No shell step: in read-only mode codex runs commands in its own
 * sandbox without asking, and whether that sandbox works depends on the machine.
 */
export function codexNextPlanScenario(): Scenario {
  return {
    finalText: FINAL_TEXT,
    steps: [
      {
        kind: 'tools',
        calls: [
          {
            name: 'update_plan',
            input: codexPlan([
              ['Write the greeting file', 'in_progress'],
              ['Create the marker', 'pending'],
            ]),
          },
        ],
      },
      { kind: 'tools', calls: [{ name: 'apply_patch', input: addFile }] },
      {
        kind: 'tools',
        calls: [
          {
            name: 'update_plan',
            input: codexPlan([
              ['Write the greeting file', 'completed'],
              ['Create the marker', 'completed'],
            ]),
          },
        ],
      },
    ],
  };
}

/**
 * codex plan mode (collaboration_mode = plan): the model proposes the plan in a `<proposed_plan>`
 * block, optionally after asking the user (`request_user_input`, an elicitation); once approved,
 * codex continues in the same prompt with "Implement the approved plan." and the model edits.
 */
export function codexPlanModeScenario(opts: { ask?: boolean } = {}): Scenario {
  const proposal = `Here is the plan.\n<proposed_plan>\n${PLAN_MD}</proposed_plan>\n`;
  return {
    finalText: proposal,
    steps: opts.ask ? [{ kind: 'tools', calls: [{ name: 'request_user_input', input: { questions: [QUESTION] } }] }] : [],
    phases: [
      {
        marker: CODEX_IMPLEMENT,
        scenario: { finalText: FINAL_TEXT, steps: [{ kind: 'tools', calls: [{ name: 'apply_patch', input: addFile }] }] },
      },
    ],
  };
}

/** codex subagent (feature `multi_agent_v2`): `collaboration.spawn_agent`; the child just answers. */
export function codexSubagentScenario(): Scenario {
  return {
    finalText: FINAL_TEXT,
    steps: [
      {
        kind: 'tools',
        calls: [
          {
            name: 'spawn_agent',
            namespace: 'collaboration',
            input: { task_name: 'check_greeting', message: `${CHILD_MARKER}: check the greeting`, fork_turns: 'none' },
          },
        ],
      },
    ],
    phases: [{ marker: CHILD_MARKER, scenario: { steps: [], finalText: CHILD_TEXT } }],
  };
}

/** claude-agent-acp 0.101: the same turn as the older Claude adapters (plain tool names). */
export function claudeNextPlanScenario(cwd: string): Scenario {
  return claudeScenario(cwd, 'plain-tools');
}

/** Claude plan mode (mode = plan): optionally a question (AskUserQuestion), then ExitPlanMode with the plan. */
export function claudePlanModeScenario(opts: { ask?: boolean } = {}): Scenario {
  const { id: _id, ...q } = QUESTION;
  return {
    finalText: FINAL_TEXT,
    steps: [
      ...(opts.ask ? [{ kind: 'tools' as const, calls: [{ name: 'AskUserQuestion', input: { questions: [{ ...q, multiSelect: false }] } }] }] : []),
      { kind: 'tools', calls: [{ name: 'ExitPlanMode', input: { plan: PLAN_MD } }] },
    ],
  };
}

/** Claude subagent: the `Agent` tool; the child's conversation starts with its prompt. */
export function claudeSubagentScenario(): Scenario {
  return {
    finalText: FINAL_TEXT,
    steps: [
      {
        kind: 'tools',
        calls: [
          { name: 'Agent', input: { description: 'Check the greeting', prompt: `${CHILD_MARKER}: check the greeting`, subagent_type: 'general-purpose' } },
        ],
      },
    ],
    phases: [{ marker: CHILD_MARKER, scenario: { steps: [], finalText: CHILD_TEXT } }],
  };
}
