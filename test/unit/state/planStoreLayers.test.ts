// The plan store's files import only downwards: src/state/planStore/index.ts lists them in order,
// and each file may import only files listed before it. Every file of the folder is listed, and no
// import that leaves the folder leads back into it (a cycle through a shared module such as
// planTypes). The check reads the sources, so a new file or import is checked as written.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

interface Direction {
  /** One sentence per import that goes upwards or back into the folder, or file left out of the list. */
  readonly problems: string[];
  /** Imports checked between the folder's own files (so an empty problem list is not a parse that found nothing). */
  readonly inner: number;
}

/** The files in the order the entry lists them: its comment lines `//   name.ts  what it holds`. */
function listedOrder(indexText: string): string[] {
  const out: string[] = [];
  for (const line of indexText.split('\n')) {
    const m = /^\/\/ {3}([A-Za-z0-9_]+\.ts) {2,}\S/.exec(line);
    if (m) out.push(m[1]!);
  }
  return out;
}

/** The relative specifiers a source imports: `import … from`, `export … from`, `import '…'`, `import()`, `require()`. */
function importsOf(text: string): string[] {
  const out: string[] = [];
  const forms = [
    /^\s*(?:import|export)\s[^'";]*?\bfrom\s*'([^']+)'/gm,
    /^\s*import\s*'([^']+)'/gm,
    /\bimport\s*\(\s*'([^']+)'\s*\)/g,
    /\brequire\s*\(\s*'([^']+)'\s*\)/g,
  ];
  for (const re of forms) for (const m of text.matchAll(re)) if (m[1]!.startsWith('.')) out.push(m[1]!);
  return out;
}

/** The file a relative specifier names (`x.ts` or `x/index.ts`), or undefined. */
function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const f of [`${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(f)) return f;
  return undefined;
}

/** The folder's imports checked against the entry's order (`srcRoot` bounds the walk of outside files). */
function direction(folder: string, srcRoot: string): Direction {
  const problems: string[] = [];
  const order = listedOrder(fs.readFileSync(path.join(folder, 'index.ts'), 'utf8'));
  const files = fs.readdirSync(folder).filter((f) => f.endsWith('.ts'));
  for (const f of files) if (!order.includes(f)) problems.push(`${f} is not in the order of index.ts: list it where it belongs`);
  for (const f of order) if (!files.includes(f)) problems.push(`index.ts lists ${f}, which is not in the folder`);
  const inside = (abs: string): boolean => path.dirname(abs) === folder;
  const backInto = chainsBackInto(inside, srcRoot);
  let inner = 0;
  for (const f of files) {
    const file = path.join(folder, f);
    for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
      const target = resolve(file, spec);
      if (!target) continue;
      if (!inside(target)) {
        const chain = backInto(target);
        if (chain) problems.push(`${f} imports '${spec}', which leads back into the folder: ${chain.map((c) => path.relative(srcRoot, c)).join(' → ')}`);
        continue;
      }
      inner++;
      const t = path.basename(target);
      if (order.indexOf(t) >= order.indexOf(f) && order.includes(f)) {
        problems.push(`${f} imports '${spec}' (${t}), which index.ts lists ${t === f ? 'as itself' : 'after it'}: imports go downwards only`);
      }
    }
  }
  return { problems, inner };
}

/** For a file outside the folder: the chain of imports by which it reaches the folder, or undefined. */
function chainsBackInto(inside: (abs: string) => boolean, srcRoot: string): (file: string) => string[] | undefined {
  const known = new Map<string, string[] | null>();
  const walk = (file: string, seen: Set<string>): string[] | undefined => {
    if (inside(file)) return [file];
    if (known.has(file)) return known.get(file) ?? undefined;
    if (seen.has(file) || !file.startsWith(srcRoot + path.sep)) return undefined;
    seen.add(file);
    let found: string[] | undefined;
    for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
      const next = resolve(file, spec);
      const rest = next && walk(next, seen);
      if (rest) {
        found = [file, ...rest];
        break;
      }
    }
    known.set(file, found ?? null);
    return found;
  };
  return (file) => walk(file, new Set());
}

describe('plan store folder: imports go downwards', () => {
  const src = path.join(process.cwd(), 'src');
  const folder = path.join(src, 'state', 'planStore');

  it('each file of src/state/planStore imports only files index.ts lists before it, and nothing it imports outside leads back', () => {
    const { problems, inner } = direction(folder, src);
    assert.deepEqual(problems, []);
    // The store imports its four lower files; the entry imports three of them.
    assert.ok(inner >= 10, `only ${inner} imports between the folder's files were found: the parse missed some`);
  });

  it('names an upward import, an import of itself, a cycle through a file outside, and a file left out of the list', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-layers-'));
    try {
      const dir = path.join(root, 'src', 'store');
      fs.mkdirSync(dir, { recursive: true });
      const write = (rel: string, text: string): void => fs.writeFileSync(path.join(root, 'src', rel), text);
      const order = ['// Order:', '//   low.ts   the bottom', '//   high.ts  above it', '//   index.ts  the entry'];
      write('store/index.ts', [...order, "export { High } from './high';", ''].join('\n'));
      write('store/low.ts', "import type { High } from './high';\nimport { common } from '../common';\nexport const low = (h: High) => [h, common];\n");
      write('store/high.ts', "import { low } from './low';\nexport type { High } from './high';\nexport class High {\n  x = low;\n}\n");
      write('store/stray.ts', "export const stray = await import('./low');\n");
      write('common.ts', "import { High } from './store';\nexport const common = High;\n");
      const { problems } = direction(dir, path.join(root, 'src'));
      assert.deepEqual(problems, [
        'stray.ts is not in the order of index.ts: list it where it belongs',
        `high.ts imports './high' (high.ts), which index.ts lists as itself: imports go downwards only`,
        `low.ts imports './high' (high.ts), which index.ts lists after it: imports go downwards only`,
        `low.ts imports '../common', which leads back into the folder: common.ts → store/index.ts`,
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
