// Everything the extension does with jose: reading an intent token's header and `jti`, and checking
// its signature. The extension bundle loads this module on first use, as its own file
// (dist/intent-jws.js, see jwsLoader.ts); import it only through `loadJws()`.
import { compactVerify, decodeJwt, decodeProtectedHeader, errors, importJWK } from 'jose';

export type SignatureCheck = { kind: 'ok'; payload: Uint8Array } | { kind: 'bad' } | { kind: 'malformed'; detail: string };

/** The token's protected header; throws when it cannot be decoded. */
export function protectedHeader(token: string): { alg?: unknown; kid?: unknown } {
  return decodeProtectedHeader(token);
}

/**
 * Checks the signature of `token` with each candidate key (Ed25519 public JWKs): `ok` with the
 * payload for the first that verifies, `bad` when none does, `malformed` when no key could even
 * be tried (the detail says why).
 */
export async function checkSignature(token: string, candidates: readonly object[], algorithms: string[]): Promise<SignatureCheck> {
  let badSignature = false;
  let failure: string | undefined;
  for (const jwk of candidates) {
    try {
      const key = await importJWK({ ...jwk }, 'EdDSA');
      const { payload } = await compactVerify(token, key, { algorithms });
      return { kind: 'ok', payload };
    } catch (err) {
      if (err instanceof errors.JWSSignatureVerificationFailed) badSignature = true;
      else failure ??= `The intent token cannot be checked: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  if (badSignature || failure === undefined) return { kind: 'bad' };
  return { kind: 'malformed', detail: failure };
}

/** The token's claims as written (not verified), or undefined when they cannot be read. */
export function unverifiedClaims(token: string): Record<string, unknown> | undefined {
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}

/** The token's `jti` as written (not verified), or undefined when it has none or cannot be read. */
export function unverifiedJti(token: string): string | undefined {
  try {
    const jti = decodeJwt(token).jti;
    return typeof jti === 'string' && jti !== '' ? jti : undefined;
  } catch {
    return undefined;
  }
}
