// What the extension follows per session for intent plans (src/ui/intent/sessionIntent.ts): the
// plan applied at once and checked afterwards, the verification as shown, the calls outside the
// plan, the required steps missing at the end of a turn, refused updates. Plain Node.
import * as assert from 'node:assert/strict';
import { generateSigningKey, makeJwks, type Jwks, type SigningKey } from '../../../src/intent/keys';
import { signIntentToken } from '../../../src/intent/sign';
import { claimLines, describeConstraints, outsideDescription, stepDescription, stepTooltip, stateText, timeLeft } from '../../../src/app/intent/intentView';
import { SessionIntent, type KeyLoader } from '../../../src/app/intent/sessionIntent';
import type { KeysStatus } from '../../../src/app/intent/intentView';
import { at, T0_SEC } from './helpers';
import { german } from '../l10n/german';

let clock = at(0);
const session = (): SessionIntent => new SessionIntent('demo', 'sess-1', { now: () => clock });

const PLAN = {
  version: 1,
  goal: 'Add farewell()',
  user: 'ada@example.com',
  steps: [
    { tool: 'read_file', args: { path: { glob: 'src/**' } } },
    { tool: 'edit_file', args: { path: { eq: 'src/greeting.ts' } }, required: true },
    { tool: 'run_tests', maxCalls: 2 },
  ],
};

async function payload(key: SigningKey, plan: unknown = PLAN, claims: Parameters<typeof signIntentToken>[2] = {}, planId = 'intent') {
  const signed = await signIntentToken(plan, key, { iat: T0_SEC, lifetimeSeconds: 3600, ...claims });
  return { type: '_intent', planId, plan, token: signed.token, jti: signed.jti } as Record<string, unknown> & { token: string; jti: string };
}

/** A loader that hands out `first`, and `reload` (if any) when asked to load again. */
function loader(first: Jwks | null | Error, reload?: Jwks | null): KeyLoader & { reloads: number } {
  const as = (j: Jwks | null | Error): { jwks: Jwks | null; status: KeysStatus } =>
    j instanceof Error
      ? { jwks: null, status: { state: 'error', from: '/keys.json', error: j.message } }
      : j
        ? { jwks: j, status: { state: 'loaded', from: '/keys.json', keyCount: j.keys.length } }
        : { jwks: null, status: { state: 'none' } };
  const l = {
    reloads: 0,
    get: () => Promise.resolve(as(first)),
    reload: () => {
      if (reload === undefined) return undefined;
      l.reloads++;
      return Promise.resolve(as(reload));
    },
  };
  return l;
}

const read = (path: string, id: string) => ({ toolCallId: id, rawInput: { path }, _meta: { toolName: 'read_file' } });
const edit = (path: string, id: string) => ({ toolCallId: id, rawInput: { path }, _meta: { toolName: 'edit_file' } });

describe('SessionIntent', () => {
  let key: SigningKey;
  let jwks: Jwks;
  before(() => {
    key = generateSigningKey('demo-1');
    jwks = makeJwks([key.publicJwk]);
  });
  beforeEach(() => {
    clock = at(0);
  });

  it('applies a plan at once as "checking" (never verified), then shows it verified with kid and time left', async () => {
    const s = session();
    assert.equal(s.receive(await payload(key)), true);
    const before = s.view('intent');
    assert.ok(before.kind === 'active');
    assert.equal(before.state, 'checking');
    assert.equal(before.verified, false);
    assert.equal(before.stateText, 'checking token…');
    // Calls are judged against the plan already, but not as backed by a verified token.
    const v = s.observe(edit('package.json', 'c1')).verdict;
    assert.equal(v.verdict, 'not_in_plan');
    assert.notEqual(v.planState, 'verified');

    await s.verify(loader(jwks));
    const after = s.view('intent');
    assert.ok(after.kind === 'active');
    assert.equal(after.state, 'verified');
    assert.equal(after.verified, true);
    assert.equal(after.stateText, 'verified (kid demo-1, 60 min left)');
    assert.equal(after.goal, 'Add farewell()');
    assert.equal(after.user, 'ada@example.com');
    assert.deepEqual(
      after.steps.map((st) => [st.tool, st.callsUsed, st.maxCalls, st.required, st.use]),
      [
        ['read_file', 0, 20, false, 'unused'],
        ['edit_file', 0, 20, true, 'unused'],
        ['run_tests', 0, 2, false, 'unused'],
      ],
    );
    assert.deepEqual(after.steps[0]!.constraints, ['path matches the glob "src/**"']);

    clock = at(6 * 60);
    const later = s.view('intent');
    assert.equal(later.kind === 'active' && later.stateText, 'verified (kid demo-1, 54 min left)');
    clock = at(3600 + 61);
    const expired = s.view('intent');
    assert.ok(expired.kind === 'active');
    assert.deepEqual([expired.state, expired.stateText, expired.verified], ['expired', 'expired', false]);
  });

  it('is never verified without keys, with a failed key load, a foreign key, or a changed plan', async () => {
    const none = session();
    none.receive(await payload(key));
    await none.verify(loader(null));
    const n = none.view('intent');
    assert.ok(n.kind === 'active');
    assert.deepEqual([n.state, n.stateText, n.verified], ['unverified', 'unverified (no keys configured)', false]);

    const failed = session();
    failed.receive(await payload(key));
    await failed.verify(loader(new Error('The intent key file /keys.json does not exist.')));
    const f = failed.view('intent');
    assert.ok(f.kind === 'active');
    assert.deepEqual([f.stateText, f.verified], ['unverified (keys failed to load)', false]);
    assert.deepEqual(f.warnings, ['Intent keys could not be loaded: The intent key file /keys.json does not exist.']);

    const other = generateSigningKey('demo-1');
    const bad = session();
    bad.receive(await payload(other));
    await bad.verify(loader(jwks));
    assert.equal(bad.view('intent').stateText, 'bad signature');

    const unknown = session();
    unknown.receive(await payload(generateSigningKey('elsewhere')));
    await unknown.verify(loader(jwks));
    assert.equal(unknown.view('intent').stateText, 'unknown key');

    const tampered = session();
    const p = await payload(key);
    tampered.receive({ ...p, plan: { ...PLAN, steps: [...PLAN.steps, { tool: 'delete_file' }] } });
    await tampered.verify(loader(jwks));
    const t = tampered.view('intent');
    assert.ok(t.kind === 'active');
    assert.deepEqual([t.stateText, t.verified], ['plan hash mismatch', false]);
    assert.equal(t.steps.length, 4, 'the plan shown is the one the agent sent');
  });

  it('loads the keys again once when the token names a key the set does not verify (rotation)', async () => {
    const rotated = generateSigningKey('demo-1');
    const s = session();
    s.receive(await payload(rotated));
    const l = loader(jwks, makeJwks([rotated.publicJwk]));
    await s.verify(l);
    assert.equal(l.reloads, 1);
    assert.equal(s.view('intent').stateText, 'verified (kid demo-1, 60 min left)');

    const cooling = session();
    cooling.receive(await payload(rotated));
    await cooling.verify(loader(jwks)); // the loader refuses a reload (cooldown)
    assert.equal(cooling.view('intent').stateText, 'bad signature');
  });

  it('lists the calls outside the plan with their reason, and drops a call an update brings into the plan', async () => {
    const s = session();
    s.receive(await payload(key));
    await s.verify(loader(jwks));
    assert.equal(s.observe(read('src/greeting.ts', 'c1'), 'Read').verdict.verdict, 'in_plan');
    assert.equal(s.observe({ toolCallId: 'c2', rawInput: {}, _meta: { toolName: 'delete_file' } }, 'Delete').verdict.verdict, 'not_in_plan');
    const e = s.observe(edit('package.json', 'c3'), 'Edit package.json');
    assert.equal(e.changed, true);
    assert.equal(s.observe({ toolCallId: 'c3' }).changed, false, 'an update that changes nothing shown');
    let v = s.view('intent');
    assert.ok(v.kind === 'active');
    assert.deepEqual(
      v.outside.map((c) => [c.toolCallId, c.toolName, c.reason, c.title]),
      [
        ['c2', 'delete_file', 'no_such_tool', 'Delete'],
        ['c3', 'edit_file', 'argument_fails_constraint', 'Edit package.json'],
      ],
    );
    assert.match(v.outside[1]!.detail, /"path" must equal "src\/greeting.ts"/);
    assert.deepEqual(
      v.steps.map((st) => st.use),
      ['used', 'unused', 'unused'],
    );

    s.observe(edit('src/greeting.ts', 'c3'));
    v = s.view('intent');
    assert.ok(v.kind === 'active');
    assert.deepEqual(
      v.outside.map((c) => c.toolCallId),
      ['c2'],
    );
    assert.deepEqual(
      v.steps.map((st) => [st.callsUsed, st.use]),
      [
        [1, 'used'],
        [1, 'used'],
        [0, 'unused'],
      ],
    );
    s.observe({ toolCallId: 't1', rawInput: {}, _meta: { toolName: 'run_tests' } });
    s.observe({ toolCallId: 't2', rawInput: {}, _meta: { toolName: 'run_tests' } });
    const t3 = s.observe({ toolCallId: 't3', rawInput: {}, _meta: { toolName: 'run_tests' } }).verdict;
    assert.ok(t3.verdict === 'not_in_plan' && t3.reason === 'max_calls_exceeded');
    const w = s.view('intent');
    assert.ok(w.kind === 'active');
    assert.equal(w.steps[2]!.use, 'exhausted');
  });

  it('records the required steps not run when the turn ends, until they run', async () => {
    const s = session();
    s.receive(await payload(key));
    await s.verify(loader(jwks));
    assert.equal(
      s.view('intent').kind === 'active' && (s.view('intent') as { missingRequired?: string[] }).missingRequired,
      undefined,
      'nothing before a turn ended',
    );
    s.observe(read('src/a.ts', 'c1'));
    assert.equal(s.turnEnded(), true);
    const v = s.view('intent');
    assert.ok(v.kind === 'active');
    assert.deepEqual(v.missingRequired, ['edit_file']);
    assert.deepEqual(
      s.snapshot().missingRequired?.map((st) => st.tool),
      ['edit_file'],
    );
    s.observe(edit('src/greeting.ts', 'c2'));
    const w = s.view('intent');
    assert.ok(w.kind === 'active');
    assert.deepEqual(w.missingRequired, []);
  });

  it('keeps a verified state through a refresh of the same plan, refuses a refresh that changes it', async () => {
    const s = session();
    const first = await payload(key);
    s.receive(first);
    await s.verify(loader(jwks));
    s.observe(read('src/a.ts', 'c1'));
    const refresh = await payload(key, PLAN, { jti: first.jti, iat: T0_SEC + 60 });
    assert.equal(s.receive(refresh), true);
    const during = s.view('intent');
    assert.ok(during.kind === 'active');
    assert.equal(during.state, 'verified', 'the same plan, already verified, while the new token is checked');
    assert.equal(during.steps[0]!.callsUsed, 1, 'counts stay');

    const wider = await payload(key, { ...PLAN, steps: [...PLAN.steps, { tool: 'delete_file' }] }, { jti: first.jti });
    assert.equal(s.receive(wider), false);
    const v = s.view('intent');
    assert.ok(v.kind === 'active');
    assert.equal(v.steps.length, 3, 'the earlier plan stays in force');
    assert.match(v.warnings[0]!, /refreshed token .* changes the plan/);
    assert.equal(s.snapshot().refused?.kind, 'conflict');
  });

  it("words the tree's texts in the user's language (L10n)", async () => {
    const s = new SessionIntent('demo', 'sess-1', { now: () => clock }, german);
    s.receive({ ...(await payload(key)), declaredBy: { toolCallId: 'c9' } });
    const checking = s.view('intent');
    assert.ok(checking.kind === 'active');
    assert.equal(checking.detail, 'Das Intent-Token wird geprüft.');
    assert.equal(checking.source, 'dem declare_plan-Tool-Aufruf c9');
    s.receive(await payload(key, PLAN, {}, 'intent-2'));
    const old = s.view('intent');
    assert.deepEqual([old.stateText, old.detail], ['ersetzt', 'Ersetzt durch den Intent-Plan „intent-2“.']);
  });

  it('a new plan starts afresh; an invalid one is refused; a removed one is no longer in force', async () => {
    const s = session();
    s.receive(await payload(key));
    await s.verify(loader(jwks));
    s.observe(edit('package.json', 'c1'));
    s.turnEnded();
    s.receive(await payload(key, PLAN, {}, 'intent-2'));
    await s.verify(loader(jwks));
    const old = s.view('intent');
    assert.deepEqual([old.kind, old.stateText], ['inactive', 'replaced']);
    const cur = s.view('intent-2');
    assert.ok(cur.kind === 'active');
    assert.deepEqual([cur.outside.length, cur.missingRequired], [0, undefined]);

    assert.equal(s.receive({ type: '_intent', planId: 'intent-3', plan: { version: 2, goal: 'x', user: 'u', steps: [] } }), false);
    const bad = s.view('intent-3');
    assert.equal(bad.kind, 'inactive');
    assert.equal(bad.stateText, 'invalid plan');
    assert.match(bad.detail, /unsupported plan version/);

    assert.equal(s.remove('intent-2'), true);
    assert.equal(s.view('intent-2').kind, 'inactive');
    assert.equal(s.snapshot().planId, undefined);
  });

  it('snapshots the session as plain data', async () => {
    const s = session();
    const p = await payload(key);
    s.receive(p);
    await s.verify(loader(jwks));
    s.observe(edit('package.json', 'c1'), 'Edit package.json');
    const snap = JSON.parse(JSON.stringify(s.snapshot())) as ReturnType<SessionIntent['snapshot']>;
    assert.equal(snap.planId, 'intent');
    assert.equal(snap.jti, p.jti);
    assert.deepEqual([snap.verification?.state, snap.verification?.kid, snap.verification?.secondsLeft], ['verified', 'demo-1', 3600]);
    assert.deepEqual(snap.keys, { state: 'loaded', from: '/keys.json', keyCount: 1 });
    assert.deepEqual(
      snap.steps.map((st) => st.callsUsed),
      [0, 0, 0],
    );
    assert.deepEqual(
      snap.verdicts.map((v) => [v.toolCallId, v.title, v.verdict, v.planState]),
      [['c1', 'Edit package.json', 'not_in_plan', 'verified']],
    );
  });
});

describe('intent view texts', () => {
  it('describes steps, constraints and states', () => {
    assert.equal(stepDescription({ callsUsed: 2, maxCalls: 20, required: true }), '2/20 calls · required');
    assert.equal(stepDescription({ callsUsed: 0, maxCalls: 1, required: false }), '0/1 call');
    assert.deepEqual(describeConstraints({ a: { eq: 'x' }, b: { in: [1, 2] }, c: { regex: '^a$' }, d: { lte: 5 }, e: { gte: 1 } }), [
      'a equals "x"',
      'b is one of [1,2]',
      'c matches the pattern "^a$"',
      'd is at most 5',
      'e is at least 1',
    ]);
    assert.equal(timeLeft(3599), '59 min left');
    assert.equal(timeLeft(40), '40 s left');
    assert.equal(stateText('malformed', undefined, { state: 'none' }), 'malformed token');
    assert.equal(stateText('unverified', undefined, { state: 'not_loaded' }), 'unverified (no keys configured)');
  });

  it("speaks the user's language (l10n)", () => {
    assert.equal(stepDescription({ callsUsed: 2, maxCalls: 20, required: true }, german), '2/20 Aufrufe · erforderlich');
    assert.deepEqual(describeConstraints({ a: { eq: 'x' }, d: { lte: 5 } }, german), ['a ist gleich "x"', 'd ist höchstens 5']);
    assert.equal(timeLeft(3599, german), 'noch 59 min');
    assert.equal(stateText('malformed', undefined, { state: 'none' }, german), 'fehlerhaftes Token');
    assert.equal(
      stepTooltip({ index: 0, tool: 't', callsUsed: 1, maxCalls: 2, required: false, use: 'used', constraints: [] }, german),
      'Schritt 1: t\nAufrufe: 1 von höchstens 2\nOptional\nKeine festgelegten Argumente: jede Eingabe ist erlaubt.',
    );
    assert.equal(
      outsideDescription({ toolCallId: 'c', toolName: 't', reason: 'no_such_tool', detail: '' }, german),
      'not_in_plan: kein Schritt für dieses Werkzeug',
    );
    assert.deepEqual(claimLines({ polh: 'ff', groups: [] }, german), ['Richtlinie: (nicht benannt) (Hash ff)', 'Gruppen: (keine)']);
  });
});
