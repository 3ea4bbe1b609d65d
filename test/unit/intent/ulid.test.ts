import * as assert from 'node:assert/strict';
import { isUlid, ulid, ulidTime } from '../../../src/intent/ulid';

describe('ulid', () => {
  it('encodes the time as the spec does (01ARYZ6S41 = 1469918176385)', () => {
    assert.equal(ulid(1469918176385).slice(0, 10), '01ARYZ6S41');
    assert.equal(ulidTime(ulid(1469918176385)), 1469918176385);
  });

  it('writes the bounds and the randomness in Crockford base32', () => {
    assert.equal(ulid(0, new Uint8Array(10)), '0'.repeat(26));
    assert.equal(ulid(2 ** 48 - 1, new Uint8Array(10).fill(255)), `7${'Z'.repeat(25)}`);
    assert.equal(ulid(0, Uint8Array.from([0x08, 0x42, 0x10, 0x84, 0x21, 0x08, 0x42, 0x10, 0x84, 0x21])).slice(10), '1'.repeat(16));
    assert.throws(() => ulid(-1));
    assert.throws(() => ulid(2 ** 48));
  });

  it('makes distinct, well-formed ids that sort by time', () => {
    const ids = [ulid(1000), ulid(2000), ulid(3000)];
    assert.ok(ids.every(isUlid));
    assert.deepEqual([...ids].sort(), ids);
    assert.notEqual(ulid(5), ulid(5));
    assert.ok(!isUlid('8ZZZZZZZZZZZZZZZZZZZZZZZZZ'));
    assert.ok(!isUlid('01ARYZ6S41TSV4RRFFQ69G5FAU'.replace('U', 'I')));
  });
});
