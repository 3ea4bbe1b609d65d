// The per-session intent tracker. Every test that signs makes its own Ed25519 key.
import * as assert from 'node:assert/strict';
import type { CallVerdict } from '../../../src/intent/checkCall';
import { generateSigningKey, makeJwks, type SigningKey } from '../../../src/intent/keys';
import { signIntentToken } from '../../../src/intent/sign';
import { IntentTracker } from '../../../src/intent/tracker';
import { at, examplePlan, planWith, T0_SEC } from './helpers';
import { german } from '../l10n/german';

let clock = at(0);
const tracker = (): IntentTracker => new IntentTracker({ now: () => clock });

async function intentPayload(plan: unknown, key: SigningKey, claims: Parameters<typeof signIntentToken>[2] = {}, planId = 'intent-1') {
  const signed = await signIntentToken(plan, key, { iat: T0_SEC, ...claims });
  return { payload: { type: '_intent', planId, plan, token: signed.token }, signed };
}

/** A tracker holding `plan`, signed by a fresh key. */
async function trackerWith(plan: unknown) {
  const key = generateSigningKey('k');
  const jwks = makeJwks([key.publicJwk]);
  const t = tracker();
  const { payload, signed } = await intentPayload(plan, key);
  assert.deepEqual(await t.receive(payload, jwks), { kind: 'accepted', change: 'new_plan' });
  return { t, key, jwks, signed };
}

const summary = (v: CallVerdict): string => {
  if (v.verdict === 'in_plan') return `in_plan:${v.stepIndex}`;
  if (v.verdict === 'not_in_plan') return `not_in_plan:${v.reason}${v.argument ? `:${v.argument}` : ''}`;
  return `cannot_check:${v.reason}`;
};

describe('IntentTracker', () => {
  beforeEach(() => {
    clock = at(0);
  });

  it('receives a signed intent plan and shows it verified', async () => {
    const { t, signed } = await trackerWith(examplePlan());
    const intent = t.intent;
    assert.ok(intent);
    assert.equal(intent.verification.state, 'verified');
    assert.equal(intent.jti, signed.jti);
    assert.equal(intent.plan.steps[1].maxCalls, 20);
    clock = at(15 * 60 + 61);
    assert.equal(t.intent?.verification.state, 'expired', 'a shown plan expires with its token');
  });

  it("gives its verdicts in the user's language (l10n)", async () => {
    const t = new IntentTracker({ now: () => clock, l10n: german });
    assert.equal(t.checkCall({ toolCallId: 'c0', name: 'x' }).detail, 'Es wurde kein Intent-Plan erklärt.');
    const key = generateSigningKey('key-de');
    const { payload } = await intentPayload(examplePlan(), key);
    await t.receive(payload, makeJwks([key.publicJwk]));
    assert.equal(
      t.checkCall({ toolCallId: 'c1', name: 'github_delete_repo', rawInput: {} }).detail,
      'Der Plan hat keinen Schritt für das Werkzeug „github_delete_repo“.',
    );
    assert.match(
      t.checkCall({ toolCallId: 'c2', name: 'github_get_issue', rawInput: { number: 4 } }).detail,
      /^Das festgelegte Argument „repo“ von Schritt \d+ \(github_get_issue\) fehlt\.$/,
    );
    assert.match(t.intent?.verification.detail ?? '', /^Signiert mit Schlüssel "key-de"/);
  });

  it('judges calls: in plan, no such tool, argument failing, missing argument', async () => {
    const { t } = await trackerWith(examplePlan());
    assert.equal(summary(t.checkCall({ toolCallId: 'c1', name: 'github_list_issues', rawInput: { repo: 'acme/public-app', state: 'open' } })), 'in_plan:0');
    assert.equal(summary(t.checkCall({ toolCallId: 'c2', name: 'github_delete_repo', rawInput: { repo: 'acme/public-app' } })), 'not_in_plan:no_such_tool');
    const wrongRepo = t.checkCall({ toolCallId: 'c3', name: 'github_get_issue', rawInput: { repo: 'acme/secret' } });
    assert.equal(summary(wrongRepo), 'not_in_plan:argument_fails_constraint:repo');
    assert.match(wrongRepo.detail, /"repo" must equal "acme\/public-app"/);
    assert.equal(summary(t.checkCall({ toolCallId: 'c4', name: 'github_get_issue', rawInput: { number: 4 } })), 'not_in_plan:missing_argument:repo');
    assert.deepEqual(
      t.stepUsage().map((s) => s.callsUsed),
      [1, 0],
    );
  });

  it('says whether the plan behind a verdict is verified', async () => {
    const { t } = await trackerWith(examplePlan());
    const v = t.checkCall({ toolCallId: 'c1', name: 'github_list_issues', rawInput: { repo: 'acme/public-app' } });
    assert.equal(v.planState, 'verified');
    assert.equal(v.detail, 'Step 1 (github_list_issues), call 1 of 3.');
    clock = at(15 * 60 + 61);
    assert.equal(t.checkCall({ toolCallId: 'c1' }).planState, 'expired');
    const unsigned = tracker();
    await unsigned.receive({ type: '_intent', planId: 'p', plan: examplePlan() }, null);
    const u = unsigned.checkCall({ toolCallId: 'c1', name: 'github_list_issues', rawInput: { repo: 'acme/public-app' } });
    assert.deepEqual([u.verdict, u.planState], ['in_plan', 'malformed']);
  });

  it('checks every operator through a step', async () => {
    const { t } = await trackerWith(
      planWith([
        {
          tool: 'run',
          args: {
            a: { eq: 1 },
            b: { in: ['x', 'y'] },
            c: { glob: 'src/**' },
            d: { regex: 'v[0-9]+' },
            e: { lte: 10 },
            f: { gte: 2 },
          },
        },
      ]),
    );
    const good = { a: 1, b: 'y', c: 'src/a/b', d: 'v12', e: 10, f: 2 };
    assert.equal(summary(t.checkCall({ toolCallId: 'ok', name: 'run', rawInput: good })), 'in_plan:0');
    const bad: Record<string, unknown> = { a: 2, b: 'z', c: 'lib/a', d: 'v1x', e: 11, f: 1 };
    for (const [arg, value] of Object.entries(bad)) {
      const v = t.checkCall({ toolCallId: `bad-${arg}`, name: 'run', rawInput: { ...good, [arg]: value } });
      assert.equal(summary(v), `not_in_plan:argument_fails_constraint:${arg}`);
    }
  });

  it('stops at maxCalls, counting each toolCallId once however often it is updated', async () => {
    const { t } = await trackerWith(examplePlan()); // step 0 allows 3 calls
    const input = { repo: 'acme/public-app' };
    for (const id of ['a', 'b', 'c']) {
      for (let update = 0; update < 4; update++) {
        assert.equal(summary(t.checkCall({ toolCallId: id, name: 'github_list_issues', rawInput: input })), 'in_plan:0');
      }
    }
    assert.equal(t.stepUsage()[0].callsUsed, 3);
    const fourth = t.checkCall({ toolCallId: 'd', name: 'github_list_issues', rawInput: input });
    assert.equal(summary(fourth), 'not_in_plan:max_calls_exceeded');
    assert.match(fourth.detail, /at most 3 times/);
    // Updates of a counted call still pass and do not count again.
    assert.equal(summary(t.checkCall({ toolCallId: 'b', _meta: { progress: 1 } })), 'in_plan:0');
    assert.equal(t.stepUsage()[0].callsUsed, 3);
  });

  it('cannot check a call without a tool name, and takes the name from _meta', async () => {
    const { t } = await trackerWith(examplePlan());
    const input = { repo: 'acme/public-app' };
    assert.equal(summary(t.checkCall({ toolCallId: 'x', rawInput: input })), 'cannot_check:no_tool_name');
    assert.equal(summary(t.checkCall({ toolCallId: 'm1', _meta: { toolName: 'github_get_issue' }, rawInput: input })), 'in_plan:1');
    assert.equal(summary(t.checkCall({ toolCallId: 'm2', _meta: { claudeCode: { toolName: 'github_get_issue' } }, rawInput: input })), 'in_plan:1');
    assert.equal(t.stepUsage()[1].callsUsed, 2);
    assert.equal(summary(tracker().checkCall({ toolCallId: 'y', name: 'github_get_issue', rawInput: input })), 'cannot_check:no_intent_plan');
  });

  it('merges late fields of a tool call (name and input arrive in updates)', async () => {
    const { t } = await trackerWith(examplePlan());
    assert.equal(summary(t.checkCall({ toolCallId: 'late' })), 'cannot_check:no_tool_name');
    assert.equal(summary(t.checkCall({ toolCallId: 'late', name: 'github_get_issue' })), 'cannot_check:input_unknown');
    assert.equal(summary(t.checkCall({ toolCallId: 'late', rawInput: {} })), 'not_in_plan:missing_argument:repo');
    assert.equal(summary(t.checkCall({ toolCallId: 'late', rawInput: { repo: 'acme/public-app' } })), 'in_plan:1');
    assert.equal(summary(t.checkCall({ toolCallId: 'late', _meta: { note: 'progress' } })), 'in_plan:1');
    // An update that moves the input out of the plan un-counts the call.
    assert.equal(summary(t.checkCall({ toolCallId: 'late', rawInput: { repo: 'acme/secret' } })), 'not_in_plan:argument_fails_constraint:repo');
    assert.equal(t.stepUsage()[1].callsUsed, 0);
  });

  it('reports required steps that never ran at the end of the turn', async () => {
    const { t } = await trackerWith(planWith([{ tool: 'read', required: true }, { tool: 'write', required: true }, { tool: 'optional' }]));
    t.checkCall({ toolCallId: '1', name: 'read', rawInput: {} });
    assert.deepEqual(
      t.turnEnded().map((s) => [s.stepIndex, s.tool]),
      [[1, 'write']],
    );
    t.checkCall({ toolCallId: '2', name: 'write' });
    assert.deepEqual(t.turnEnded(), []);
  });

  it('keeps the old plan when a refreshed token for the same jti changes the plan hash', async () => {
    const { t, key, jwks, signed } = await trackerWith(examplePlan());
    t.checkCall({ toolCallId: 'a', name: 'github_list_issues', rawInput: { repo: 'acme/public-app' } });
    const wider = { ...examplePlan(), steps: [{ tool: 'github_list_issues' }, { tool: 'github_delete_repo' }] };
    const { payload } = await intentPayload(wider, key, { jti: signed.jti, iat: T0_SEC + 600 });
    clock = at(600);
    const r = await t.receive(payload, jwks);
    assert.equal(r.kind, 'conflict');
    assert.equal(t.intent?.plan.steps[1].tool, 'github_get_issue', 'the earlier plan is kept');
    assert.equal(t.intent?.token, signed.token);
    assert.equal(summary(t.checkCall({ toolCallId: 'b', name: 'github_delete_repo', rawInput: {} })), 'not_in_plan:no_such_tool');
  });

  it('accepts a refreshed token for the same jti and plan, keeping the counts', async () => {
    const { t, key, jwks, signed } = await trackerWith(examplePlan());
    t.checkCall({ toolCallId: 'a', name: 'github_list_issues', rawInput: { repo: 'acme/public-app' } });
    clock = at(15 * 60 + 120);
    assert.equal(t.intent?.verification.state, 'expired');
    const { payload, signed: refreshed } = await intentPayload(examplePlan(), key, { jti: signed.jti, iat: T0_SEC + 15 * 60 + 100 });
    assert.deepEqual(await t.receive(payload, jwks), { kind: 'accepted', change: 'refresh' });
    assert.equal(t.intent?.verification.state, 'verified');
    assert.equal(t.intent?.token, refreshed.token);
    assert.equal(t.stepUsage()[0].callsUsed, 1);
  });

  it('replaces the plan and starts counting afresh for a new jti', async () => {
    const { t, key, jwks } = await trackerWith(examplePlan());
    t.checkCall({ toolCallId: 'a', name: 'github_list_issues', rawInput: { repo: 'acme/public-app' } });
    const { payload } = await intentPayload(planWith([{ tool: 'other' }]), key, {}, 'intent-2');
    assert.deepEqual(await t.receive(payload, jwks), { kind: 'accepted', change: 'new_plan' });
    assert.deepEqual(
      t.stepUsage().map((s) => [s.tool, s.callsUsed]),
      [['other', 0]],
    );
    t.remove('intent-2');
    assert.equal(t.intent, undefined);
  });

  it('keeps unverifiable plans, with their state, and refuses invalid ones', async () => {
    const key = generateSigningKey('k');
    const t = tracker();
    const { payload } = await intentPayload(examplePlan(), key);
    await t.receive(payload, null);
    assert.equal(t.intent?.verification.state, 'unverified');
    const other = generateSigningKey('k');
    assert.equal((await t.reverify(makeJwks([other.publicJwk])))?.state, 'bad_signature');
    assert.equal(t.intent?.verification.state, 'bad_signature');
    const r = await t.receive({ type: '_intent', planId: 'x', plan: planWith([{ tool: 'bad name' }]) }, null);
    assert.equal(r.kind, 'invalid');
  });

  it('applies updates in the order received', async () => {
    const key = generateSigningKey('k');
    const jwks = makeJwks([key.publicJwk]);
    const t = tracker();
    const first = await intentPayload(planWith([{ tool: 'one' }]), key, {}, 'p1');
    const second = await intentPayload(planWith([{ tool: 'two' }]), key, {}, 'p2');
    await Promise.all([t.receive(first.payload, jwks), t.receive(second.payload, jwks)]);
    assert.equal(t.intent?.planId, 'p2');
  });
});
