// Every message the code passes to `l10n.t` (vscode.l10n or an injected L10n, in any file of src/,
// pure modules included) is a literal listed in l10n/bundle.l10n.json, so the bundle (and with it
// every translation, bundle.test.ts) cannot fall behind the code. Read here with a plain scan,
// independent of scripts/l10n-export.mjs, which writes the bundle.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../../..');

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield full;
  }
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r' };
const unescape = (body: string): string => body.replace(/\\(.)/g, (_, c: string) => ESCAPES[c] ?? c);

/** A call `….l10n.t(` and, when its message is a literal, that literal (quotes kept). */
const CALL = /\bl10n\s*\.t\(\s*(?:\{\s*message:\s*)?('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.)*`)?/g;

describe('Localization: every message is in the bundle', () => {
  const bundle = JSON.parse(fs.readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
  const found: { where: string; message?: string }[] = [];
  for (const file of sourceFiles(path.join(root, 'src'))) {
    // Comment lines blanked (they may quote a call), line numbers kept.
    const text = fs.readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*|\/\*).*$/gm, '');
    for (const m of text.matchAll(CALL)) {
      const line = text.slice(0, m.index).split('\n').length;
      found.push({ where: `${path.relative(root, file)}:${line}`, message: m[1] === undefined ? undefined : unescape(m[1].slice(1, -1)) });
    }
  }

  it('finds the messages of the pure modules too', () => {
    assert.ok(found.length > 400, `${found.length} calls`);
    assert.ok(
      found.some((f) => f.where.startsWith(path.join('src', 'ui', 'statusBarText.ts'))),
      'statusBarText.ts (no vscode import at run time)',
    );
  });

  it('every message is a literal (a computed one could not be translated)', () => {
    assert.deepEqual(
      found.filter((f) => f.message === undefined).map((f) => f.where),
      [],
    );
  });

  it('l10n/bundle.l10n.json lists every message (npm run l10n:export)', () => {
    assert.deepEqual(
      found.filter((f) => f.message !== undefined && !(f.message in bundle)).map((f) => `${f.where}: ${f.message}`),
      [],
    );
  });

  it('l10n/bundle.l10n.json lists no message the code no longer uses', () => {
    const used = new Set(found.map((f) => f.message));
    assert.deepEqual(
      Object.keys(bundle).filter((k) => !used.has(k)),
      [],
    );
  });
});
