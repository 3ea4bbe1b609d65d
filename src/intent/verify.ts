// Verifying an intent token against the plan shown and the configured keys.
//
// The result is `verified` only when the signature checks out against a configured key with the
// token's `kid`, the `ph` claim (and the `plan` claim, when present) matches the plan shown, the
// lifetime is at most 60 minutes and the token has not expired (allowing the clock skew).
import { canonicalJson, decodePlanHash, planHashBytes, sameHash } from './canonical';
import { DEFAULT_CLOCK_SKEW_SECONDS, intentClaimsSchema, MAX_LIFETIME_SECONDS, type IntentClaims } from './claims';
import { loadJws } from './jwsLoader';
import { keysForKid, type Jwks } from './keys';
import { formatIssues, parseIntentPlanBody } from './schema';
import { english, type L10n } from '../common/l10n';

export type VerificationState = 'verified' | 'expired' | 'bad_signature' | 'plan_hash_mismatch' | 'unknown_key' | 'unverified' | 'malformed';

export type IntentVerification =
  | { state: 'verified'; detail: string; kid: string; jti: string; expiresAt: Date; secondsLeft: number; claims: IntentClaims }
  | { state: 'expired'; detail: string; kid: string; jti: string; expiresAt: Date; claims: IntentClaims }
  | { state: 'plan_hash_mismatch'; detail: string; kid: string; jti: string }
  | { state: 'bad_signature' | 'unknown_key'; detail: string; kid: string }
  | { state: 'unverified' | 'malformed'; detail: string };

export interface VerifyOptions {
  /** Allowed clock difference for `exp`, `iat` and `nbf` (default 60 s). */
  clockSkewSeconds?: number;
  /** Longest accepted lifetime `exp - iat` (default and maximum 60 min). */
  maxLifetimeSeconds?: number;
  /** The user's language for the details (vscode.l10n in the product). */
  l10n?: L10n;
}

const ALGORITHMS = ['EdDSA', 'Ed25519'];
const MAX_TOKEN_LENGTH = 256 * 1024;
const COMPACT_JWS_RE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/;

/**
 * Checks `token` against `plan` (the plan exactly as received, before defaults) with the keys of
 * `keys` (null or empty: no keys configured) at time `now`.
 */
export async function verifyIntentToken(
  token: string | undefined,
  plan: unknown,
  keys: Jwks | null | undefined,
  now: Date,
  opts: VerifyOptions = {},
): Promise<IntentVerification> {
  const l10n = opts.l10n ?? english;
  if (token === undefined || token === '') return { state: 'malformed', detail: l10n.t('The plan carries no intent token.') };
  if (token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS_RE.test(token)) return { state: 'malformed', detail: l10n.t('The intent token is not a compact JWS.') };
  let jws: ReturnType<typeof loadJws>;
  try {
    jws = loadJws();
  } catch (err) {
    return { state: 'unverified', detail: err instanceof Error ? err.message : String(err) };
  }
  let kid: string;
  try {
    const header = jws.protectedHeader(token);
    if (typeof header.alg !== 'string' || !ALGORITHMS.includes(header.alg)) {
      return {
        state: 'malformed',
        detail: l10n.t('The intent token uses algorithm {0}; only EdDSA (Ed25519) is accepted.', String(JSON.stringify(header.alg))),
      };
    }
    if (typeof header.kid !== 'string' || header.kid === '') return { state: 'malformed', detail: l10n.t('The intent token header has no key id (kid).') };
    kid = header.kid;
  } catch {
    return { state: 'malformed', detail: l10n.t('The intent token header cannot be decoded.') };
  }
  if (!keys || keys.keys.length === 0) return { state: 'unverified', detail: l10n.t('No intent keys are configured, so the token was not checked.') };
  const candidates = keysForKid(keys, kid);
  if (candidates.length === 0) return { state: 'unknown_key', kid, detail: l10n.t('No configured key has the id {0}.', JSON.stringify(kid)) };

  const signed = await jws.checkSignature(token, candidates, ALGORITHMS);
  if (signed.kind === 'bad') return { state: 'bad_signature', kid, detail: l10n.t('The intent token signature does not match the configured key.') };
  if (signed.kind === 'malformed') return { state: 'malformed', detail: signed.detail };
  return checkClaims(signed.payload, plan, kid, now, opts, l10n);
}

function checkClaims(payload: Uint8Array, plan: unknown, kid: string, now: Date, opts: VerifyOptions, l10n: L10n): IntentVerification {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    return { state: 'malformed', detail: l10n.t('The intent token payload is not JSON.') };
  }
  const parsed = intentClaimsSchema.safeParse(json, { reportInput: true });
  if (!parsed.success) return { state: 'malformed', detail: l10n.t('The intent token claims are invalid: {0}', formatIssues(parsed.error.issues, '')) };
  const claims = parsed.data;
  const skew = opts.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  const nowSec = now.getTime() / 1000;

  const timeProblem = lifetimeProblem(claims, nowSec, skew, l10n, opts.maxLifetimeSeconds);
  if (timeProblem) return { state: 'malformed', detail: timeProblem };
  const planProblem = planMismatch(claims, plan, l10n);
  if (planProblem === 'unhashable') return { state: 'malformed', detail: l10n.t('The plan cannot be written as canonical JSON.') };
  if (planProblem === 'bad_ph') return { state: 'malformed', detail: l10n.t('The ph claim is not a SHA-256 hash (hex or base64url).') };
  if (planProblem) return { state: 'plan_hash_mismatch', kid, jti: claims.jti, detail: planProblem };
  if (
    typeof plan === 'object' &&
    plan !== null &&
    typeof (plan as { user?: unknown }).user === 'string' &&
    (plan as { user: string }).user.toLowerCase() !== claims.sub.toLowerCase()
  ) {
    return { state: 'malformed', detail: l10n.t('The token was issued for a different person than the plan names (sub ≠ user).') };
  }

  const expiresAt = new Date(claims.exp * 1000);
  if (nowSec > claims.exp + skew) return { state: 'expired', kid, jti: claims.jti, expiresAt, claims, detail: expiredDetail(expiresAt, l10n) };
  const secondsLeft = Math.max(0, Math.floor(claims.exp - nowSec));
  return { state: 'verified', kid, jti: claims.jti, expiresAt, secondsLeft, claims, detail: signedDetail(kid, secondsLeft, l10n) };
}

function lifetimeProblem(claims: IntentClaims, nowSec: number, skew: number, l10n: L10n, maxLifetime?: number): string | undefined {
  const max = Math.min(maxLifetime ?? MAX_LIFETIME_SECONDS, MAX_LIFETIME_SECONDS);
  const lifetime = claims.exp - claims.iat;
  if (lifetime <= 0) return l10n.t('The intent token expires before it was issued.');
  if (lifetime > max) return l10n.t('The intent token lifetime ({0} min) is longer than the allowed {1} min.', Math.round(lifetime / 60), Math.round(max / 60));
  if (claims.iat > nowSec + skew) return l10n.t('The intent token was issued in the future (check the clock).');
  if (claims.nbf !== undefined && claims.nbf > nowSec + skew) return l10n.t('The intent token is not valid yet.');
  return undefined;
}

/**
 * Why the claims do not describe `plan`: the `ph` claim must be the hash of the plan as received or
 * of the same plan with defaults applied (both are the plan shown), and the `plan` claim, when
 * present, must be that same plan.
 */
function planMismatch(claims: IntentClaims, plan: unknown, l10n: L10n): string | 'unhashable' | 'bad_ph' | undefined {
  const forms: unknown[] = [plan];
  const normalized = parseIntentPlanBody(plan);
  if (normalized.ok) forms.push(normalized.value);
  let hashes: Uint8Array[];
  try {
    hashes = forms.map(planHashBytes);
  } catch {
    return 'unhashable';
  }
  const ph = decodePlanHash(claims.ph);
  if (!ph) return 'bad_ph';
  if (!hashes.some((h) => sameHash(h, ph))) return l10n.t('The plan shown does not match the plan hash (ph) the token was signed for.');
  if (claims.plan !== undefined && !samePlan(claims.plan, plan)) return l10n.t('The plan shown differs from the plan inside the token.');
  return undefined;
}

function samePlan(claimed: unknown, shown: unknown): boolean {
  try {
    if (canonicalJson(claimed) === canonicalJson(shown)) return true;
    const a = parseIntentPlanBody(claimed);
    const b = parseIntentPlanBody(shown);
    return a.ok && b.ok && canonicalJson(a.value) === canonicalJson(b.value);
  } catch {
    return false;
  }
}

/** Whether a verification still holds at `now` (a verified token expires while it is shown). */
export function verificationAt(v: IntentVerification, now: Date, clockSkewSeconds = DEFAULT_CLOCK_SKEW_SECONDS, l10n: L10n = english): IntentVerification {
  if (v.state !== 'verified') return v;
  const nowSec = now.getTime() / 1000;
  const exp = v.expiresAt.getTime() / 1000;
  if (nowSec > exp + clockSkewSeconds) {
    return {
      state: 'expired',
      kid: v.kid,
      jti: v.jti,
      expiresAt: v.expiresAt,
      claims: v.claims,
      detail: expiredDetail(v.expiresAt, l10n),
    };
  }
  const secondsLeft = Math.max(0, Math.floor(exp - nowSec));
  return { ...v, secondsLeft, detail: signedDetail(v.kid, secondsLeft, l10n) };
}

function expiredDetail(expiresAt: Date, l10n: L10n): string {
  return l10n.t('The intent token expired at {0}.', expiresAt.toISOString());
}

function signedDetail(kid: string, secondsLeft: number, l10n: L10n): string {
  return l10n.t('Signed by key {0}; {1} s left.', JSON.stringify(kid), secondsLeft);
}
