// Section 4 — the production bundle. Runs the project's own `node esbuild.mjs --production` in a
// private copy of the sources (so dist/ and out/test of the working tree, which other builds use,
// are never touched) and reports dist/extension.js in bytes and gzipped.
//
// With `zodNamespaceImport`, the copy first rewrites `import { z } from 'zod'` to
// `import * as z from 'zod'` (the fix proposed in docs/PERFORMANCE.md): the named `z` binding is a
// namespace object esbuild cannot shake, so every zod locale (~260 KB) ends up in the bundle.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

function tsFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

export function productionBundle(root, { zodNamespaceImport = false } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-bench-bundle-'));
  try {
    for (const p of ['src', 'media', 'esbuild.mjs', 'package.json', 'tsconfig.json']) {
      cpSync(path.join(root, p), path.join(dir, p), { recursive: true });
    }
    let rewritten = 0;
    if (zodNamespaceImport) {
      for (const f of tsFiles(path.join(dir, 'src'))) {
        const text = readFileSync(f, 'utf8');
        const next = text.replace(/import \{ z \} from 'zod';/g, "import * as z from 'zod';");
        if (next !== text) { writeFileSync(f, next); rewritten++; }
      }
    }
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const t = performance.now();
    execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: dir, stdio: 'pipe' });
    const buildMs = performance.now() - t;
    const sizeOf = (f) => {
      const p = path.join(dir, f);
      try { statSync(p); } catch { return null; }
      const bytes = readFileSync(p);
      return { bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    };
    return {
      extension: sizeOf('dist/extension.js'),
      demoAgent: sizeOf('dist/demo-agent.js'),
      webview: sizeOf('dist/media/conversation.js'),
      buildMs,
      ...(zodNamespaceImport ? { rewrittenFiles: rewritten } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
