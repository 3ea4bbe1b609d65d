// Locations the Demo Agent tests need, found from the repository root.

import { existsSync } from 'node:fs';
import path from 'node:path';

function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = up;
  }
  return dir;
}

export const ROOT = repoRoot();
/** The bundled agent (`npm run build` makes it). */
export const AGENT_JS = path.join(ROOT, 'dist', 'demo-agent.js');
export const SCHEMA_DIR = path.join(ROOT, 'test', 'fixtures', 'schemas');
