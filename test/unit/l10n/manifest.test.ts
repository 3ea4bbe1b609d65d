// package.json speaks through package.nls.json (scripts/l10n-nls.mjs, `npm run l10n:nls`): no
// user-facing literal is left in it, every `%key%` it names is in package.nls.json and in every
// translation, the translations have no key of their own, and the package ships them.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../../..');
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
const translations = fs.readdirSync(root).filter((f) => /^package\.nls\.[\w-]+\.json$/.test(f));

/** Every `%key%` value anywhere in the manifest. */
function keysIn(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    const key = /^%([\w.-]+)%$/.exec(value)?.[1];
    if (key) out.add(key);
  } else if (Array.isArray(value)) for (const v of value) keysIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) keysIn(v, out);
  return out;
}

describe('Localization: the manifest', () => {
  const en = readJson('package.nls.json') as Record<string, string>;

  it('leaves no user-facing literal in package.json', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/l10n-nls.mjs'), '--check'], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('ships a German translation', () => {
    assert.ok(translations.includes('package.nls.de.json'), translations.join(', '));
  });

  it('every %key% of package.json is in package.nls.json and every translation', () => {
    const keys = keysIn(readJson('package.json'));
    assert.ok(keys.size > 100, `${keys.size} keys`);
    for (const file of ['package.nls.json', ...translations]) {
      const nls = readJson(file) as Record<string, unknown>;
      const missing = [...keys].filter((k) => typeof nls[k] !== 'string' || nls[k] === '');
      assert.deepEqual(missing, [], `${file} misses keys`);
    }
  });

  it('translations have exactly the keys of package.nls.json', () => {
    for (const file of translations) {
      assert.deepEqual(Object.keys(readJson(file) as object).sort(), Object.keys(en).sort(), file);
    }
  });

  it('a translation keeps the command links of the text it translates', () => {
    const links = (text: string): string[] => [...text.matchAll(/\]\((command:[^)]+)\)/g)].map((m) => m[1]!);
    for (const file of translations) {
      const nls = readJson(file) as Record<string, string>;
      for (const [key, text] of Object.entries(en)) assert.deepEqual(links(nls[key]!), links(text), `${file}: ${key}`);
    }
  });

  it('the package ships package.nls*.json', () => {
    assert.match(fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8'), /^!package\.nls\*\.json$/m);
  });
});
