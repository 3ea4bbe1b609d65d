// The recording checker run by the integration harness and the interop suite
// (test/harness/lib/outbound-recordings.mjs): it must find each connection's negotiated version
// the way negotiate.ts does, accept exact traffic, and report an invalid outbound message with its
// file, line, method and ajv errors — or the "every outbound message validates" check proves nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SchemaSet } from '../../harness/lib/outbound-schemas.mjs';
import { checkRecording, checkRecordingDir, formatReport, parseRecording } from '../../harness/lib/outbound-recordings.mjs';
import { OutboundRecorder, schemasDir } from './outbound';

type Obj = Record<string, unknown>;
const send = (msg: Obj) => ({ dir: 'send', msg });
const receive = (msg: Obj) => ({ dir: 'receive', msg });
const ndjson = (lines: unknown[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

const info = { name: 'c', version: '1' };
const v1Caps = { fs: { readTextFile: true, writeTextFile: true }, terminal: true, plan: {} };
const hybrid = (id: number) =>
  send({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: 2, info, capabilities: {}, clientCapabilities: v1Caps, clientInfo: info } });
const v1Init = (id: number) => send({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: v1Caps, clientInfo: info } });
const answer = (id: number, result: Obj) => receive({ jsonrpc: '2.0', id, result });
const v2Answer = (id: number) => answer(id, { protocolVersion: 2, info: { name: 'a', version: '1' }, capabilities: {} });
const v1Answer = (id: number, protocolVersion = 1) => answer(id, { protocolVersion, agentCapabilities: {} });
/** Valid in v1 only (v2 has no session/set_mode): tells which version a recording was checked as. */
const setMode = (id: number) => send({ jsonrpc: '2.0', id, method: 'session/set_mode', params: { sessionId: 's', modeId: 'm' } });

let set: SchemaSet;
function check(lines: unknown[]) {
  set ??= new SchemaSet(schemasDir());
  return checkRecording(set, parseRecording(ndjson(lines)));
}

describe('outbound recording checker', () => {
  it('reports an invalid outbound message with its line, method and ajv errors', () => {
    const r = check([
      hybrid(0),
      v2Answer(0),
      send({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w' } }),
      send({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { prompt: [{ type: 'text', text: 'hi' }] } }), // no sessionId
      receive({ jsonrpc: '2.0', id: 'p', method: 'session/request_permission', params: {} }),
      send({ jsonrpc: '2.0', id: 'p', result: { outcome: { outcome: 'selected' } } }), // no optionId
      send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 2 } }),
      send({ jsonrpc: '2.0', id: 'q', error: { code: -32601, message: 'Method not found' } }),
    ]);
    assert.equal(r.version, 2);
    assert.equal(r.checked, 6);
    assert.deepEqual(
      r.failures.map((f) => [f.line, f.method]),
      [
        [4, 'session/prompt'],
        [6, 'result #"p" (session/request_permission)'],
      ],
    );
    assert.match(r.failures[0].problems.join('\n'), /PromptRequest.*sessionId/);
    assert.match(r.failures[1].problems.join('\n'), /RequestPermissionResponse/);
  });

  it('accepts a message valid against the stable or the unstable schema of its version', () => {
    // session/fork exists only in v2's unstable schema.
    const r = check([hybrid(0), v2Answer(0), send({ jsonrpc: '2.0', id: 1, method: 'session/fork', params: { sessionId: 's', cwd: '/w' } })]);
    assert.deepEqual(r.failures, []);
  });

  it('takes the negotiated version as negotiate.ts decides it', () => {
    // 2 with `info`: v2, so a v1-only method is invalid.
    assert.equal(check([hybrid(0), v2Answer(0), setMode(1)]).failures.length, 1);
    // A v1 agent echoing 2 without `info`: v1.
    assert.deepEqual(check([hybrid(0), v1Answer(0, 2), setMode(1)]), { version: 1, negotiated: true, checked: 2, failures: [] });
    // Answered 1: v1.
    assert.equal(check([hybrid(0), v1Answer(0), setMode(1)]).version, 1);
    // -32022 then a v1 retry: the last successful initialize counts.
    const retried = check([
      hybrid(0),
      receive({ jsonrpc: '2.0', id: 0, error: { code: -32022, message: 'unsupported', data: { supported: [1] } } }),
      v1Init(1),
      v1Answer(1),
      setMode(2),
    ]);
    assert.deepEqual([retried.version, retried.checked, retried.failures], [1, 3, []]);
    // Pinned v1 (a plain v1 initialize) and a v2 answer: negotiation fails, checked as the v1 offered.
    assert.deepEqual([check([v1Init(0), v2Answer(0)]).negotiated, check([v1Init(0), v2Answer(0)]).version], [false, 1]);
  });

  it('checks a directory: skips raw-driver recordings, reports bad lines, formats the summary', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-outbound-test-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'a.ndjson'),
        ndjson([hybrid(0), v2Answer(0), send({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w' } })]),
      );
      fs.writeFileSync(
        path.join(dir, 'b.ndjson'),
        ndjson([
          { recording: { driver: 'connect()' } },
          v1Init(0),
          v1Answer(0),
          setMode(1),
          send({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 7 } }),
        ]),
      );
      fs.writeFileSync(path.join(dir, 'raw.ndjson'), ndjson([{ recording: { driver: 'raw' } }, send({ nonsense: true })]));
      fs.writeFileSync(path.join(dir, 'c.ndjson'), `${JSON.stringify(v1Init(0))}\n{"dir":"send","msg":{"trunc`);
      const report = checkRecordingDir(dir, { schemasDir: schemasDir() });
      assert.deepEqual([report.connections, report.skipped, report.messages, report.byVersion], [3, 1, 6, { 1: 4, 2: 2 }]);
      assert.deepEqual(
        report.failures.map((f) => [path.basename(f.file), f.line, f.method]),
        [
          ['b.ndjson', 5, 'session/prompt'],
          ['c.ndjson', 2, '-'],
        ],
      );
      const lines = formatReport(report, '[t]');
      assert.match(lines[0], /^\[t\] INVALID .*b\.ndjson:5 session\/prompt$/);
      assert.equal(
        lines.at(-1),
        '[t] outbound: 2 of 6 messages from 3 connections do NOT validate against the official schemas (v1 4, v2 2); 1 raw-driver recordings skipped',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets the connect() tests check every connection as negotiated (killAgents)', () => {
    const r = new OutboundRecorder();
    for (const l of [hybrid(0), v1Answer(0, 2), setMode(1), send({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 's' } })]) {
      r.logger.wire?.(l.dir as 'send' | 'receive', l.msg);
    }
    const { version, violations } = r.violationsAsNegotiated();
    assert.equal(version, 1);
    assert.deepEqual(
      violations.map((v) => (v.message as Obj).method),
      ['session/prompt'],
    );
  });

  it('finds every outbound message of the kept interop recordings valid', () => {
    const report = checkRecordingDir(path.join(schemasDir(), '..', 'recordings'), { schemasDir: schemasDir() });
    assert.ok(report.connections >= 7 && report.messages > 0, JSON.stringify(report));
    assert.deepEqual(report.failures, []);
  });
});
