// Section 4 — the production bundle. Runs the project's own `node esbuild.mjs --production` in a
// private copy of the sources (so dist/ and out/test of the working tree, which other builds use,
// are never touched) and reports dist/extension.js in bytes and gzipped.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export function productionBundle(root) {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-bench-bundle-'));
  try {
    for (const p of ['src', 'media', 'esbuild.mjs', 'package.json', 'tsconfig.json']) {
      cpSync(path.join(root, p), path.join(dir, p), { recursive: true });
    }
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const t = performance.now();
    execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: dir, stdio: 'pipe' });
    const buildMs = performance.now() - t;
    const sizeOf = (f) => {
      const p = path.join(dir, f);
      try {
        statSync(p);
      } catch {
        return null;
      }
      const bytes = readFileSync(p);
      return { bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    };
    return {
      extension: sizeOf('dist/extension.js'),
      demoAgent: sizeOf('dist/demo-agent.js'),
      webview: sizeOf('dist/media/conversation.js'),
      buildMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
