// Seed rows of the intent document: the agent, policy, role and groups claims are shown; a `jti`
// that is not a ULID is reported.
import * as assert from 'node:assert/strict';
import { generateSigningKey, makeJwks, type Jwks, type SigningKey } from '../../../src/intent/keys';
import { signIntentToken } from '../../../src/intent/sign';
import { claimLines, type ActiveIntentView } from '../../../src/app/intent/intentView';
import { SessionIntent, type KeyLoader } from '../../../src/app/intent/sessionIntent';
import { at, T0_SEC } from './helpers';

const PLAN = { version: 1, goal: 'Summarise open issues', user: 'alice@acme.dev', steps: [{ tool: 'github_list_issues' }] };
const CLAIMS = { agent: 'triage-bot', pol: 'read-only', polv: 7, polh: 'ab12', role: 'maintainer', groups: ['core', 'oncall'] };

async function payload(key: SigningKey, claims: Parameters<typeof signIntentToken>[2] = {}): Promise<Record<string, unknown>> {
  const signed = await signIntentToken(PLAN, key, { iat: T0_SEC, lifetimeSeconds: 900, ...CLAIMS, ...claims });
  return { type: '_intent', planId: 'intent', plan: PLAN, token: signed.token };
}
const loader = (jwks: Jwks | null): KeyLoader => ({
  get: () =>
    Promise.resolve(jwks ? { jwks, status: { state: 'loaded', from: '/k.json', keyCount: jwks.keys.length } } : { jwks: null, status: { state: 'none' } }),
  reload: () => undefined,
});
function active(s: SessionIntent): ActiveIntentView {
  const v = s.view('intent');
  assert.ok(v.kind === 'active');
  return v;
}

describe('intent token claims and jti (seed rows)', () => {
  let key: SigningKey;
  before(() => {
    key = generateSigningKey('k1');
  });

  it('writes one plain line per claim group', () => {
    assert.deepEqual(claimLines(CLAIMS), ['Agent: triage-bot', 'Policy: read-only (version 7, hash ab12)', 'Role: maintainer', 'Groups: core, oncall']);
    assert.deepEqual(claimLines({ pol: { rules: [{ allow: 'x' }] }, groups: [] }), ['Policy: {"rules":[{"allow":"x"}]}', 'Groups: (none)']);
    assert.deepEqual(claimLines({ polh: 'ff' }), ['Policy: (not named) (hash ff)']);
    assert.deepEqual(claimLines({}), []);
    const long = claimLines({ role: `a\n${'b'.repeat(5000)}` })[0]!;
    assert.ok(long.length <= 'Role: '.length + 200 && !long.includes('\n') && long.endsWith('…'));
  });

  it('shows the signed claims once the token verifies, and the unverified ones marked as such before', async () => {
    const s = new SessionIntent('a', 's', { now: () => at(0) });
    assert.equal(s.receive(await payload(key)), true);
    const checking = active(s);
    assert.equal(checking.claimsVerified, false);
    assert.deepEqual(checking.claims, claimLines(CLAIMS));
    await s.verify(loader(makeJwks([key.publicJwk])));
    const verified = active(s);
    assert.equal(verified.state, 'verified');
    assert.equal(verified.claimsVerified, true);
    assert.deepEqual(verified.claims, ['Agent: triage-bot', 'Policy: read-only (version 7, hash ab12)', 'Role: maintainer', 'Groups: core, oncall']);
    assert.deepEqual(verified.warnings, []);
  });

  it('reports a jti that is not a ULID, verified or not', async () => {
    const s = new SessionIntent('a', 's', { now: () => at(0) });
    s.receive(await payload(key, { jti: 'plan-42' }));
    assert.match(active(s).warnings.join('\n'), /The token id \(jti\) "plan-42" is not a ULID/);
    await s.verify(loader(makeJwks([key.publicJwk])));
    assert.equal(active(s).state, 'verified');
    assert.match(active(s).warnings.join('\n'), /"plan-42" is not a ULID/);
    // Too long for 48 bits of time (first digit over 7), or a letter Crockford base32 leaves out.
    for (const [i, jti] of ['81ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAU'].entries()) {
      const t = new SessionIntent('a', `t${i}`, { now: () => at(0) });
      t.receive(await payload(key, { jti }));
      assert.match(active(t).warnings.join('\n'), /not a ULID/, jti);
    }
    // ULIDs are case-insensitive.
    const l = new SessionIntent('a', 's2', { now: () => at(0) });
    l.receive(await payload(key, { jti: '01arz3ndektsv4rrffq69g5fav' }));
    assert.deepEqual(active(l).warnings, []);
    const u = new SessionIntent('a', 's3', { now: () => at(0) });
    u.receive(await payload(key, { jti: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }));
    assert.deepEqual(active(u).warnings, []);
  });
});
