// Checks recorded wire traffic: every message the client sent must validate against the official
// schema of the version the connection negotiated (outbound-schemas.mjs says how each message is
// checked). A recording is one connection, NDJSON, one `{"dir":"send"|"receive","msg":{…}}` per
// line, as written by the extension under ACP_WIRE_RECORD_DIR (src/agents/wireRecorder.ts) and by
// the interop suite (test/interop/support/recorder.ts, which adds a `{"recording":{…}}` header;
// recordings of its raw driver, `driver: "raw"`, are not the client's traffic and are skipped).
//
// The version is decided from the initialize exchange the way src/protocol/negotiate.ts decides
// it: the first initialize tells the mode (the hybrid offer = auto, else pinned to its
// protocolVersion); an answer `protocolVersion: 2` with an object `info` is v2, `2` without it
// is v1 (a v1 agent echoing the offer; pinned 2 fails), `1` is v1; a pinned mode fails on the
// other version. Retries (after -32022 or a failed v2 initialize) are further initializes: the
// last successful one counts. A connection that never negotiated is checked as the version its
// last initialize offered (only initialize and `$/cancel_request` go out before that anyway).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { SchemaSet, checkSent, isHybridInitialize } from './outbound-schemas.mjs';

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const idKey = (id) => JSON.stringify(id);

/** Parses a recording: its header (if any), its wire lines with line numbers, and bad lines. */
export function parseRecording(text) {
  let header;
  const lines = [];
  const bad = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let v;
    try {
      v = JSON.parse(raw);
    } catch (e) {
      bad.push({ line: i + 1, problem: `not JSON: ${e.message}` });
      return;
    }
    if (isObject(v) && isObject(v.recording) && i === 0) {
      header = v.recording;
      return;
    }
    if (!isObject(v) || (v.dir !== 'send' && v.dir !== 'receive')) {
      bad.push({ line: i + 1, problem: 'not a {"dir","msg"} line' });
      return;
    }
    lines.push({ line: i + 1, dir: v.dir, msg: v.msg });
  });
  return { header, lines, bad };
}

/** The version the connection negotiated (see the file comment), and the last one offered. */
export function negotiatedVersion(lines) {
  const inits = new Map(); // id → params of our initialize requests
  let mode;
  let offered;
  let version;
  for (const { dir, msg } of lines) {
    if (!isObject(msg)) continue;
    if (dir === 'send' && msg.method === 'initialize' && msg.id !== undefined) {
      const params = isObject(msg.params) ? msg.params : {};
      mode ??= isHybridInitialize(params) ? 'auto' : params.protocolVersion;
      offered = params.protocolVersion === 1 ? 1 : 2;
      inits.set(idKey(msg.id), params);
    } else if (dir === 'receive' && msg.method === undefined && inits.has(idKey(msg.id)) && 'result' in msg) {
      const decided = decide(msg.result, mode);
      if (decided) version = decided;
    }
  }
  return { version, offered };
}

/** negotiate.ts's choice from the answer's number and shape; undefined when it fails. */
function decide(result, mode) {
  const body = isObject(result) ? result : {};
  const answered = body.protocolVersion;
  let version;
  if (answered === 2 && isObject(body.info)) version = 2;
  else if (answered === 2 && mode !== 2) version = 1;
  else if (answered === 1) version = 1;
  else return undefined;
  if (mode !== 'auto' && version !== mode) return undefined;
  return version;
}

/**
 * Checks the sent messages of one parsed recording. Returns the version used, how many messages
 * were checked, and each failure (line, method, problems).
 */
export function checkRecording(set, parsed, require = 'any') {
  const { version: negotiated, offered } = negotiatedVersion(parsed.lines);
  const version = negotiated ?? offered ?? 2;
  const incoming = new Map(); // id → method of the agent's requests, to check our responses
  const failures = parsed.bad.map((b) => ({ line: b.line, method: '-', problems: [b.problem] }));
  let checked = 0;
  for (const { line, dir, msg } of parsed.lines) {
    if (dir === 'receive') {
      if (isObject(msg) && typeof msg.method === 'string' && msg.id !== undefined && msg.id !== null) incoming.set(idKey(msg.id), msg.method);
      continue;
    }
    const answered = isObject(msg) && msg.method === undefined ? incoming.get(idKey(msg.id)) : undefined;
    const problems = checkSent(set, msg, version, answered, require);
    checked++;
    if (problems.length) failures.push({ line, method: describe(msg, answered), problems });
  }
  return { version, negotiated: negotiated !== undefined, checked, failures };
}

function describe(msg, answered) {
  if (!isObject(msg)) return '?';
  if (typeof msg.method === 'string') return msg.method;
  const what = msg.error !== undefined ? 'error' : 'result';
  return `${what} #${JSON.stringify(msg.id)}${answered ? ` (${answered})` : ''}`;
}

/**
 * Checks every `*.ndjson` recording in `dir` (optionally only those modified at or after
 * `since`, a ms timestamp). `schemasDir` is test/fixtures/schemas.
 */
export function checkRecordingDir(dir, { schemasDir, since, require = 'any' }) {
  const report = { connections: 0, skipped: 0, messages: 0, byVersion: { 1: 0, 2: 0 }, failures: [] };
  let files = [];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.ndjson'))
      .sort();
  } catch {
    return report;
  }
  const set = new SchemaSet(schemasDir);
  for (const name of files) {
    const file = path.join(dir, name);
    if (since !== undefined && statSync(file).mtimeMs < since) continue;
    const parsed = parseRecording(readFileSync(file, 'utf8'));
    if (parsed.header?.driver === 'raw') {
      report.skipped++;
      continue;
    }
    const r = checkRecording(set, parsed, require);
    report.connections++;
    report.messages += r.checked;
    report.byVersion[r.version] += r.checked;
    for (const f of r.failures) report.failures.push({ file, ...f });
  }
  return report;
}

/** The report as printable lines: failures first (file:line method, ajv errors), then the summary. */
export function formatReport(report, prefix) {
  const out = [];
  for (const f of report.failures) {
    out.push(`${prefix} INVALID ${f.file}:${f.line} ${f.method}`);
    for (const p of f.problems.slice(0, 12)) out.push(`${prefix}     ${p}`);
    if (f.problems.length > 12) out.push(`${prefix}     … ${f.problems.length - 12} more`);
  }
  const counts = `(v1 ${report.byVersion[1]}, v2 ${report.byVersion[2]})`;
  const skipped = report.skipped ? `; ${report.skipped} raw-driver recordings skipped` : '';
  out.push(
    report.failures.length
      ? `${prefix} outbound: ${report.failures.length} of ${report.messages} messages from ${report.connections} connections do NOT validate against the official schemas ${counts}${skipped}`
      : `${prefix} outbound: ${report.messages} messages from ${report.connections} connections validate against the official schemas ${counts}${skipped}`,
  );
  return out;
}
