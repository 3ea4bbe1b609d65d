// Every bundle the extension loads takes the `vscode` module once (esbuild.mjs's `oneVscode`,
// src/platform/vscodeApi.ts): esbuild copies an external module's namespace for each module importing it,
// a getter per export, and 36 copies of `vscode` were 2.5 MB of the extension host's heap at rest.
// Reads the bundles `node esbuild.mjs` built.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const DIST = path.join(__dirname, '../../../../dist');

describe('the bundles take the vscode module once each', () => {
  const bundles = fs.readdirSync(DIST).filter((f) => f.endsWith('.js'));
  const requires = (f: string): number => fs.readFileSync(path.join(DIST, f), 'utf8').split(/require\(["']vscode["']\)/).length - 1;

  it('dist/extension.js requires vscode exactly once', () => {
    assert.equal(requires('extension.js'), 1);
  });

  it('no bundle requires vscode more than once', () => {
    const many = bundles.filter((f) => requires(f) > 1).map((f) => `${f}: ${requires(f)}`);
    assert.deepEqual(many, []);
  });
});
