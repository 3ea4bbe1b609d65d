// File size rule: no TypeScript file under src/, media/src/ or test/ (test/fixtures and
// node_modules excepted) may have more than 400 lines, and the composition root no more than 150.
// Exits 1 naming each file over its cap and its line count; prints nothing and exits 0 otherwise. No dependencies (run by `npm run lint`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_LINES = 400;
/**
 * Files with a lower cap, and why: the composition root is the shared services plus the list of
 * features (docs/ARCHITECTURE.md, "How to add a feature"); a feature's wiring belongs in its module.
 */
const CAPS = new Map([[path.join('src', 'root', 'acpExtension.ts'), 150]]);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['src', 'media/src', 'test'];
const skipped = new Set([path.join('test', 'fixtures')]);

function* tsFiles(dir) {
  let names;
  try {
    names = readdirSync(path.join(root, dir));
  } catch {
    return;
  }
  for (const name of names) {
    const rel = path.join(dir, name);
    if (name === 'node_modules' || skipped.has(rel)) continue;
    if (statSync(path.join(root, rel)).isDirectory()) yield* tsFiles(rel);
    else if (name.endsWith('.ts')) yield rel;
  }
}

function lineCount(text) {
  if (text.length === 0) return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

const over = [];
for (const dir of roots) {
  for (const file of tsFiles(dir)) {
    const lines = lineCount(readFileSync(path.join(root, file), 'utf8'));
    const cap = CAPS.get(file) ?? MAX_LINES;
    if (lines > cap) over.push({ file, lines, cap });
  }
}
if (over.length > 0) {
  for (const { file, lines, cap } of over) console.error(`${file.split(path.sep).join('/')}: ${lines} lines (at most ${cap})`);
  console.error(
    `lint/fileSize.mjs: ${over.length} file(s) over their cap; split them along their seams (the composition root: move the wiring into its feature, src/root/features).`,
  );
  process.exit(1);
}
