// The runtime strings (`vscode.l10n.t`, collected by `npm run l10n:export` into
// l10n/bundle.l10n.json): every translation has every message with the same `{n}` placeholders and
// the same `$(icon)`s, and nothing else; the package ships l10n/. `english` (src/common/l10n.ts)
// fills placeholders as `vscode.l10n.t` does.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { english } from '../../../src/common/l10n';

const root = path.resolve(__dirname, '../../../..');
const dir = path.join(root, 'l10n');
const readJson = (file: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Record<string, string>;
const translations = fs.readdirSync(dir).filter((f) => /^bundle\.l10n\.[\w-]+\.json$/.test(f));
/** The placeholders and icons of a message, sorted (a translation may reorder them). */
const marks = (text: string): string[] => [...text.matchAll(/\{\d+\}|\$\([\w~-]+\)/g)].map((m) => m[0]).sort();

describe('Localization: runtime strings', () => {
  const en = readJson('bundle.l10n.json');

  it('package.json names l10n/ and the package ships it', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { l10n?: string };
    assert.equal(pkg.l10n, './l10n');
    assert.match(fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8'), /^!l10n\/\*\.json$/m);
  });

  it('ships a German bundle', () => {
    assert.ok(translations.includes('bundle.l10n.de.json'), translations.join(', '));
    assert.ok(Object.keys(en).length > 50, `${Object.keys(en).length} messages`);
  });

  it('every translation has every message, with the same placeholders and icons, and no other', () => {
    for (const file of translations) {
      const tr = readJson(file);
      assert.deepEqual(
        Object.keys(en).filter((k) => typeof tr[k] !== 'string' || tr[k] === ''),
        [],
        `${file} misses messages (npm run l10n:export, then translate)`,
      );
      assert.deepEqual(
        Object.keys(tr).filter((k) => !(k in en)),
        [],
        `${file} has messages the code no longer uses`,
      );
      for (const [key, text] of Object.entries(tr)) assert.deepEqual(marks(text), marks(key), `${file}: ${key}`);
    }
  });

  it('english fills placeholders like vscode.l10n.t', () => {
    assert.equal(english.t('{1} of {0}, {2}', 7, 3), '3 of 7, {2}');
    assert.equal(english.t('{n} left', { n: 2 }), '2 left');
    assert.equal(english.t({ message: 'Hi {0}', args: ['you'], comment: 'greeting' }), 'Hi you');
  });
});
