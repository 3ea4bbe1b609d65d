// Signing intent tokens, for the Demo Agent and the tests. A real deployment gets its tokens from
// the guard's server; the extension itself only verifies.
import { SignJWT } from 'jose';
import { createHash, type KeyObject } from 'node:crypto';
import { canonicalJson, planHash, type HashEncoding } from './canonical';
import { DEFAULT_LIFETIME_SECONDS } from './limits';
import { ulid } from './ulid';

export interface IntentClaimsInput {
  /** Default: the plan's `user`. */
  sub?: string;
  /** Default: a new ULID. */
  jti?: string;
  /** Issued-at, seconds since the epoch. Default: now. */
  iat?: number;
  /** Expiry, seconds since the epoch. Default: `iat + lifetimeSeconds`. Not capped: tests sign bad tokens too. */
  exp?: number;
  /** Default 15 minutes. */
  lifetimeSeconds?: number;
  agent?: unknown;
  pol?: unknown;
  polv?: unknown;
  /** Default: SHA-256 (hex) of the canonical JSON of `pol`. */
  polh?: unknown;
  role?: unknown;
  groups?: unknown;
  /** Put the full plan in the `plan` claim (default true). */
  includePlan?: boolean;
  /** Override the `ph` claim (tests). */
  ph?: string;
  /** How `ph` is written (default hex). */
  phEncoding?: HashEncoding;
}

export interface SignedIntentToken {
  token: string;
  jti: string;
  ph: string;
  iat: number;
  exp: number;
}

/** Signs `plan` (as it will be sent) into a compact JWS (`EdDSA`, Ed25519) with every intent claim. */
export async function signIntentToken(plan: unknown, key: { kid: string; privateKey: KeyObject }, claims: IntentClaimsInput = {}): Promise<SignedIntentToken> {
  const iat = claims.iat ?? Math.floor(Date.now() / 1000);
  const exp = claims.exp ?? iat + (claims.lifetimeSeconds ?? DEFAULT_LIFETIME_SECONDS);
  const jti = claims.jti ?? ulid(iat * 1000);
  const ph = claims.ph ?? planHash(plan, claims.phEncoding);
  const pol = claims.pol ?? { rules: [] };
  const user = typeof plan === 'object' && plan !== null ? (plan as { user?: unknown }).user : undefined;
  const payload: Record<string, unknown> = {
    sub: claims.sub ?? (typeof user === 'string' ? user : ''),
    jti,
    iat,
    exp,
    ph,
    agent: claims.agent ?? 'demo-agent',
    pol,
    polv: claims.polv ?? 1,
    polh: claims.polh ?? createHash('sha256').update(canonicalJson(pol), 'utf8').digest('hex'),
    role: claims.role ?? 'member',
    groups: claims.groups ?? [],
  };
  if (claims.includePlan ?? true) payload.plan = plan;
  const token = await new SignJWT(payload).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
  return { token, jti, ph, iat, exp };
}
