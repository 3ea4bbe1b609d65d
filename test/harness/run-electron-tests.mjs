#!/usr/bin/env node
// `npm run test:electron`: the same integration suite (out/test/integration) under desktop VS Code,
// downloaded by @vscode/test-electron. Needs a machine that can reach VS Code's download server;
// not used in CI (which has no such access). The UI-hook checks are skipped there (no hook).
import path from 'node:path';
import { mkdtempSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const workspace = mkdtempSync(path.join(tmpdir(), 'acp-plans-ws-'));
cpSync(path.join(ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
try {
  await runTests({
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: path.join(ROOT, 'out/test/integration/index.js'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
    version: process.env.VSCODE_VERSION ?? 'stable',
  });
} catch (err) {
  console.error('[test:electron] failed:', err);
  process.exit(1);
}
