// The `_intent` plan payload (our documented ACP extension) and the intent plan inside it.
//
//   plan_update.plan = {"type":"_intent","planId":…,"plan":{version,goal,user,steps},"token":"<JWS>"}
//
// Any other client sees a plan of an unknown type. Everything here is agent-supplied and untrusted
// until the token is verified (see verify.ts); texts must be escaped by whoever shows them.
import * as z from 'zod/mini';
import '../protocol/common/zodMessages';

export const MAX_STEPS = 50;
export const DEFAULT_MAX_CALLS = 20;
/** Tool names in a step are exact names, never globs. */
export const TOOL_NAME_RE = /^[a-zA-Z0-9_-]{1,64}$/;
export const CONSTRAINT_OPERATORS = ['eq', 'in', 'glob', 'regex', 'lte', 'gte'] as const;
export type ConstraintOperator = (typeof CONSTRAINT_OPERATORS)[number];
/** Longest glob or regex pattern a plan may carry (regexes are further limited when run). */
export const MAX_PATTERN_LENGTH = 1000;

/** One pinned-argument constraint: exactly one operator. */
export type ArgConstraint = { eq: unknown } | { in: unknown[] } | { glob: string } | { regex: string } | { lte: number } | { gte: number };

/** Why a constraint object is not valid, or undefined when it is. */
export function constraintProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `must be an object with one operator (${CONSTRAINT_OPERATORS.join(', ')})`;
  }
  const keys = Object.keys(value);
  if (keys.length !== 1) return `must have exactly one operator (${CONSTRAINT_OPERATORS.join(', ')}), found ${keys.length}`;
  const op = keys[0];
  const operand = (value as Record<string, unknown>)[op];
  switch (op) {
    case 'eq':
      return operand === undefined ? '"eq" needs a value' : undefined;
    case 'in':
      return Array.isArray(operand) ? undefined : '"in" needs an array of values';
    case 'glob':
    case 'regex':
      if (typeof operand !== 'string') return `"${op}" needs a string pattern`;
      if (operand.length > MAX_PATTERN_LENGTH) return `"${op}" pattern is longer than ${MAX_PATTERN_LENGTH} characters`;
      return undefined;
    case 'lte':
    case 'gte':
      return typeof operand === 'number' && Number.isFinite(operand) ? undefined : `"${op}" needs a finite number`;
    default:
      return `unknown operator "${op}" (expected one of ${CONSTRAINT_OPERATORS.join(', ')})`;
  }
}

const constraintSchema = z.pipe(
  z.unknown().check(
    z.superRefine((value, ctx) => {
      const problem = constraintProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  ),
  z.transform((value) => value as ArgConstraint),
);

const stepSchema = z.looseObject({
  tool: z.string({ error: 'must be a string' }).check(z.regex(TOOL_NAME_RE, 'must be an exact tool name: 1 to 64 letters, digits, "_" or "-"')),
  args: z.optional(z.record(z.string(), constraintSchema, { error: 'must be an object of pinned arguments' })),
  maxCalls: z._default(z.number({ error: 'must be a number' }).check(z.int('must be a whole number'), z.gte(0, 'must not be negative')), DEFAULT_MAX_CALLS),
  required: z._default(z.boolean({ error: 'must be true or false' }), false),
});

export const intentPlanSchema = z.looseObject({
  version: z.number({ error: 'must be a number' }).check(z.refine((v) => v === 1, { message: 'unsupported plan version (this client understands version 1)' })),
  goal: z.string({ error: 'must be a string' }),
  user: z.string({ error: 'must be a string' }).check(z.minLength(1, 'must not be empty')),
  steps: z.array(stepSchema, { error: 'must be a list of steps' }).check(z.maxLength(MAX_STEPS, `a plan has at most ${MAX_STEPS} steps`)),
});

/** An intent plan with the defaults applied (`maxCalls` 20, `required` false). */
export type IntentPlan = z.output<typeof intentPlanSchema>;
export type IntentStep = IntentPlan['steps'][number];

const payloadSchema = z.looseObject({
  type: z.literal('_intent', { error: 'must be "_intent"' }),
  planId: z.string({ error: 'must be a string' }).check(z.minLength(1, 'must not be empty')),
  plan: z.unknown(),
  token: z.optional(z.string({ error: 'must be a string' })),
});

/** A parsed `_intent` payload. */
export interface IntentPayload {
  planId: string;
  /** The plan with defaults applied: what is shown and enforced. */
  plan: IntentPlan;
  /** The plan exactly as the agent sent it (the plan hash may be over this form). */
  rawPlan: Record<string, unknown>;
  /** The compact JWS, when the agent sent one. */
  token?: string;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Parses an intent plan on its own (defaults applied). */
export function parseIntentPlanBody(raw: unknown): ParseResult<IntentPlan> {
  const r = intentPlanSchema.safeParse(raw, { reportInput: true });
  return r.success ? { ok: true, value: r.data } : { ok: false, error: `Invalid intent plan: ${formatIssues(r.error.issues, 'plan')}` };
}

/** Parses the whole `_intent` plan payload (the `raw` of an unknown plan content of type `_intent`). */
export function parseIntentPlan(raw: unknown): ParseResult<IntentPayload> {
  const outer = payloadSchema.safeParse(raw, { reportInput: true });
  if (!outer.success) return { ok: false, error: `Invalid intent plan: ${formatIssues(outer.error.issues, '')}` };
  const rawPlan = outer.data.plan;
  if (typeof rawPlan !== 'object' || rawPlan === null || Array.isArray(rawPlan)) {
    return { ok: false, error: 'Invalid intent plan: plan: must be an object with version, goal, user and steps' };
  }
  const plan = parseIntentPlanBody(rawPlan);
  if (!plan.ok) return plan;
  const value: IntentPayload = { planId: outer.data.planId, plan: plan.value, rawPlan: rawPlan as Record<string, unknown> };
  if (outer.data.token !== undefined) value.token = outer.data.token;
  return { ok: true, value };
}

const MAX_REPORTED_ISSUES = 5;

/** `plan.steps[2].args.repo: must have exactly one operator …; …` */
export function formatIssues(issues: readonly z.core.$ZodIssue[], root: string): string {
  const parts = issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => {
    const where = formatPath(root, issue.path);
    return where ? `${where}: ${issueMessage(issue)}` : issueMessage(issue);
  });
  if (issues.length > MAX_REPORTED_ISSUES) parts.push(`and ${issues.length - MAX_REPORTED_ISSUES} more`);
  return parts.join('; ');
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is missing';
  return issue.message;
}

function formatPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out;
}
