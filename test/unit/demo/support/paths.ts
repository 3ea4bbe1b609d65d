// Locations the Demo Agent tests need, found from the repository root.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';

/** The nearest folder with a package.json above the compiled test, else above the working directory. */
function repoRoot(): string {
  for (const start of [__dirname, process.cwd()]) {
    let dir = start;
    while (!existsSync(path.join(dir, 'package.json'))) {
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  throw new Error(`no package.json above ${__dirname} or ${process.cwd()}`);
}

export const ROOT = repoRoot();
/** The bundled agent (`npm run build` makes it); ACP_DEMO_AGENT_JS points the tests at another build. */
export const BUILT_AGENT_JS = process.env.ACP_DEMO_AGENT_JS ?? path.join(ROOT, 'dist', 'demo-agent.js');
export const SCHEMA_DIR = path.join(ROOT, 'test', 'fixtures', 'schemas');

let snapshot: string | undefined;

/**
 * A private copy of dist/demo-agent.js, taken once per test run, so a rebuild running at the same
 * time (esbuild rewrites the file in place) cannot hand a test a half-written agent.
 */
export function agentJs(): string {
  if (snapshot) return snapshot;
  const source = existsSync(BUILT_AGENT_JS) ? readFileSync(BUILT_AGENT_JS, 'utf8') : '';
  try {
    new Script(source, { filename: BUILT_AGENT_JS }); // compiles only: a truncated file fails here
  } catch (err) {
    throw new Error(`${BUILT_AGENT_JS} does not compile (run \`npm run build\`): ${String(err)}`);
  }
  if (!source.includes('[demo-agent]')) throw new Error(`${BUILT_AGENT_JS} is missing or empty: run \`npm run build\``);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-demo-agent-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'demo-agent.js');
  writeFileSync(file, source);
  snapshot = file;
  return file;
}
