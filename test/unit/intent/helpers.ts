// Shared builders for the intent tests.
import type { IntentPlan } from '../../../src/intent/schema';

/** The example plan of the reference, as an agent would send it (no defaults filled in). */
export function examplePlan(): Record<string, unknown> {
  return {
    version: 1,
    goal: 'Summarise open issues',
    user: 'alice@acme.dev',
    steps: [
      { tool: 'github_list_issues', args: { repo: { eq: 'acme/public-app' } }, maxCalls: 3 },
      { tool: 'github_get_issue', args: { repo: { eq: 'acme/public-app' } } },
    ],
  };
}

export function planWith(steps: unknown[]): Record<string, unknown> {
  return { version: 1, goal: 'test', user: 'alice@acme.dev', steps };
}

export const T0 = new Date('2030-01-01T12:00:00Z');
export const T0_SEC = T0.getTime() / 1000;
export const at = (secondsAfterT0: number): Date => new Date(T0.getTime() + secondsAfterT0 * 1000);

export type { IntentPlan };
