// Intent token verification. Every test makes its own Ed25519 key.
import * as assert from 'node:assert/strict';
import { generateSigningKey, makeJwks } from '../../../src/intent/keys';
import { planHash } from '../../../src/intent/canonical';
import { parseIntentPlanBody } from '../../../src/intent/schema';
import { signIntentToken } from '../../../src/intent/sign';
import { isUlid } from '../../../src/intent/ulid';
import { verificationAt, verifyIntentToken } from '../../../src/intent/verify';
import { at, examplePlan, T0, T0_SEC } from './helpers';
import { german } from '../l10n/german';

const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');

async function setup(claims: Parameters<typeof signIntentToken>[2] = {}) {
  const key = generateSigningKey('key-1');
  const plan = examplePlan();
  const signed = await signIntentToken(plan, key, { iat: T0_SEC, ...claims });
  return { key, plan, signed, jwks: makeJwks([key.publicJwk]) };
}

describe('verifyIntentToken', () => {
  it('verifies a token signed by a configured key for the plan shown', async () => {
    const { plan, signed, jwks } = await setup();
    const v = await verifyIntentToken(signed.token, plan, jwks, at(60));
    assert.equal(v.state, 'verified');
    if (v.state !== 'verified') return;
    assert.equal(v.kid, 'key-1');
    assert.equal(v.jti, signed.jti);
    assert.ok(isUlid(v.jti));
    assert.equal(v.secondsLeft, 15 * 60 - 60);
    assert.equal(v.expiresAt.getTime(), (T0_SEC + 900) * 1000);
    for (const claim of ['sub', 'jti', 'iat', 'exp', 'ph', 'plan', 'agent', 'pol', 'polv', 'polh', 'role', 'groups']) {
      assert.ok(claim in v.claims, `claim ${claim}`);
    }
    assert.equal(v.claims.ph, planHash(plan));
    assert.equal(v.claims.sub, 'alice@acme.dev');
  });

  it('reports a tampered payload as bad_signature', async () => {
    const { plan, signed, jwks } = await setup();
    const [h, p, s] = signed.token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const widened = { ...claims, exp: (claims.exp as number) + 600 };
    const v = await verifyIntentToken(`${h}.${b64(widened)}.${s}`, plan, jwks, at(60));
    assert.equal(v.state, 'bad_signature');
  });

  it('reports a token signed by another key with the same kid as bad_signature', async () => {
    const { plan, signed } = await setup();
    const impostor = generateSigningKey('key-1');
    const v = await verifyIntentToken(signed.token, plan, makeJwks([impostor.publicJwk]), at(60));
    assert.equal(v.state, 'bad_signature');
  });

  it('reports a kid no configured key has as unknown_key', async () => {
    const { plan, signed } = await setup();
    const other = generateSigningKey('key-2');
    const v = await verifyIntentToken(signed.token, plan, makeJwks([other.publicJwk]), at(60));
    assert.deepEqual([v.state, 'kid' in v && v.kid], ['unknown_key', 'key-1']);
  });

  it('enforces exp with the clock skew allowance', async () => {
    const { plan, signed, jwks } = await setup({ lifetimeSeconds: 600 });
    assert.equal((await verifyIntentToken(signed.token, plan, jwks, at(600 + 59))).state, 'verified');
    assert.equal((await verifyIntentToken(signed.token, plan, jwks, at(600 + 60))).state, 'verified');
    assert.equal((await verifyIntentToken(signed.token, plan, jwks, at(600 + 61))).state, 'expired');
    assert.equal((await verifyIntentToken(signed.token, plan, jwks, at(600 + 5), { clockSkewSeconds: 0 })).state, 'expired');
  });

  it('reports a ph claim that is not the hash of the plan shown as plan_hash_mismatch', async () => {
    const { key, plan, jwks } = await setup();
    const other = { ...plan, goal: 'Delete every issue' };
    const signed = await signIntentToken(other, key, { iat: T0_SEC, includePlan: false });
    const v = await verifyIntentToken(signed.token, plan, jwks, at(60));
    assert.equal(v.state, 'plan_hash_mismatch');
  });

  it('reports a plan claim that differs from the plan shown as plan_hash_mismatch', async () => {
    const { key, plan, jwks } = await setup();
    // ph matches the plan shown, but the signed plan claim is another plan.
    const signed = await signIntentToken({ ...plan, goal: 'Something else' }, key, { iat: T0_SEC, ph: planHash(plan) });
    assert.equal((await verifyIntentToken(signed.token, plan, jwks, at(60))).state, 'plan_hash_mismatch');
  });

  it('accepts ph written as base64url, and ph over the plan with defaults applied', async () => {
    const { key, plan, jwks } = await setup();
    const b64 = await signIntentToken(plan, key, { iat: T0_SEC, phEncoding: 'base64url' });
    assert.equal((await verifyIntentToken(b64.token, plan, jwks, at(1))).state, 'verified');
    const normalized = parseIntentPlanBody(plan);
    assert.ok(normalized.ok);
    const withDefaults = await signIntentToken(normalized.value, key, { iat: T0_SEC });
    assert.notEqual(withDefaults.ph, planHash(plan));
    assert.equal((await verifyIntentToken(withDefaults.token, plan, jwks, at(1))).state, 'verified');
  });

  it('is unverified when no keys are configured', async () => {
    const { plan, signed } = await setup();
    assert.equal((await verifyIntentToken(signed.token, plan, null, at(1))).state, 'unverified');
    assert.equal((await verifyIntentToken(signed.token, plan, undefined, at(1))).state, 'unverified');
    assert.equal((await verifyIntentToken(signed.token, plan, { keys: [] }, at(1))).state, 'unverified');
  });

  it('rejects a lifetime over 60 minutes, and accepts exactly 60', async () => {
    const { key, plan, jwks } = await setup();
    const long = await signIntentToken(plan, key, { iat: T0_SEC, lifetimeSeconds: 60 * 60 + 1 });
    const v = await verifyIntentToken(long.token, plan, jwks, at(1));
    assert.equal(v.state, 'malformed');
    assert.match(v.detail, /lifetime/);
    const hour = await signIntentToken(plan, key, { iat: T0_SEC, lifetimeSeconds: 60 * 60 });
    assert.equal((await verifyIntentToken(hour.token, plan, jwks, at(1))).state, 'verified');
    // A caller cannot raise the cap.
    assert.equal((await verifyIntentToken(long.token, plan, jwks, at(1), { maxLifetimeSeconds: 7200 })).state, 'malformed');
  });

  it('refuses tokens that are not EdDSA compact JWS with a kid', async () => {
    const { plan, signed, jwks } = await setup();
    const [, p] = signed.token.split('.');
    const none = `${b64({ alg: 'none', kid: 'key-1' })}.${p}.`;
    assert.equal((await verifyIntentToken(none, plan, jwks, at(1))).state, 'malformed');
    const hs = `${b64({ alg: 'HS256', kid: 'key-1' })}.${p}.c2ln`;
    assert.equal((await verifyIntentToken(hs, plan, jwks, at(1))).state, 'malformed');
    const noKid = `${b64({ alg: 'EdDSA' })}.${p}.c2ln`;
    assert.equal((await verifyIntentToken(noKid, plan, jwks, at(1))).state, 'malformed');
    assert.equal((await verifyIntentToken(undefined, plan, jwks, at(1))).state, 'malformed');
    assert.equal((await verifyIntentToken('not a token', plan, jwks, at(1))).state, 'malformed');
  });

  it('refuses a token issued in the future or for another person', async () => {
    const { key, plan, jwks } = await setup();
    const future = await signIntentToken(plan, key, { iat: T0_SEC + 600 });
    assert.equal((await verifyIntentToken(future.token, plan, jwks, T0)).state, 'malformed');
    const bob = await signIntentToken(plan, key, { iat: T0_SEC, sub: 'bob@acme.dev' });
    assert.equal((await verifyIntentToken(bob.token, plan, jwks, at(1))).state, 'malformed');
  });

  it('picks the right key among several with the same kid', async () => {
    const { plan, signed, key } = await setup();
    const impostor = generateSigningKey('key-1');
    const v = await verifyIntentToken(signed.token, plan, makeJwks([impostor.publicJwk, key.publicJwk]), at(1));
    assert.equal(v.state, 'verified');
  });

  it('turns verified into expired as time passes (verificationAt)', async () => {
    const { plan, signed, jwks } = await setup({ lifetimeSeconds: 300 });
    const v = await verifyIntentToken(signed.token, plan, jwks, at(1));
    assert.equal(verificationAt(v, at(100)).state, 'verified');
    assert.equal(verificationAt(v, at(300 + 61)).state, 'expired');
  });

  it("explains in the user's language (l10n)", async () => {
    const { plan, signed, jwks } = await setup({ lifetimeSeconds: 300 });
    assert.equal((await verifyIntentToken(undefined, plan, jwks, at(1), { l10n: german })).detail, 'Der Plan trägt kein Intent-Token.');
    assert.equal(
      (await verifyIntentToken(signed.token, plan, null, at(1), { l10n: german })).detail,
      'Es sind keine Intent-Schlüssel konfiguriert, daher wurde das Token nicht geprüft.',
    );
    const v = await verifyIntentToken(signed.token, plan, jwks, at(1), { l10n: german });
    assert.match(v.detail, /^Signiert mit Schlüssel "key-1"; noch \d+ s\.$/);
    assert.match(verificationAt(v, at(300 + 61), undefined, german).detail, /^Das Intent-Token ist um .* abgelaufen\.$/);
  });
});
