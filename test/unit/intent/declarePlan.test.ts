// Seed row: the `declare_plan` tool call is a source of an intent plan, like an `_intent` plan update.
import * as assert from 'node:assert/strict';
import { DECLARED_PLAN_ID, DeclaredPlans } from '../../../src/intent/declarePlan';
import { generateSigningKey, makeJwks } from '../../../src/intent/keys';
import { signIntentToken } from '../../../src/intent/sign';
import { SessionIntent, type KeyLoader } from '../../../src/app/intent/sessionIntent';
import { at, T0_SEC } from './helpers';

const PLAN = {
  version: 1,
  goal: 'Summarise open issues',
  user: 'alice@acme.dev',
  steps: [
    { tool: 'github_list_issues', args: { repo: { eq: 'acme/public-app' } }, maxCalls: 3 },
    { tool: 'github_get_issue', args: { repo: { eq: 'acme/public-app' } } },
  ],
};

describe('declare_plan tool calls', () => {
  it('turns a declare_plan call into an _intent payload, then again once its token arrives', async () => {
    const d = new DeclaredPlans();
    // The name may come first, the input later (patch semantics).
    assert.deepEqual(d.observe('s', 'c1', { title: 'Declaring the plan', kind: 'other', status: 'pending', _meta: { toolName: 'declare_plan' } }), {});
    const first = d.observe('s', 'c1', { rawInput: PLAN });
    assert.deepEqual(first, {
      payload: { type: '_intent', planId: DECLARED_PLAN_ID, plan: PLAN, declaredBy: { tool: 'declare_plan', toolCallId: 'c1', status: 'pending' } },
    });
    // Nothing new: nothing to apply.
    assert.deepEqual(d.observe('s', 'c1', { status: 'in_progress' }), {});
    const signed = await signIntentToken(PLAN, generateSigningKey('k'), { iat: T0_SEC });
    const second = d.observe('s', 'c1', { status: 'completed', rawOutput: { token: signed.token } });
    assert.equal(second?.payload?.token, signed.token);
    assert.deepEqual(second?.payload?.declaredBy, { tool: 'declare_plan', toolCallId: 'c1', status: 'completed' });
  });

  it('reads the plan wrapped in {plan}, the name from the name field or the title, the token as a bare string', () => {
    const d = new DeclaredPlans();
    assert.deepEqual(d.observe('s', 'a', { name: 'declare_plan', rawInput: { plan: PLAN }, rawOutput: 'aa.bb.cc' })?.payload?.token, 'aa.bb.cc');
    assert.equal(d.observe('s2', 'b', { title: 'declare_plan(goal: …)', rawInput: PLAN })?.payload?.planId, DECLARED_PLAN_ID);
    // Not a token: left out (the plan shows as carrying no token).
    assert.equal(d.observe('s3', 'c', { name: 'declare_plan', rawInput: PLAN, rawOutput: { token: 'not a jws' } })?.payload?.token, undefined);
  });

  it('ignores other tools and inputs without the shape of a plan', () => {
    const d = new DeclaredPlans();
    assert.equal(d.observe('s', 'x', { name: 'read_file', rawInput: PLAN }), undefined);
    assert.equal(d.observe('s', 'y', { title: 'declare_plans', rawInput: PLAN }), undefined);
    assert.equal(d.observe('s', 'y2', { title: 'Reading', rawInput: PLAN }), undefined);
    assert.deepEqual(d.observe('s', 'z', { name: 'declare_plan', rawInput: { goal: 'no steps' } }), {});
    assert.deepEqual(d.observe('s', 'big', { name: 'declare_plan', rawInput: { ...PLAN, goal: 'x'.repeat(300_000) } }), {});
  });

  it('keeps the fields of a bounded number of calls per session', () => {
    const d = new DeclaredPlans();
    // The input comes before anything says which tool it is; 100 other calls follow before the name.
    d.observe('s', 'early', { rawInput: PLAN });
    for (let i = 0; i < 100; i++) d.observe('s', `o${i}`, { rawInput: { steps: [] } });
    assert.deepEqual(d.observe('s', 'early', { name: 'declare_plan' }), {}, 'the oldest call was dropped');
    const fresh = new DeclaredPlans();
    fresh.observe('s', 'early', { rawInput: PLAN });
    assert.equal(fresh.observe('s', 'early', { name: 'declare_plan' })?.payload?.planId, DECLARED_PLAN_ID);
    fresh.forget('s');
    assert.deepEqual(fresh.observe('s', 'early', { name: 'declare_plan' }), {});
  });

  it('shows the declared plan as the intent plan in force, verified by its token, naming the call it came from', async () => {
    const key = generateSigningKey('k1');
    const signed = await signIntentToken(PLAN, key, { iat: T0_SEC, lifetimeSeconds: 900 });
    const d = new DeclaredPlans();
    const payload = d.observe('s', 'c9', { name: 'declare_plan', status: 'completed', rawInput: PLAN, rawOutput: signed.token })!.payload!;
    const s = new SessionIntent('a', 's', { now: () => at(0) });
    assert.equal(s.receive(payload), true);
    const jwks = makeJwks([key.publicJwk]);
    const loader: KeyLoader = { get: () => Promise.resolve({ jwks, status: { state: 'loaded', from: '/k', keyCount: 1 } }), reload: () => undefined };
    await s.verify(loader);
    const v = s.view(DECLARED_PLAN_ID);
    assert.ok(v.kind === 'active');
    assert.equal(v.state, 'verified');
    assert.equal(v.source, 'the declare_plan tool call c9 (completed)');
    assert.equal(s.observe({ toolCallId: 'r1', name: 'github_list_issues', rawInput: { repo: 'acme/public-app' } }).verdict.verdict, 'in_plan');
  });
});
