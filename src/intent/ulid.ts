// A ULID (https://github.com/ulid/spec): 48-bit millisecond timestamp + 80 random bits, written as
// 26 characters of Crockford base32. Used as the `jti` of the intent tokens we sign (Demo Agent,
// tests); lexicographic order follows creation time.
//
// Kept rather than the `ulid` package: this helper is not in dist/extension.js at all (only the
// Demo Agent and tests sign tokens), it is 1.2 KB minified against the package's 3.0 KB, and it
// takes its time and 10 random bytes as arguments, which the tests use for fixed vectors.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MAX_TIME = 2 ** 48 - 1;

/** A new ULID for the given time (default: now). */
export function ulid(timeMs: number = Date.now(), random: Uint8Array = randomBytes(10)): string {
  if (!Number.isInteger(timeMs) || timeMs < 0 || timeMs > MAX_TIME) throw new RangeError(`ULID time out of range: ${timeMs}`);
  if (random.length !== 10) throw new RangeError('ULID randomness must be 10 bytes');
  let time = '';
  let t = timeMs;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  // 80 random bits = 16 base32 digits, read 5 bits at a time from the big-endian byte string.
  let rand = '';
  let acc = 0;
  let bits = 0;
  for (const byte of random) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      rand += ALPHABET[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return time + rand;
}

const ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** Whether `s` has the shape of a ULID (canonical upper-case form). */
export function isUlid(s: string): boolean {
  return ULID_RE.test(s);
}

/** The timestamp (ms) encoded in a ULID. */
export function ulidTime(id: string): number {
  if (!isUlid(id)) throw new Error(`not a ULID: ${id}`);
  let t = 0;
  for (const ch of id.slice(0, 10)) t = t * 32 + ALPHABET.indexOf(ch);
  return t;
}
