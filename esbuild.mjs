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
 * so activation does not parse them: in the bundle, the loader's `require(spec)` becomes
 * `require('./<out>')`. Elsewhere (tests, the Demo Agent) esbuild bundles them in place.
 */
const lazyModules = [
  // The jose side of intent tokens, the first time a token is read (src/intent/jwsLoader.ts).
  { loader: path.join('intent', 'jwsLoader.ts'), spec: './jws', entry: 'src/intent/jws.ts', out: 'intent-jws.js' },
  // The intent plan checker, the first time an `_intent` plan arrives (src/app/intentFeature.ts).
  { loader: path.join('app', 'intentFeature.ts'), spec: './intentChecks', entry: 'src/app/intentChecks.ts', out: 'intent.js' },
  // The recording player, the first time a recording is opened (src/recording/recordings.ts).
  { loader: path.join('recording', 'recordings.ts'), spec: './replays', entry: 'src/recording/replays.ts', out: 'recording-replay.js' },
  // The conversation's webview side, when a conversation view or panel first opens (src/ui/conversation/conversation.ts).
  { loader: path.join('conversation', 'conversation.ts'), spec: './viewSide', entry: 'src/ui/conversation/viewSide.ts', out: 'conversation-view.js' },
  // The consent rules, with the first permission request or stored rule (src/consent/loader.ts).
  { loader: path.join('consent', 'loader.ts'), spec: './permissionRules', entry: 'src/consent/permissionRules.ts', out: 'consent.js' },
  // The session history's commands, when one first runs (src/ui/lazyCommands.ts).
  { loader: path.join('ui', 'lazyCommands.ts'), spec: './historyCommands', entry: 'src/ui/historyCommands.ts', out: 'history-commands.js' },
  // The Plans tree's rows of an intent plan, the first time one is shown (src/ui/planTypes/intent.ts).
  { loader: path.join('planTypes', 'intent.ts'), spec: '../tree/intentItems', entry: 'src/ui/tree/intentItems.ts', out: 'intent-tree.js' },
  // The recording commands, when one first runs (src/ui/lazyCommands.ts).
  {
    loader: path.join('ui', 'lazyCommands.ts'),
    spec: '../recording/recordingCommands',
    entry: 'src/recording/recordingCommands.ts',
    out: 'recording-commands.js',
  },
  // The checks of an elicitation form's answers, the first time one is checked (src/state/elicitationChecks.ts).
  { loader: path.join('state', 'elicitationChecks.ts'), spec: './elicitationValues', entry: 'src/state/elicitationValues.ts', out: 'elicitation-checks.js' },
  // Sign-in, the first time an agent asks for it (src/app/sessionActions.ts).
  { loader: path.join('app', 'sessionActions.ts'), spec: './signIn', entry: 'src/app/signIn.ts', out: 'sign-in.js' },
  // The session history's reader (parse, resolve, compact), the first time a stored session is read (src/app/history/historyStore.ts).
  { loader: path.join('history', 'historyStore.ts'), spec: './logReader', entry: 'src/app/history/logReader.ts', out: 'history-reader.js' },
  // The scanner of Markdown plan outlines, the first time a Markdown plan is read (src/state/markdownOutline.ts).
  { loader: path.join('state', 'markdownOutline.ts'), spec: './markdownParser', entry: 'src/state/markdownParser.ts', out: 'markdown-outline.js' },
  // Which writes run code later (git hooks, tasks, CI), the first time an agent writes a file (src/agents/fileAccess.ts).
  { loader: path.join('agents', 'fileAccess.ts'), spec: './executesLater', entry: 'src/agents/executesLater.ts', out: 'executes-later.js' },
  // Secret redaction, the first time an agent's output is logged or recorded (src/agents/redaction.ts).
  { loader: path.join('agents', 'redaction.ts'), spec: './redact', entry: 'src/agents/redact.ts', out: 'redaction.js' },
  // Review, Show Work and Revert of a plan step, the first time one runs (src/ui/workCommands.ts).
  { loader: path.join('ui', 'workCommands.ts'), spec: './workActions', entry: 'src/ui/workActions.ts', out: 'work-actions.js' },
];
const lazy = {
  name: 'lazy-modules',
  setup(build) {
    for (const m of lazyModules) {
      const filter = new RegExp(`^${m.spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
      build.onResolve({ filter }, (args) => (args.importer.endsWith(m.loader) ? { path: `./${m.out}`, external: true } : undefined));
    }
  },
};

const targets = [
  // The extension: everything but `vscode` is bundled (the .vsix ships no node_modules).
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [...common.plugins, lazy] },
  // The parts loaded on first use (see lazyModules).
  ...lazyModules.map((m) => ({ ...common, entryPoints: [m.entry], outfile: `dist/${m.out}`, external: ['vscode'], plugins: [...common.plugins, lazy] })),
  // The registry module (install from the ACP Registry, with its archive libraries), loaded by the
  // extension only when a registry command runs (src/ui/registryCommands.ts).
  { ...common, entryPoints: ['src/registry/index.ts'], outfile: 'dist/registry.js', external: ['vscode'] },
  // The registry's bzip2 decoder, a worker thread the registry module starts beside itself
  // (src/registry/bunzip.ts); built in every mode, the unit tests use it from dist/ too.
  { ...common, entryPoints: ['src/registry/bunzipWorker.ts'], outfile: 'dist/registry-bunzip-worker.js' },
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
  await Promise.all(existing.map((t) => esbuild.build(t)));
  console.log(`build: ${existing.length} targets${production ? ' (production)' : ''}`);
} else {
  const contexts = await Promise.all(existing.map((t) => esbuild.context(t)));
  await Promise.all(contexts.map((c) => c.watch()));
}
