import * as assert from 'node:assert/strict';
import { checkConstraint, globMatch, jsonEqual, MAX_MATCHED_LENGTH, regexHazard } from '../../../src/intent/constraints';
import { german } from '../l10n/german';

const ok = (r: ReturnType<typeof checkConstraint>): boolean | 'unchecked' => r.ok;

describe('constraints', () => {
  it('eq: deep equality, key order ignored', () => {
    assert.equal(ok(checkConstraint({ eq: 'acme/app' }, 'acme/app')), true);
    assert.equal(ok(checkConstraint({ eq: 'acme/app' }, 'acme/other')), false);
    assert.equal(ok(checkConstraint({ eq: { a: 1, b: [1, { c: null }] } }, { b: [1, { c: null }], a: 1 })), true);
    assert.equal(ok(checkConstraint({ eq: { a: 1 } }, { a: 1, b: 2 })), false);
    assert.equal(ok(checkConstraint({ eq: [1, 2] }, [2, 1])), false);
    assert.equal(ok(checkConstraint({ eq: 1 }, '1')), false);
    assert.equal(ok(checkConstraint({ eq: null }, null)), true);
  });

  it('in: membership by deep equality', () => {
    assert.equal(ok(checkConstraint({ in: ['main', 'dev'] }, 'dev')), true);
    assert.equal(ok(checkConstraint({ in: ['main', 'dev'] }, 'prod')), false);
    assert.equal(ok(checkConstraint({ in: [{ x: 1 }] }, { x: 1 })), true);
    assert.equal(ok(checkConstraint({ in: [] }, 'x')), false);
  });

  it('lte and gte: numbers only, bounds included', () => {
    assert.equal(ok(checkConstraint({ lte: 10 }, 10)), true);
    assert.equal(ok(checkConstraint({ lte: 10 }, 10.5)), false);
    assert.equal(ok(checkConstraint({ gte: 1 }, 1)), true);
    assert.equal(ok(checkConstraint({ gte: 1 }, 0)), false);
    assert.equal(ok(checkConstraint({ lte: 10 }, '5')), false);
    assert.equal(ok(checkConstraint({ gte: 0 }, Number.NaN)), false);
  });

  it('glob: * within a segment, ** across, ? one character, the rest literal', () => {
    assert.equal(ok(checkConstraint({ glob: 'src/*.ts' }, 'src/a.ts')), true);
    assert.equal(ok(checkConstraint({ glob: 'src/*.ts' }, 'src/a/b.ts')), false);
    assert.equal(ok(checkConstraint({ glob: 'src/**' }, 'src/a/b.ts')), true);
    assert.equal(ok(checkConstraint({ glob: 'src/*.ts' }, 7)), false);
    assert.ok(globMatch('src/**/*.ts', 'src/x.ts'), '**/ matches zero directories');
    assert.ok(globMatch('src/**/*.ts', 'src/a/b/x.ts'));
    assert.ok(!globMatch('src/**/*.ts', 'lib/x.ts'));
    assert.ok(globMatch('file?.txt', 'file1.txt'));
    assert.ok(!globMatch('file?.txt', 'file10.txt'));
    assert.ok(!globMatch('a?b', 'a/b'));
    assert.ok(globMatch('a.b+(c)', 'a.b+(c)'), 'regex characters are literal');
    assert.ok(!globMatch('a.b', 'axb'));
    assert.ok(globMatch('acme/*', 'acme/public-app'));
    assert.ok(!globMatch('acme/*', 'acme/public-app/x'));
    assert.ok(globMatch('*', ''));
    assert.ok(!globMatch('', 'x'));
    assert.ok(globMatch('😀?', '😀é'), 'code points, not UTF-16 units');
  });

  it('glob: adversarial patterns stay fast', () => {
    const pattern = '*a'.repeat(200) + 'b';
    const value = 'a'.repeat(MAX_MATCHED_LENGTH);
    const started = process.hrtime.bigint();
    assert.equal(globMatch(pattern, value), false);
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 2000);
  });

  it('regex: full match', () => {
    assert.equal(ok(checkConstraint({ regex: '[a-z]+-[0-9]+' }, 'abc-12')), true);
    assert.equal(ok(checkConstraint({ regex: '[a-z]+' }, 'abc-12')), false, 'a partial match is not a match');
    assert.equal(ok(checkConstraint({ regex: 'a|b' }, 'ab')), false, 'alternation is anchored as a whole');
    assert.equal(ok(checkConstraint({ regex: 'a|b' }, 'b')), true);
    assert.equal(ok(checkConstraint({ regex: '.*' }, 'x\ny')), false, '. does not cross lines');
    assert.equal(ok(checkConstraint({ regex: '\\d+' }, 12)), false, 'numbers are not strings');
  });

  it('regex: catastrophic, too long or invalid patterns are not run', () => {
    for (const p of ['(a+)+$', '(a*)*b', '(a|aa)+', '(\\w+\\s?)*', '((ab)+)+', '(a)\\1', '(?=a)a', 'x'.repeat(300)]) {
      assert.ok(regexHazard(p), p);
    }
    for (const p of ['[a-z]+-[0-9]+', '(ab)+', '(https?)://[^/]+/.*', '[(]+', 'a{2,5}', '(a|b)']) {
      assert.equal(regexHazard(p), undefined, p);
    }
    const started = process.hrtime.bigint();
    const r = checkConstraint({ regex: '(a+)+$' }, `${'a'.repeat(5000)}!`);
    assert.equal(r.ok, 'unchecked');
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 500);
    assert.equal(ok(checkConstraint({ regex: '(' }, 'x')), 'unchecked');
    assert.equal(ok(checkConstraint({ regex: 'a' }, 'a'.repeat(MAX_MATCHED_LENGTH + 1))), 'unchecked');
  });

  it('jsonEqual ignores undefined members like JSON does', () => {
    assert.ok(jsonEqual({ a: 1, b: undefined }, { a: 1 }));
    assert.ok(!jsonEqual({ a: 1 }, [1]));
  });

  it("says why in the user's language (l10n)", () => {
    assert.deepEqual(checkConstraint({ eq: 'acme/app' }, 'x', german), { ok: false, why: 'muss gleich "acme/app" sein' });
    assert.deepEqual(checkConstraint({ lte: 3 }, 'x', german), { ok: false, why: 'ist keine Zahl' });
    assert.deepEqual(checkConstraint({ regex: '(' }, 'x', german), { ok: 'unchecked', why: 'das Muster "(" wurde nicht ausgeführt: unausgeglichene Klammern' });
    assert.equal(regexHazard('(?=a)', german), 'Lookarounds werden nicht ausgeführt');
  });
});
