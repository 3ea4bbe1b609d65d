// File size rule: no TypeScript file under src/, media/src/ or test/ (test/fixtures and
// node_modules excepted) may have more than 400 lines. Exits 1 naming each file over the limit and
// its line count; prints nothing and exits 0 otherwise. No dependencies (run by `npm run lint`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_LINES = 400;
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
    if (lines > MAX_LINES) over.push({ file, lines });
  }
}
if (over.length > 0) {
  for (const { file, lines } of over) console.error(`${file.split(path.sep).join('/')}: ${lines} lines (at most ${MAX_LINES})`);
  console.error(`lint/fileSize.mjs: ${over.length} file(s) over ${MAX_LINES} lines; split them along their seams.`);
  process.exit(1);
}
