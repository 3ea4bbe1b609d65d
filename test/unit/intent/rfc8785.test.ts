// RFC 8785 canonicalization on the RFC's own examples (test/fixtures/rfc8785, see its README).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalJson, decodePlanHash, planHash } from '../../../src/intent/canonical';

/** test/fixtures/rfc8785, found upwards from the compiled test (wherever it was built to) or the cwd. */
function fixturesDir(): string {
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'test', 'fixtures', 'rfc8785');
      if (existsSync(candidate)) return candidate;
      if (path.dirname(dir) === dir) break;
    }
  }
  throw new Error('test/fixtures/rfc8785 not found');
}
const FIXTURES = fixturesDir();
const text = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');
const hexBytes = (name: string): Buffer => Buffer.from(text(name).replace(/\s+/g, ''), 'hex');
const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');

function doubleFromBits(bits: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${bits}`));
  return view.getFloat64(0);
}

describe('RFC 8785 canonical JSON', () => {
  it('serializes every number of Appendix B as the RFC lists it, and refuses NaN and Infinity', () => {
    const { samples } = JSON.parse(text('numbers.json')) as { samples: [string, string | null][] };
    assert.equal(samples.length, 26);
    for (const [bits, expected] of samples) {
      const value = doubleFromBits(bits);
      if (expected === null) assert.throws(() => canonicalJson(value), Error, bits);
      else assert.equal(canonicalJson(value), expected, bits);
    }
  });

  it('canonicalizes the §3.2.2 sample to the exact bytes of §3.2.3 and §3.2.4', () => {
    const sample: unknown = JSON.parse(text('serialization-input.json'));
    const out = utf8(canonicalJson(sample));
    assert.deepEqual(out, hexBytes('serialization-expected.hex'));
    assert.deepEqual(out, readFileSync(path.join(FIXTURES, 'serialization-expected.txt')));
  });

  it('sorts the §3.2.3 property names by UTF-16 code units', () => {
    const sample = JSON.parse(text('sorting-input.json')) as Record<string, string>;
    const out = canonicalJson(sample);
    // Read the order from the text (Object.values would put the integer-like key "1" first).
    const textOrder = [...out.matchAll(/:"([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(textOrder, JSON.parse(text('sorting-expected-order.json')));
    assert.deepEqual(utf8(out), hexBytes('sorting-expected.hex'));
  });

  it('refuses lone surrogates and values JSON cannot carry', () => {
    assert.throws(() => canonicalJson({ a: '\ud800' }));
    assert.throws(() => canonicalJson(undefined));
  });
});

describe('planHash', () => {
  const plan = {
    version: 1,
    goal: 'Summarise open issues',
    user: 'alice@acme.dev',
    steps: [{ tool: 'github_list_issues', args: { repo: { eq: 'acme/public-app' } }, maxCalls: 3 }],
  };

  it('is SHA-256 over the canonical UTF-8 bytes, written in lowercase hex', () => {
    const sample: unknown = JSON.parse(text('serialization-input.json'));
    const expected = createHash('sha256').update(hexBytes('serialization-expected.hex')).digest('hex');
    assert.equal(planHash(sample), expected);
    assert.match(planHash(plan), /^[0-9a-f]{64}$/);
  });

  it('does not depend on key order or whitespace', () => {
    const shuffled = {
      steps: [{ maxCalls: 3, args: { repo: { eq: 'acme/public-app' } }, tool: 'github_list_issues' }],
      user: 'alice@acme.dev',
      goal: 'Summarise open issues',
      version: 1,
    };
    assert.equal(planHash(shuffled), planHash(plan));
    assert.notEqual(planHash({ ...plan, goal: 'Summarise open issues.' }), planHash(plan));
  });

  it('decodes ph written as hex or base64url to the same bytes, and nothing else', () => {
    const hex = planHash(plan);
    const b64 = planHash(plan, 'base64url');
    assert.equal(b64.length, 43);
    assert.deepEqual(decodePlanHash(hex), decodePlanHash(b64));
    assert.deepEqual(decodePlanHash(hex.toUpperCase()), decodePlanHash(hex));
    assert.equal(decodePlanHash(`${hex}00`), undefined);
    assert.equal(decodePlanHash(`${b64}=`), undefined);
    assert.equal(decodePlanHash('sha256'), undefined);
  });
});
