// `/elicitation`: asks the user through the client, then reports what arrived.
//   1. a form (`elicitation/create`, mode form) with one field of each kind: text (required,
//      2–40 characters), email, a titled single choice (required), an integer 1–5 (default 3),
//      a number ≥ 0, a yes/no (default yes) and a multi-select; the answer is echoed:
//      "form: accepted name=Ada; email=…" | "form: declined" | "form: cancelled" | "form: no answer";
//   2. a link (mode url) on example.com: when accepted, the agent finishes the step and sends
//      `elicitation/complete`; echoed "url: accepted, completed" | "url: declined" | "url: cancelled".
// v2 reports `requires_action` while each waits.

import type { Turn } from '../turn';
import type { Scenario } from './scenario';

export const DEMO_FORM_SCHEMA = {
  type: 'object',
  title: 'Project details',
  description: 'The Demo Agent echoes what you enter.',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 2, maxLength: 40 },
    email: { type: 'string', title: 'Email', format: 'email', description: 'Optional' },
    language: {
      type: 'string',
      title: 'Language',
      oneOf: [
        { const: 'ts', title: 'TypeScript' },
        { const: 'rs', title: 'Rust' },
        { const: 'py', title: 'Python' },
      ],
    },
    level: { type: 'integer', title: 'Experience (1–5)', minimum: 1, maximum: 5, default: 3 },
    budget: { type: 'number', title: 'Budget (hours)', minimum: 0 },
    tests: { type: 'boolean', title: 'Write tests', default: true },
    areas: { type: 'array', title: 'Areas', items: { type: 'string', enum: ['docs', 'tests', 'ui'] } },
  },
  required: ['name', 'language'],
} as const;

export const DEMO_URL_HOST = 'example.com';

function answerText(prefix: string, result: unknown): string {
  const r = typeof result === 'object' && result !== null ? (result as { action?: unknown; content?: unknown }) : {};
  if (r.action !== 'accept') return `${prefix}: ${typeof r.action === 'string' ? r.action.slice(0, 40) : 'no answer'}`;
  const content = typeof r.content === 'object' && r.content !== null ? (r.content as Record<string, unknown>) : {};
  const values = Object.entries(content).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`);
  return `${prefix}: accepted${values.length ? ` ${values.join('; ')}` : ''}`;
}

export const elicitationScenario: Scenario = {
  name: 'elicitation',
  description: 'Ask you to fill in a form, then to open a link, and report the answers',
  async run(turn: Turn) {
    turn.say('I need a few details before I start.');
    const form = await turn.elicit({ mode: 'form', message: 'Tell the Demo Agent about your project.', requestedSchema: DEMO_FORM_SCHEMA });
    turn.say(answerText('form', form));
    const elicitationId = turn.id('elicit_url');
    const url = `https://${DEMO_URL_HOST}/acp-demo/authorize?request=${encodeURIComponent(elicitationId)}`;
    const link = await turn.elicit({ mode: 'url', elicitationId, url, message: 'Authorize the Demo Agent on its (pretend) service.' });
    const accepted = typeof link === 'object' && link !== null && (link as { action?: unknown }).action === 'accept';
    if (accepted) {
      await turn.pace();
      turn.notifyClient('elicitation/complete', { elicitationId });
      turn.say('url: accepted, completed');
    } else turn.say(answerText('url', link));
  },
};
