#!/usr/bin/env node
// `npm run test:electron`: the same integration suite (out/test/integration) under desktop VS Code,
// downloaded by @vscode/test-electron. Needs a machine that can reach VS Code's download server;
// not used in CI (which has no such access). The UI-hook checks are skipped there (no hook).
// As in run-vscode-tests.mjs, the extension records its wire traffic (ACP_WIRE_RECORD_DIR) and
// every message it sent is validated against the official schemas after the run.
import path from 'node:path';
import { mkdtempSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';
import { checkRecordingDir, formatReport } from './lib/outbound-recordings.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const workspace = mkdtempSync(path.join(tmpdir(), 'acp-plans-ws-'));
cpSync(path.join(ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
const wireDir = mkdtempSync(path.join(tmpdir(), 'acp-wire-'));
process.env.ACP_WIRE_RECORD_DIR = wireDir; // VS Code and its extension host inherit it
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
const report = checkRecordingDir(wireDir, { schemasDir: path.join(ROOT, 'test/fixtures/schemas') });
for (const line of formatReport(report, '[test:electron]')) console.log(line);
if (report.failures.length) {
  console.log(`[test:electron] recordings kept in ${wireDir}`);
  process.exit(1);
}
rmSync(wireDir, { recursive: true, force: true });
