// The files the default turn works on, all inside `<cwd>/.acp-demo/`: a small TypeScript module it
// reads and edits, and the Markdown plan file behind the `spec` file plan.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const DEMO_DIR = '.acp-demo';
export const HELLO_FILE = `${DEMO_DIR}/hello.ts`;
export const PLAN_FILE = `${DEMO_DIR}/PLAN.md`;
export const HELLO_TEST_FILE = `${DEMO_DIR}/hello.test.ts`;

export const HELLO_INITIAL = [
  '// A small module the ACP Plans Demo Agent reads and edits. Safe to delete.',
  'export const GREETING_VERSION = 1;',
  '',
  'export function greet(name: string): string {',
  '  return `Hello, ${name}!`;',
  '}',
  '',
].join('\n');

const FAREWELL = ['', 'export function farewell(name: string): string {', '  return `Goodbye, ${name}!`;', '}', ''].join('\n');

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Reads the module, creating it first when it is missing (or unreadable: then it is not written). */
export function readHello(cwd: string): { file: string; text: string } {
  const file = path.join(cwd, HELLO_FILE);
  try {
    return { file, text: readFileSync(file, 'utf8') };
  } catch {
    try {
      write(file, HELLO_INITIAL);
    } catch {
      // read-only folder: work on the text alone
    }
    return { file, text: HELLO_INITIAL };
  }
}

/** The edit: bump GREETING_VERSION, add farewell() if it is missing. */
export function editHello(text: string): string {
  let next = text.replace(/GREETING_VERSION = (\d+);/, (_m, n: string) => `GREETING_VERSION = ${Number(n) + 1};`);
  if (!next.includes('function farewell(')) next = `${next.replace(/\n*$/, '\n')}${FAREWELL}`;
  return next;
}

/** The unit test the default turn writes for farewell(). */
export function helloTest(): string {
  return [
    '// Written by the ACP Plans Demo Agent. Safe to delete.',
    "import { farewell } from './hello';",
    '',
    "if (farewell('Ada') !== 'Goodbye, Ada!') throw new Error('farewell() is wrong');",
    '',
  ].join('\n');
}

export function writeFile(file: string, text: string): void {
  write(file, text);
}

/** Writes `<cwd>/.acp-demo/PLAN.md`; returns its file URI, or undefined when it cannot be written. */
export function writePlanFile(cwd: string, done: boolean): string | undefined {
  const file = path.join(cwd, PLAN_FILE);
  const box = (ticked: boolean): string => (ticked ? '- [x]' : '- [ ]');
  const text = [
    '# Spec: farewell()',
    '',
    `Status: ${done ? 'implemented' : 'in progress'}`,
    '',
    '## Behaviour',
    '',
    `${box(done)} \`farewell(name)\` returns \`Goodbye, <name>!\``,
    `${box(done)} \`GREETING_VERSION\` goes up by one`,
    `${box(true)} \`greet()\` is unchanged`,
    '',
    '## Out of scope',
    '',
    '- Localisation',
    '',
  ].join('\n');
  try {
    write(file, text);
    return pathToFileURL(file).href;
  } catch {
    return undefined;
  }
}

/** The `notes` Markdown plan, before and after the work. */
export function notesMarkdown(stage: 'start' | 'end', edited: boolean): string {
  const done = stage === 'end';
  const editLine = done && !edited ? '- [ ] ~~Edit the module~~ (declined)' : `${done ? '- [x]' : '- [ ]'} Edit the module`;
  return [
    '## Notes',
    '',
    '### Goal',
    '',
    'Add a `farewell()` helper next to `greet()`.',
    '',
    '### Checklist',
    '',
    '- [x] Read the greeting module',
    editLine,
    `${done ? '- [x]' : '- [ ]'} Write the tests`,
    '',
    '### Open question',
    '',
    '- Should `farewell()` share the punctuation of `greet()`?',
    '',
  ].join('\n');
}
