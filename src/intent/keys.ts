// Ed25519 keys as JWKs: the key set tokens are checked against, and signing keys for the Demo
// Agent and the tests.
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { canonicalJson } from './canonical';
import type { ParseResult } from './schema';

/** A public Ed25519 signing key as a JWK (RFC 8037). */
export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg?: string;
  use?: string;
}

/** A JSON Web Key Set holding only usable public Ed25519 keys. */
export interface Jwks {
  keys: PublicJwk[];
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: PublicJwk;
}

/** A fresh Ed25519 key pair; `kid` defaults to the RFC 7638 thumbprint of the public key. */
export function generateSigningKey(kid?: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new Error('Ed25519 public key export has no "x"');
  const id = kid ?? jwkThumbprint(jwk.x);
  return { kid: id, privateKey, publicJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: id, alg: 'EdDSA', use: 'sig' } };
}

/** RFC 7638 thumbprint (SHA-256, base64url) of an Ed25519 public key. */
export function jwkThumbprint(x: string): string {
  return createHash('sha256')
    .update(canonicalJson({ crv: 'Ed25519', kty: 'OKP', x }), 'utf8')
    .digest('base64url');
}

/** A key set from public keys; throws if one of them is not a usable public Ed25519 key. */
export function makeJwks(publicJwks: readonly unknown[]): Jwks {
  const r = parseJwks({ keys: publicJwks });
  if (!r.ok) throw new Error(r.error);
  if (r.value.keys.length !== publicJwks.length) throw new Error('every key must be a public Ed25519 key (kty OKP, crv Ed25519) with a kid');
  return r.value;
}

/**
 * Validates a key set: refuses private keys, keeps the public Ed25519 signing keys that have a
 * `kid` (others are ignored), and fails when none is left.
 */
export function parseJwks(value: unknown): ParseResult<Jwks> {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { keys?: unknown }).keys)) {
    return { ok: false, error: 'not a JSON Web Key Set: expected an object with a "keys" array' };
  }
  const keys: PublicJwk[] = [];
  for (const [i, k] of (value as { keys: unknown[] }).keys.entries()) {
    if (typeof k !== 'object' || k === null) return { ok: false, error: `keys[${i}] is not an object` };
    const key = k as Record<string, unknown>;
    if ('d' in key) return { ok: false, error: `keys[${i}] is a private key ("d" is present); publish only public keys` };
    const usable =
      key.kty === 'OKP' &&
      key.crv === 'Ed25519' &&
      typeof key.x === 'string' &&
      typeof key.kid === 'string' &&
      key.kid !== '' &&
      (key.use === undefined || key.use === 'sig') &&
      (key.alg === undefined || key.alg === 'EdDSA' || key.alg === 'Ed25519');
    if (!usable) continue;
    const jwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: key.x as string, kid: key.kid as string };
    if (typeof key.alg === 'string') jwk.alg = key.alg;
    if (typeof key.use === 'string') jwk.use = key.use;
    keys.push(jwk);
  }
  if (keys.length === 0) return { ok: false, error: 'the key set has no public Ed25519 signing key with a "kid"' };
  return { ok: true, value: { keys } };
}

/** The keys of the set with this key id. */
export function keysForKid(jwks: Jwks, kid: string): PublicJwk[] {
  return jwks.keys.filter((k) => k.kid === kid);
}
