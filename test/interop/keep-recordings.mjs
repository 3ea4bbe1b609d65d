// Copies the selected recordings of the last interop run (our client's wire traffic, already
// scrubbed of temp paths and ports) into test/fixtures/recordings/, where the adapter replay unit
// tests (test/unit/interop/replay.test.ts) read them. Run after `node test/interop/run.mjs`:
//   node test/interop/keep-recordings.mjs [part of a fixture name …]
import { copyFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dest = path.resolve(here, '..', 'fixtures', 'recordings');
const src = process.env.ACP_INTEROP_RECORD_DIR ?? path.join(os.tmpdir(), 'acp-interop-recordings');

/** recording of the run → fixture name (agent and pinned version). */
export const KEPT = {
  'client-codex-acp-allow': 'codex-acp-0.16.0.ndjson',
  'client-codex-acp-reject': 'codex-acp-0.16.0-reject.ndjson',
  'client-claude-code-acp-allow': 'claude-code-acp-0.16.2.ndjson',
  'client-claude-agent-acp-allow': 'claude-agent-acp-0.23.1.ndjson',
  'client-sdk-example': 'sdk-1.9.0-example-agent.ndjson',
  'client-sdk-dual': 'sdk-1.9.0-dual-version-agent-v2.ndjson',
  'client-v2-test-agent': 'sdk-2.4.0-v2-test-agent.ndjson',
  'client-codex-acp-2.6-plan': 'codex-acp-2.6.0-v2.ndjson',
  'client-codex-acp-2.6-plan-mode': 'codex-acp-2.6.0-v2-plan-mode.ndjson',
  'client-codex-acp-2.6-subagent': 'codex-acp-2.6.0-v2-subagent.ndjson',
  'client-claude-agent-acp-0.101-plan': 'claude-agent-acp-0.101.0-v2.ndjson',
  'client-claude-agent-acp-0.101-plan-mode': 'claude-agent-acp-0.101.0-v2-plan-mode.ndjson',
  'client-claude-agent-acp-0.101-subagent': 'claude-agent-acp-0.101.0-v2-subagent.ndjson',
};

// Optional arguments keep only the fixtures whose name contains one of them, e.g.
// `node test/interop/keep-recordings.mjs codex-acp-2.6.0 claude-agent-acp-0.101.0`.
const only = process.argv.slice(2);
let missing = 0;
for (const [from, to] of Object.entries(KEPT)) {
  if (only.length && !only.some((o) => to.includes(o))) continue;
  const file = path.join(src, `${from}.ndjson`);
  if (!existsSync(file)) {
    console.error(`missing ${file}`);
    missing++;
    continue;
  }
  copyFileSync(file, path.join(dest, to));
  console.log(`kept ${to}`);
}
process.exit(missing ? 1 : 0);
