// Build: the extension bundle, the registry module, the Demo Agent bundle, the webview script, and the tests.
//   node esbuild.mjs               development build (sourcemaps)
//   node esbuild.mjs --production  minified, no sourcemaps (what `npm run package` ships)
//   node esbuild.mjs --production --tests   the same, and the tests (npm run bench:vscode)
//   node esbuild.mjs --watch       rebuild on change
//   node esbuild.mjs --metafile    also writes out/meta.json (what dist/extension.js holds) and
//                                  prints its 25 biggest inputs; with --production, those shipped
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const metafile = process.argv.includes('--metafile');
const tests = !production || process.argv.includes('--tests');
// Where the tests are compiled (ACP_TEST_OUT lets parallel runs keep apart).
const testOut = process.env.ACP_TEST_OUT ?? 'out/test';

/** Prints errors in the `file:line:col: error: text` form the problem matcher understands. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (watch) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

function files(dir, suffix) {
  const out = [];
  let entries = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const p = path.join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(p).isDirectory()) out.push(...files(p, suffix));
    else if (p.endsWith(suffix)) out.push(p);
  }
  return out;
}

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [problemMatcher],
};

/**
 * Parts of the extension loaded on first use, each from a file of its own beside dist/extension.js,
 * so activation does not parse them. Each is declared once, by its loader in src/:
 *   const x = lazyModule('<out>.js', () => require('<spec>') as typeof X);
 * (src/common/lazy.ts). The build reads those calls: the module `<spec>` resolves to from the
 * loader's folder is bundled as dist/<out>.js, and in the bundle the loader's `require(spec)` becomes
 * `require('./<out>.js')`. Elsewhere (tests, the Demo Agent) esbuild bundles them in place.
 * A `lazyModule(` call of any other shape, or two calls naming one bundle, fail the build.
 */
function findLazyModules() {
  const call = /lazyModule\(\s*'([a-z0-9-]+\.js)'\s*,\s*\(\)\s*=>\s*require\('(\.{1,2}\/[A-Za-z0-9_./-]+)'\)/y;
  const found = [];
  const problems = [];
  for (const loader of files('src', '.ts')) {
    if (path.resolve(loader) === path.resolve('src/common/lazy.ts')) continue;
    const text = readFileSync(loader, 'utf8');
    for (let at = text.indexOf('lazyModule('); at !== -1; at = text.indexOf('lazyModule(', at + 1)) {
      const line = text.slice(0, at).split('\n').length;
      call.lastIndex = at;
      const m = call.exec(text);
      if (!m) {
        problems.push(`${loader}:${line}: expected lazyModule('<out>.js', () => require('./<spec>') ...)`);
        continue;
      }
      const [, out, spec] = m;
      const entry = ['.ts', '/index.ts'].map((ext) => path.join(path.dirname(loader), spec) + ext).find((f) => existsSync(f));
      if (!entry) problems.push(`${loader}:${line}: ${spec} does not resolve to a .ts file`);
      const twin = found.find((f) => f.out === out);
      if (twin) problems.push(`${loader}:${line}: ${out} is already declared by ${twin.loader}:${twin.line}`);
      found.push({ loader, line, spec, entry, out });
    }
  }
  if (problems.length > 0) {
    for (const p of problems) console.error(`✘ [ERROR] lazy module: ${p}`);
    process.exit(1);
  }
  return found;
}
const lazyModules = findLazyModules();
const lazy = {
  name: 'lazy-modules',
  setup(build) {
    for (const m of lazyModules) {
      const filter = new RegExp(`^${m.spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
      const loader = path.resolve(m.loader);
      build.onResolve({ filter }, (args) => (path.resolve(args.importer) === loader ? { path: `./${m.out}`, external: true } : undefined));
    }
  },
};

/** `vscode` resolves to src/platform/vscodeApi.ts (one namespace copy per bundle, not one per importer). */
const vscodeApi = path.resolve('src/platform/vscodeApi.ts');
const oneVscode = {
  name: 'one-vscode',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (path.resolve(args.importer) === vscodeApi ? { path: 'vscode', external: true } : { path: vscodeApi }));
  },
};

const targets = [
  // The extension: everything but `vscode` is bundled (the .vsix ships no node_modules).
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [...common.plugins, lazy, oneVscode], metafile },
  // The parts loaded on first use (see lazyModules).
  ...lazyModules.map((m) => ({
    ...common,
    entryPoints: [m.entry],
    outfile: `dist/${m.out}`,
    external: ['vscode'],
    plugins: [...common.plugins, lazy, oneVscode],
  })),
  // The registry module (install from the ACP Registry, with its archive libraries), loaded by the
  // extension only when a registry command runs (src/ui/registryCommands.ts).
  { ...common, entryPoints: ['src/registry/index.ts'], outfile: 'dist/registry.js', external: ['vscode'], plugins: [...common.plugins, oneVscode] },
  // The registry's bzip2 decoder, a helper thread the registry module starts beside itself
  // (src/registry/bunzip.ts); built in every mode, the unit tests use it from dist/ too.
  { ...common, entryPoints: ['src/registry/bunzipWorker.ts'], outfile: 'dist/registry-bunzip-worker.js' },
  // The spawn helper process: git of the checkpoints and the worktrees starts from it, not from the
  // extension host's (src/common/spawn); beside every bundle that uses it, so in dist/.
  { ...common, entryPoints: ['src/common/spawn/helper.ts'], outfile: 'dist/spawn-helper.js' },
  // The Demo Agent runs as its own process (plain Node, no vscode).
  { ...common, entryPoints: ['src/demo/agent.ts'], outfile: 'dist/demo-agent.js' },
  // The conversation webview's script runs in the browser.
  { ...common, entryPoints: ['media/src/conversation.ts'], outfile: 'dist/media/conversation.js', platform: 'browser', format: 'iife', target: 'es2022' },
  { ...common, entryPoints: ['media/src/usage.ts'], outfile: 'dist/media/usage.js', platform: 'browser', format: 'iife', target: 'es2022' },
];
if (tests) {
  // Tests: each file its own bundle (vscode external, dev dependencies inlined), so plain Node
  // and the extension host can load them without a TypeScript loader.
  const testEntries = [...files('test/unit', '.ts'), ...files('test/integration', '.ts'), ...files('test/agents', '.ts')];
  targets.push({
    ...common,
    entryPoints: testEntries,
    outdir: testOut,
    outbase: 'test',
    external: ['vscode', 'mocha', 'playwright-core', 'eslint', '@typescript-eslint/parser'],
  });
}
const existing = targets.filter((t) =>
  t.entryPoints.every((e) => {
    try {
      return statSync(e).isFile();
    } catch {
      return false;
    }
  }),
);

if (!watch) {
  rmSync(testOut, { recursive: true, force: true });
  if (production) rmSync('dist', { recursive: true, force: true });
  const results = await Promise.all(existing.map((t) => esbuild.build(t)));
  console.log(`build: ${existing.length} targets${production ? ' (production)' : ''}`);
  if (metafile) reportMeta(results[0].metafile);
} else {
  const contexts = await Promise.all(existing.map((t) => esbuild.context(t)));
  await Promise.all(contexts.map((c) => c.watch()));
}

/** Writes the main bundle's metafile to out/meta.json and prints its biggest inputs, by bytes in the output. */
function reportMeta(meta) {
  mkdirSync('out', { recursive: true });
  writeFileSync('out/meta.json', JSON.stringify(meta));
  const [file, output] = Object.entries(meta.outputs).find(([f]) => f.endsWith('extension.js'));
  const inputs = Object.entries(output.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
  console.log(`${file}: ${output.bytes} bytes from ${inputs.length} inputs; the biggest (bytes in the bundle):`);
  for (const [name, { bytesInOutput }] of inputs.slice(0, 25)) console.log(`  ${String(bytesInOutput).padStart(7)}  ${name}`);
  console.log('out/meta.json: the whole list (https://esbuild.github.io/analyze/ draws it).');
}
