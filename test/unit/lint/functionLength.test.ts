// The function length rule (lint/functionLength.mjs, `functions/max-lines`) and its list of
// tables (lint/longFunctions.mjs): run by ESLint's own Linter, a function of 61 lines of code is
// reported with the limit and what to do, one of 60 is not; blank and comment-only lines are free;
// a listed name passes in its own file only; an entry whose function is under the limit is
// reported; eslint.config.mjs applies it with max 60 to src/ and media/src/, not to test/; and
// every entry of the real list names a function over the limit in a file that exists.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ESLint, Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import { functionsPlugin } from '../../../lint/functionLength.mjs';
import { LONG_FUNCTIONS, type LongFunction } from '../../../lint/longFunctions.mjs';

const ROOT = '/project';

function lint(file: string, code: string, allow: LongFunction[] = [], root = ROOT): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat', cwd: root });
  return linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser as Linter.Parser },
        plugins: { functions: functionsPlugin as never },
        rules: { 'functions/max-lines': ['error', { root, max: 60, skipBlankLines: true, skipComments: true, allow }] },
      },
    ],
    { filename: path.posix.join(root, file) },
  );
}

/** `lines` lines of statements. */
const body = (lines: number, indent = '  '): string => Array.from({ length: lines }, (_, i) => `${indent}x += ${i};`).join('\n');
/** A function declaration of exactly `lines` lines of code (head and closing brace included). */
const fn = (name: string, lines: number): string => `export function ${name}(x: number): number {\n${body(lines - 3)}\n  return x;\n}\n`;

describe('Function length: lint/functionLength.mjs and lint/longFunctions.mjs', () => {
  it('reports a function of 61 lines of code, saying the limit and what to do; 60 lines pass', () => {
    assert.deepEqual(lint('src/app/probe.ts', fn('sixty', 60)), []);
    const messages = lint('src/app/probe.ts', fn('sixtyOne', 61));
    assert.equal(messages.length, 1);
    const m = messages[0]!;
    assert.equal(m.ruleId, 'functions/max-lines');
    assert.equal(m.line, 1);
    assert.match(m.message, /^sixtyOne has 61 lines of code; a function has at most 60\. Split it along its seams into named helpers/);
    assert.match(m.message, /listed by name, with the reason, in lint\/longFunctions\.mjs/);
  });

  it('counts lines of code: blank lines and comment-only lines are free, a multi-line string counts', () => {
    const padded = `export function padded(x: number): number {\n${body(30)}\n\n  // why\n  /*\n   * more why\n   */\n\n${body(27)}\n  return x; // a trailing comment\n}\n`;
    assert.deepEqual(lint('src/app/probe.ts', padded), [], 'comments and blank lines do not count');
    const text = `export function text(x: number): string {\n${body(50)}\n  return \`${'\n'.repeat(10)}\${x}\`;\n}\n`;
    assert.match(lint('src/app/probe.ts', text)[0]?.message ?? '', /^text has 63 lines of code/);
  });

  it('names functions as the list does: declarations, variables, object keys, Class.member', () => {
    const code = [
      `const arrow = (x: number): number => {\n${body(60)}\n  return x;\n};`,
      `export const table = {\n  handler(x: number): number {\n${body(60, '    ')}\n    return x;\n  },\n};`,
      `export class Service {\n  constructor(x: number) {\n${body(60, '    ')}\n  }\n  method(x: number): number {\n${body(60, '    ')}\n    return x;\n  }\n}`,
      `export const r = arrow(1);`,
    ].join('\n');
    const names = lint('src/app/probe.ts', code).map((m) => m.message.split(' has ')[0]);
    assert.deepEqual(names, ['arrow', 'handler', 'Service.constructor', 'Service.method']);
    const anonymous = lint('src/app/probe.ts', `export const xs = [1].map((x) => {\n${body(60)}\n  return x;\n});\n`);
    assert.match(anonymous[0]?.message ?? '', /^This anonymous function has 63 lines of code; .* cannot be listed/);
  });

  it('lets a listed function pass in its own file only, and reports an entry whose function is not over the limit', () => {
    const entry = { file: 'src/app/probe.ts', name: 'long', reason: 'a table' };
    assert.deepEqual(lint('src/app/probe.ts', fn('long', 80), [entry]), []);
    assert.equal(lint('src/app/other.ts', fn('long', 80), [entry]).length, 1, 'the same name in another file');
    const stale = lint('src/app/probe.ts', fn('long', 40), [entry]);
    assert.equal(stale.length, 1);
    assert.match(
      stale[0]!.message,
      /lint\/longFunctions\.mjs lists long in this file, but no function of that name here is over 60 lines: remove the entry \(a table\)/,
    );
  });

  it('is on in eslint.config.mjs with max 60 for src/ and media/src/, off for test/', async () => {
    const eslint = new ESLint({ cwd: process.cwd() });
    const ruleFor = async (file: string): Promise<unknown> => ((await eslint.calculateConfigForFile(file)) as Linter.Config).rules?.['functions/max-lines'];
    for (const file of ['src/ui/agentCommands.ts', 'media/src/elicitation.ts']) {
      const rule = (await ruleFor(file)) as [unknown, { max: number; allow: LongFunction[] }];
      assert.ok(rule, file);
      assert.equal(rule[1].max, 60, file);
      assert.deepEqual(rule[1].allow, LONG_FUNCTIONS, file);
    }
    assert.equal(await ruleFor('test/unit/lint/functionLength.test.ts'), undefined);
  });

  it('lists each function once, with a reason, and each is over the limit in a file that exists', () => {
    assert.ok(LONG_FUNCTIONS.length <= 10, `the list is short (${LONG_FUNCTIONS.length})`);
    const keys = LONG_FUNCTIONS.map((e) => `${e.file}#${e.name}`);
    assert.equal(new Set(keys).size, keys.length, 'no entry twice');
    for (const entry of LONG_FUNCTIONS) {
      assert.ok(entry.reason.trim().length > 10, `${entry.file} ${entry.name} has a reason`);
      const file = path.join(process.cwd(), entry.file);
      assert.ok(fs.existsSync(file), `${entry.file} exists (else remove its entry from lint/longFunctions.mjs)`);
      const messages = lint(entry.file, fs.readFileSync(file, 'utf8'), [entry], process.cwd());
      assert.deepEqual(
        messages.map((m) => m.message),
        [],
        entry.file,
      );
    }
  });
});
