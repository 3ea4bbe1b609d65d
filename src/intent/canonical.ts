// RFC 8785 (JSON Canonicalization Scheme) and the plan hash `ph`.
//
// `ph` is SHA-256 over the UTF-8 bytes of the plan's canonical JSON. The reference material does not
// say how the 32 bytes are written in the claim, so we write lowercase hex and, when checking,
// accept the same 32 bytes written as hex or as unpadded base64url (compared as bytes).
import canonicalize from 'canonicalize';
import { createHash, timingSafeEqual } from 'node:crypto';

/** The RFC 8785 canonical JSON text of `value`; throws on values JSON cannot represent. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('value has no JSON representation');
  return text;
}

/** SHA-256 of the canonical JSON of `plan`. */
export function planHashBytes(plan: unknown): Uint8Array {
  return new Uint8Array(createHash('sha256').update(canonicalJson(plan), 'utf8').digest());
}

export type HashEncoding = 'hex' | 'base64url';

/** The plan hash as written in the `ph` claim (lowercase hex unless asked otherwise). */
export function planHash(plan: unknown, encoding: HashEncoding = 'hex'): string {
  return Buffer.from(planHashBytes(plan)).toString(encoding);
}

const HEX_RE = /^[0-9a-fA-F]{64}$/;
const B64URL_RE = /^[A-Za-z0-9_-]{43}$/;

/** The 32 hash bytes of a `ph` value written as hex or unpadded base64url; undefined otherwise. */
export function decodePlanHash(ph: string): Uint8Array | undefined {
  if (HEX_RE.test(ph)) return new Uint8Array(Buffer.from(ph, 'hex'));
  if (B64URL_RE.test(ph)) {
    const bytes = Buffer.from(ph, 'base64url');
    // Reject non-canonical encodings (stray low bits in the last character).
    return bytes.length === 32 && bytes.toString('base64url') === ph ? new Uint8Array(bytes) : undefined;
  }
  return undefined;
}

/** Constant-time comparison of two hashes. */
export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
