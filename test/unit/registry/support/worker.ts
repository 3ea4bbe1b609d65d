// Where the tests find the bzip2 worker: `node esbuild.mjs` builds it to dist/ (beside dist/registry.js,
// where the extension loads it from); the tests run from out/test/…, so they look upward for it.
import * as fs from 'fs';
import * as path from 'path';

function find(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const p = path.join(dir, 'dist', 'registry-bunzip-worker.js');
    if (fs.existsSync(p)) return p;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export const BUNZIP_WORKER = find(__dirname) ?? find(process.cwd()) ?? path.resolve('dist', 'registry-bunzip-worker.js');
