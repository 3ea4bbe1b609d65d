// Build: the extension bundle, the registry module, the Demo Agent bundle, the webview script, and the tests.
//   node esbuild.mjs               development build (sourcemaps)
//   node esbuild.mjs --production  minified, no sourcemaps (what `npm run package` ships)
//   node esbuild.mjs --watch       rebuild on change
import * as esbuild from 'esbuild';
import { readdirSync, statSync, rmSync } from 'node:fs';
import path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// Where the tests are compiled (ACP_TEST_OUT lets parallel runs keep apart).
const testOut = process.env.ACP_TEST_OUT ?? 'out/test';

/** Prints errors in the `file:line:col: error: text` form the problem matcher understands. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => { if (watch) console.log('[watch] build started'); });
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
  try { entries = readdirSync(dir); } catch { return out; }
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
 * The extension loads the jose side of intent tokens (src/intent/jws.ts) on first use, from a file
 * of its own: src/intent/jwsLoader.ts's `require('./jws')` becomes `require('./intent-jws.js')`.
 */
const lazyJws = {
  name: 'lazy-intent-jws',
  setup(build) {
    build.onResolve({ filter: /^\.\/jws$/ }, (args) =>
      (args.importer.endsWith(path.join('intent', 'jwsLoader.ts')) ? { path: './intent-jws.js', external: true } : undefined));
  },
};

/** The same for the actions on a plan step's work: src/ui/workCommands.ts's `require('./workActions')`. */
const lazyWorkActions = {
  name: 'lazy-work-actions',
  setup(build) {
    build.onResolve({ filter: /^\.\/workActions$/ }, (args) =>
      (args.importer.endsWith(path.join('ui', 'workCommands.ts')) ? { path: './work-actions.js', external: true } : undefined));
  },
};

const targets = [
  // The extension: everything but `vscode` is bundled (the .vsix ships no node_modules).
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [...common.plugins, lazyJws, lazyWorkActions] },
  // Loaded by the extension the first time a step's work is reviewed, shown or reverted (see lazyWorkActions).
  { ...common, entryPoints: ['src/ui/workActions.ts'], outfile: 'dist/work-actions.js', external: ['vscode'] },
  // Loaded by the extension the first time it reads an intent token (see lazyJws).
  { ...common, entryPoints: ['src/intent/jws.ts'], outfile: 'dist/intent-jws.js' },
  // The registry module (install from the ACP Registry, with its archive libraries), loaded by the
  // extension only when a registry command runs (src/ui/registryCommands.ts).
  { ...common, entryPoints: ['src/registry/index.ts'], outfile: 'dist/registry.js', external: ['vscode'] },
  // The Demo Agent runs as its own process (plain Node, no vscode).
  { ...common, entryPoints: ['src/demo/agent.ts'], outfile: 'dist/demo-agent.js' },
  // The conversation webview's script runs in the browser.
  { ...common, entryPoints: ['media/src/conversation.ts'], outfile: 'dist/media/conversation.js', platform: 'browser', format: 'iife', target: 'es2022' },
];
if (!production) {
  // Tests: each file its own bundle (vscode external, dev dependencies inlined), so plain Node
  // and the extension host can load them without a TypeScript loader.
  const testEntries = [...files('test/unit', '.ts'), ...files('test/integration', '.ts'), ...files('test/agents', '.ts')];
  targets.push({
    ...common, entryPoints: testEntries, outdir: testOut, outbase: 'test', external: ['vscode', 'mocha', 'playwright-core'],
  });
}
const existing = targets.filter((t) => t.entryPoints.every((e) => { try { return statSync(e).isFile(); } catch { return false; } }));

if (!watch) {
  rmSync(testOut, { recursive: true, force: true });
  if (production) rmSync('dist', { recursive: true, force: true });
  await Promise.all(existing.map((t) => esbuild.build(t)));
  console.log(`build: ${existing.length} targets${production ? ' (production)' : ''}`);
} else {
  const contexts = await Promise.all(existing.map((t) => esbuild.context(t)));
  await Promise.all(contexts.map((c) => c.watch()));
}
