// Archive names are hostile input: whatever the name, an accepted one lands inside the folder, and
// an accepted symlink target resolves inside it too (checked against a plain reference resolution).
import assert from 'node:assert/strict';
import * as path from 'path';
import fc from 'fast-check';
import { inside, linkStaysInside, safeRelative } from '../../../src/registry/safePath';
import { german } from '../l10n/german';

const segment = fc.oneof(fc.constantFrom('..', '.', '', 'a', 'b', '...', '..a', 'C:', '\\..', '~'), fc.string({ maxLength: 4 }));
const name = fc.array(segment, { maxLength: 8 }).map((s) => s.join('/'));

describe('archive entry names', () => {
  it('an accepted name always resolves inside the target folder', () => {
    const root = path.resolve('/srv/acp/root');
    fc.assert(
      fc.property(fc.oneof(name, fc.string()), (n) => {
        let rel: string;
        try {
          rel = safeRelative(n);
        } catch {
          return;
        }
        const full = inside(root, rel);
        assert.ok(full === root || full.startsWith(root + path.sep), `${JSON.stringify(n)} → ${full}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('an accepted symlink target never climbs above the folder', () => {
    const root = '/deep/enough/to/climb/root';
    fc.assert(
      fc.property(name, name, (at, target) => {
        let rel: string;
        try {
          rel = safeRelative(at);
        } catch {
          return;
        }
        if (!rel || !linkStaysInside(rel, target)) return;
        const resolved = path.posix.resolve(root, path.posix.dirname(rel), target);
        assert.ok(resolved === root || resolved.startsWith(root + '/'), `${rel} -> ${target} resolves to ${resolved}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('says why a name is refused', () => {
    assert.throws(() => safeRelative('a/../../b'), /goes up with "\.\."/);
    assert.throws(() => safeRelative('/etc/x'), /absolute path/);
    assert.throws(() => safeRelative('C:/x'), /absolute path/);
    assert.throws(() => safeRelative('a\\..\\b'), /backslash/);
    assert.throws(() => safeRelative('a\0b'), /NUL/);
    assert.equal(safeRelative('./a//b/./c/'), 'a/b/c');
    assert.equal(safeRelative('./'), '');
    assert.equal(linkStaysInside('a/b/link', '../c'), true);
    assert.equal(linkStaysInside('a/link', '../../c'), false);
    assert.equal(linkStaysInside('link', '/etc'), false);
  });

  it("refuses in whole sentences, per kind of name, in the user's language (l10n)", () => {
    assert.throws(() => safeRelative('/etc/x', 'cmd'), /The entry's "cmd" "\/etc\/x" is an absolute path; it is refused\.$/);
    assert.throws(() => safeRelative('a/../../b', 'version'), /The version "a\/..\/..\/b" goes up/);
    assert.throws(() => safeRelative('/etc/x', 'entry', german), /Der Archiveintrag „\/etc\/x“ ist ein absoluter Pfad/);
    assert.throws(() => safeRelative('a\0b', 'version', german), /Die Version „a\?b“ enthält ein NUL-Zeichen/);
    assert.throws(() => safeRelative('..', 'cmd', german), /Das „cmd“ „..“ des Eintrags geht mit „..“ nach oben/);
    assert.throws(() => inside('/root', '../x', german), /„..\/x“ führt aus dem Installationsordner hinaus/);
  });
});
