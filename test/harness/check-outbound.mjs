#!/usr/bin/env node
// Validates a directory of wire recordings (NDJSON, one connection per file: the extension's under
// ACP_WIRE_RECORD_DIR, or the interop suite's): every message the client sent, against the
// official schema of the version the connection negotiated. Exit 1 if any is invalid.
//   node test/harness/check-outbound.mjs <dir>
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRecordingDir, formatReport } from './lib/outbound-recordings.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node test/harness/check-outbound.mjs <recordings dir>');
  process.exit(2);
}
const report = checkRecordingDir(path.resolve(dir), { schemasDir: path.join(root, 'test', 'fixtures', 'schemas') });
for (const line of formatReport(report, 'check-outbound:')) console.log(line);
process.exit(report.failures.length ? 1 : 0);
