// The layer table (docs/ARCHITECTURE.md, "Which layer may import which") and its lint rule
// (lint/layers.mjs, `layers/imports`) say the same thing: the Markdown table equals the data the
// rule reads, and the rule, run by ESLint's own Linter, reports exactly the imports the table
// forbids (every ordered pair of layers, every import form, `vscode` where a layer is free of it).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import { LAYERS, layerOf, layersPlugin, mayImport } from '../../../lint/layers.mjs';

interface Layer {
  name: string;
  paths: string[];
  mayImport: string[] | '*';
  vscode: boolean;
  why: string;
}
const layers = LAYERS as Layer[];
const ROOT = '/project';

function documentedTable(): Layer[] {
  const doc = fs.readFileSync(path.join(process.cwd(), 'docs', 'ARCHITECTURE.md'), 'utf8');
  const table = /<!-- layers:start -->\n([\s\S]*?)<!-- layers:end -->/.exec(doc)?.[1];
  assert.ok(table, 'docs/ARCHITECTURE.md has the layer table between <!-- layers:start --> and <!-- layers:end -->');
  const cells = (line: string): string[] =>
    line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
  const rows = table.trim().split('\n').slice(2).map(cells);
  return rows.map(([name, folders, may, vscode, why]) => ({
    name: name!,
    paths: folders!.split(',').map((f) => f.trim()),
    mayImport: may === 'all' ? '*' : may === '—' ? [] : may!.split(',').map((m) => m.trim()),
    vscode: vscode === 'yes',
    why: why!,
  }));
}

function lint(file: string, code: string): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat', cwd: ROOT });
  return linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser as Linter.Parser },
        plugins: { layers: layersPlugin as never },
        rules: { 'layers/imports': ['error', { root: ROOT }] },
      },
    ],
    { filename: path.posix.join(ROOT, file) },
  );
}

/** A file inside a layer: `<folder>/probe.ts`, or the layer's own file. */
const fileIn = (l: Layer): string => (l.paths[0]!.endsWith('.ts') ? l.paths[0]! : `${l.paths[0]}/probe.ts`);
/** A module of a layer as an import of `from` names it. */
function specTo(from: string, l: Layer): string {
  const target = l.paths[0]!.endsWith('.ts') ? l.paths[0]!.replace(/\.ts$/, '') : `${l.paths[0]}/mod`;
  const rel = path.posix.relative(path.posix.dirname(from), target);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

describe('Layers: docs/ARCHITECTURE.md and lint/layers.mjs', () => {
  it('the documented table is the table the lint rule reads', () => {
    assert.deepEqual(documentedTable(), layers);
  });

  it('every folder of src/ belongs to a layer', () => {
    const top = fs.readdirSync(path.join(process.cwd(), 'src')).map((n) => `src/${n}`);
    const orphans = top.filter((p) => !layerOf(p));
    assert.deepEqual(orphans, []);
  });

  it('reports exactly the imports between layers that the table forbids, saying why', () => {
    let forbidden = 0;
    for (const from of layers) {
      for (const to of layers) {
        if (from === to) continue;
        const file = fileIn(from);
        const messages = lint(file, `import { x } from '${specTo(file, to)}';\nexport const y = x;\n`);
        const allowed = mayImport(from, to);
        assert.equal(messages.length, allowed ? 0 : 1, `${from.name} → ${to.name}: ${messages.map((m) => m.message).join('; ')}`);
        if (!allowed) {
          forbidden++;
          assert.ok(messages[0]!.message.includes(`may not import ${to.paths.length === 1 ? to.paths[0] : to.name}`), messages[0]!.message);
          assert.ok(messages[0]!.message.includes(from.why), messages[0]!.message);
        }
      }
    }
    assert.ok(forbidden > 50, `the table forbids most pairs (${forbidden})`);
  });

  it('catches every import form: type imports, re-exports, require, dynamic import, import types', () => {
    const forms = [
      "import type { X } from '../ui/mod';\nexport type Y = X;",
      "export { x } from '../ui/mod';",
      "export * from '../ui/mod';",
      "const m = require('../ui/mod');\nexport { m };",
      "export const m = import('../ui/mod');",
      "export type M = typeof import('../ui/mod');",
    ];
    for (const code of forms) assert.equal(lint('src/app/probe.ts', code).length, 1, code);
    // The same forms within a layer, or to a layer it may use, pass.
    for (const code of forms) assert.deepEqual(lint('src/app/probe.ts', code.replace(/\.\.\/ui\//g, '../state/')), [], code);
  });

  it('views reach git only through src/app; the history imports no service, src/app/checkpoints included', () => {
    const refused = (file: string, spec: string): string => {
      const messages = lint(file, `import type { X } from '${spec}';\nexport type Y = X;\n`);
      assert.equal(messages.length, 1, `${file} → ${spec}`);
      return messages[0]!.message;
    };
    assert.match(
      refused('src/ui/team/teamView.ts', '../../worktrees/apply'),
      /src\/ui may not import src\/worktrees: .*checkpoints and worktrees are reached through src\/app/,
    );
    assert.match(refused('src/ui/workActions.ts', '../checkpoints/shadowRepo'), /src\/ui may not import src\/checkpoints: /);
    assert.match(
      refused('src/app/history/sessionHistory.ts', '../checkpoints/checkpoints'),
      /src\/app\/history may not import src\/app: .*src\/app\/checkpoints included/,
    );
    assert.match(refused('src/app/team/team.ts', '../checkpoints/checkpoints'), /src\/app\/team may not import src\/app: /);
    // What they may import instead.
    assert.deepEqual(lint('src/ui/team/teamView.ts', "import type { X } from '../../app/team/teamPorts';\nexport type Y = X;\n"), []);
    assert.deepEqual(lint('src/ui/workRewind.ts', "import type { X } from '../app/checkpoints/checkpoints';\nexport type Y = X;\n"), []);
    assert.deepEqual(lint('src/app/checkpoints/checkpoints.ts', "import type { X } from '../history/records';\nexport type Y = X;\n"), []);
  });

  it('forbids vscode exactly in the layers marked free of it', () => {
    for (const l of layers) {
      const messages = lint(fileIn(l), "import * as vscode from 'vscode';\nexport const v = vscode;\n");
      assert.equal(messages.length, l.vscode ? 0 : 1, l.name);
    }
  });

  it('places a file by the longest folder that holds it (nested folders, the root files)', () => {
    assert.equal(layerOf('src/app/history/historyStore.ts')?.name, 'history');
    assert.equal(layerOf('src/app/team/team.ts')?.name, 'team');
    assert.equal(layerOf('src/app/checkpoints/checkpoints.ts')?.name, 'app');
    assert.equal(layerOf('src/extension.ts')?.name, 'root');
    assert.equal(layerOf('src/extensions/x.ts'), undefined);
    assert.equal(layerOf('test/unit/x.ts'), undefined);
  });
});
