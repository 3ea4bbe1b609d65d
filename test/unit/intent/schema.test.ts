import * as assert from 'node:assert/strict';
import { intentPayloadOf } from '../../../src/intent';
import { parseIntentPlan, parseIntentPlanBody } from '../../../src/intent/schema';
import { examplePlan, planWith } from './helpers';

const payload = (plan: unknown, extra: Record<string, unknown> = {}) => ({ type: '_intent', planId: 'p1', plan, token: 'a.b.c', ...extra });
const error = (r: { ok: boolean; error?: string }): string => (r.ok ? assert.fail('expected an error') : (r.error ?? ''));

describe('parseIntentPlan', () => {
  it('parses the reference example and applies the defaults', () => {
    const r = parseIntentPlan(payload(examplePlan()));
    assert.ok(r.ok);
    const { plan, planId, token, rawPlan } = r.value;
    assert.equal(planId, 'p1');
    assert.equal(token, 'a.b.c');
    assert.deepEqual(
      plan.steps.map((s) => [s.tool, s.maxCalls, s.required]),
      [
        ['github_list_issues', 3, false],
        ['github_get_issue', 20, false],
      ],
    );
    assert.deepEqual(plan.steps[0].args, { repo: { eq: 'acme/public-app' } });
    assert.deepEqual(rawPlan, examplePlan(), 'the raw plan is kept as sent');
  });

  it('accepts every constraint operator', () => {
    const r = parseIntentPlanBody(
      planWith([
        {
          tool: 't',
          required: true,
          args: {
            a: { eq: { nested: [1] } },
            b: { in: ['x', 2] },
            c: { glob: 'src/**' },
            d: { regex: '[a-z]+' },
            e: { lte: 5 },
            f: { gte: -1.5 },
          },
        },
      ]),
    );
    assert.ok(r.ok, r.ok ? '' : r.error);
    assert.equal(r.value.steps[0].required, true);
  });

  it('refuses more than 50 steps with a readable message', () => {
    const steps = Array.from({ length: 51 }, () => ({ tool: 't' }));
    assert.match(error(parseIntentPlanBody(planWith(steps))), /^Invalid intent plan: plan\.steps: a plan has at most 50 steps$/);
    assert.ok(parseIntentPlanBody(planWith(steps.slice(1))).ok);
  });

  it('refuses tool names that are not exact names', () => {
    assert.match(error(parseIntentPlanBody(planWith([{ tool: 'github_*' }]))), /plan\.steps\[0\]\.tool: must be an exact tool name/);
    assert.match(error(parseIntentPlanBody(planWith([{ tool: 'x'.repeat(65) }]))), /steps\[0\]\.tool/);
  });

  it('refuses unknown, missing or combined operators, naming the argument', () => {
    assert.match(error(parseIntentPlanBody(planWith([{ tool: 't', args: { repo: { like: 'x' } } }]))), /plan\.steps\[0\]\.args\.repo: unknown operator "like"/);
    assert.match(error(parseIntentPlanBody(planWith([{ tool: 't', args: { n: { gte: 1, lte: 2 } } }]))), /args\.n: must have exactly one operator/);
    assert.match(error(parseIntentPlanBody(planWith([{ tool: 't', args: { n: { lte: '5' } } }]))), /"lte" needs a finite number/);
    assert.match(error(parseIntentPlanBody(planWith([{ tool: 't', args: { n: { in: 'x' } } }]))), /"in" needs an array/);
    assert.match(error(parseIntentPlanBody(planWith([{ tool: 't', args: { n: 'x' } }]))), /args\.n: must be an object with one operator/);
  });

  it('reports missing fields and wrong versions', () => {
    assert.match(error(parseIntentPlanBody({ version: 1, goal: 'g', steps: [] })), /plan\.user: is missing/);
    assert.match(error(parseIntentPlanBody({ ...planWith([]), version: 2 })), /plan\.version: unsupported plan version/);
    assert.match(error(parseIntentPlanBody(planWith([{ tool: 't', maxCalls: 1.5 }]))), /maxCalls: must be a whole number/);
    assert.match(error(parseIntentPlan({ type: '_intent', plan: examplePlan() })), /planId: is missing/);
    assert.match(error(parseIntentPlan(payload('nope'))), /plan: must be an object/);
    assert.match(error(parseIntentPlan(payload(examplePlan(), { type: 'items' }))), /type: must be "_intent"/);
  });

  it('keeps a payload without a token (it will show as unverifiable)', () => {
    const r = parseIntentPlan({ type: '_intent', planId: 'p', plan: examplePlan() });
    assert.ok(r.ok);
    assert.equal(r.value.token, undefined);
  });

  it('finds the payload in an unknown plan content of type _intent only', () => {
    const raw = payload(examplePlan());
    assert.equal(intentPayloadOf({ type: 'unknown', planId: 'p1', rawType: '_intent', raw }), raw);
    assert.equal(intentPayloadOf({ type: 'unknown', planId: 'p1', rawType: '_custom', raw }), undefined);
    assert.equal(intentPayloadOf({ type: 'markdown', planId: 'p1', content: '' }), undefined);
  });
});
