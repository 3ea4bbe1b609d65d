// A restore costs about what is stored: a plan changed thousands of times is read as the changes it
// was stored as (at most the kept revisions are built), records that cannot be applied are skipped
// and counted (the rest of the history restores), and an over-long line is dropped while it is read.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { HistoryStore } from '../../../src/app/history/historyStore';
import { compact, parseLog, readLog } from '../../../src/app/history/logReader';
import { LogEncoder, type HistoryRecord } from '../../../src/app/history/records';
import { SessionHistory } from '../../../src/app/history/sessionHistory';
import { fileName } from '../../../src/app/history/storedSessions';
import type { PlanEntry, SessionEvent } from '../../../src/protocol/domain';
import { PlanStore } from '../../../src/state/planStore';
import { sessionKey, SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';
import type { HeapReport } from './restoreHeapWorker';

const A = 'demo';

/** A history folder holding the given logs (by session id) as a reload finds them. */
function historyDir(logs: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bounds-'));
  fs.mkdirSync(path.join(dir, 'sessions'));
  const sessions = Object.entries(logs).map(([sessionId, text]) => {
    const file = fileName(A, sessionId);
    fs.writeFileSync(path.join(dir, 'sessions', file), text);
    return { agentId: A, agentName: 'Demo', sessionId, file, bytes: Buffer.byteLength(text), createdAt: 1, updatedAt: 1 };
  });
  fs.writeFileSync(path.join(dir, 'index.json'), JSON.stringify({ version: 1, sessions, active: { agentId: A, sessionId: sessions[0]!.sessionId } }));
  return dir;
}

const planUpdate = (sessionId: string, planId: string, entries: PlanEntry[]): SessionEvent => ({
  sessionId,
  kind: 'plan_update',
  plan: { type: 'items', planId, entries },
});
const changed = (k: number): PlanEntry => ({
  content: `7: revision ${k}`,
  status: k % 2 ? 'in_progress' : 'completed',
  priority: 'm',
});

describe('Session history: a restore is bounded by what is stored', function () {
  this.timeout(120_000);

  it('a 1.9 MB log of a 20,000-entry plan whose entry changed 5,000 times restores in < 100 MB of heap, to its last state', async () => {
    const encoder = new LogEncoder();
    let entries: PlanEntry[] = Array.from({ length: 20_000 }, (_, i) => ({ content: `${i}`, status: 'todo', priority: 'm' }));
    let text = encoder.line({ t: 0, e: planUpdate('s1', 'big', entries) });
    for (let k = 1; k <= 5000; k++) {
      entries = entries.slice();
      entries[7] = changed(k);
      text += encoder.line({ t: k, e: planUpdate('s1', 'big', entries) });
    }
    const mb = Buffer.byteLength(text) / 1e6;
    assert.ok(mb > 1.8 && mb < 2, `the log is ${mb.toFixed(2)} MB`);
    const dir = historyDir({ s1: text });
    // In a worker with a heap of its own: a restore that costs more ends the worker, not the run.
    const worker = new Worker(path.join(__dirname, 'restoreHeapWorker.js'), { workerData: dir, resourceLimits: { maxOldGenerationSizeMb: 384 } });
    const report = await new Promise<HeapReport & { error?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the restore's worker stopped (${code}) before it reported`)));
    }).finally(() => void worker.terminate());
    assert.equal(report.error, undefined);
    assert.ok(report.peakGrowthMiB < 100, `the restore grew the heap by ${report.peakGrowthMiB.toFixed(1)} MiB (base ${report.baseMiB.toFixed(1)} MiB)`);
    assert.equal(report.entries, 20_000);
    assert.deepEqual(report.entry7, changed(5000));
    assert.deepEqual(report.warnings, []);
    console.log(`      restore of a ${mb.toFixed(2)} MB log: peak heap growth ${report.peakGrowthMiB.toFixed(1)} MiB`);
  });

  it('revisions read as their deltas, capped while reading, are the revisions the whole log compacts to', () => {
    let seed = 7;
    const random = (n: number): number => (seed = (seed * 48271) % 2147483647) % n;
    const encoder = new LogEncoder();
    const records: HistoryRecord[] = [];
    let entries: PlanEntry[] = Array.from({ length: 30 }, (_, i) => ({ content: `${i}`, status: 'pending', priority: 'low' }));
    for (let t = 0; t < 400; t++) {
      entries = entries.slice();
      const kind = random(10);
      if (kind === 0)
        entries.length = Math.max(1, entries.length - 1 - random(5)); // shorter
      else if (kind === 1)
        entries.push({ content: `new ${t}`, status: 'pending', priority: 'low' }); // longer
      else if (kind === 2) entries = entries.map((e) => ({ ...e, status: 'completed' })); // all changed: a whole line
      for (let k = random(3); k > 0; k--) entries[random(entries.length)] = { content: `${t}/${k}`, status: 'in_progress', priority: 'high' };
      records.push({ t, e: planUpdate('s1', 'a', entries) });
      if (t % 7 === 0) records.push({ t, e: { sessionId: 's1', kind: 'plan_update', plan: { type: 'markdown', planId: 'b', content: `# ${t}` } } });
    }
    const text = records.map((r) => encoder.line(r)).join('');
    const deltas = (text.match(/"p":/g) ?? []).length;
    assert.ok(deltas > 200, `${deltas} of 400 revisions stored as deltas`);
    const plain = (rs: readonly HistoryRecord[]): unknown => JSON.parse(JSON.stringify(rs));
    for (const cap of [1, 50, Infinity]) {
      const read = parseLog(text, cap);
      assert.deepEqual(plain(read.records), plain(compact(records, cap)), `cap ${cap}`);
      // Built in any order, each revision is the same.
      assert.deepEqual(plain([...read.records].reverse()), plain(compact(records, cap).reverse()), `cap ${cap}, built last to first`);
    }
  });

  it('records that cannot be applied are skipped and counted (one warning and a notice per session); the rest restores', async () => {
    const good = (t: number, e: SessionEvent): string => `${JSON.stringify({ t, e })}\n`;
    const s1 = [
      good(1, { sessionId: 's1', kind: 'message_chunk', role: 'agent', messageId: 'm1', content: { type: 'text', text: 'Hello' } }),
      '{"t":2,"e":{"sessionId":"s1","kind":"plan_update","plan":null}}\n',
      '{"t":3,"e":{"sessionId":"s1","kind":"plan_update","plan":{"type":"items","planId":"bad","entries":"not a list"}}}\n',
      '{"t":4,"e":{"sessionId":"s1","kind":"message_chunk","role":"agent","messageId":"m2"}}\n',
      '{"t":5,"e":{"sessionId":"s1","kind":"plan_update","plan":{"type":"items","planId":"bad2","entries":[null,7]}}}\n',
      '{"t":6,"write":{"path":"a.txt"}}\n',
      good(7, planUpdate('s1', 'ok', [{ content: 'kept', status: 'pending', priority: 'low' }])),
      good(8, { sessionId: 's1', kind: 'message_chunk', role: 'agent', messageId: 'm1', content: { type: 'text', text: ' again' } }),
    ].join('');
    const s2 = good(1, planUpdate('s2', 'other', [{ content: 'also kept', status: 'pending', priority: 'low' }]));
    const dir = historyDir({ s1, s2 });
    const warnings: string[] = [];
    const history = new HistoryStore(dir, { maxSessions: 10, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: (m) => warnings.push(m) });
    const plans = new PlanStore();
    const transcript = new Transcript();
    const h = new SessionHistory({
      history,
      store: new SessionStore(),
      plans,
      transcript,
      agentName: () => 'Demo',
      ignored: () => false,
      setReplayTime: () => undefined,
    });
    h.restore();
    await h.whenRestored();
    assert.ok(plans.get({ agentId: A, sessionId: 's1', planId: 'ok' }), 'the plan after the broken records');
    assert.ok(plans.get({ agentId: A, sessionId: 's2', planId: 'other' }), 'the next session');
    const s = transcript.session(sessionKey(A, 's1'))!;
    const items = s.slice(s.firstIndex);
    const texts = items.map((i) => (i.kind === 'notice' ? `notice: ${i.title}` : i.kind));
    assert.ok(texts.includes("notice: 5 records of this session's history could not be read and were skipped."), texts.join(' | '));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /s1.*5 records/);
  });

  it('a line over the limit is dropped while it is read, never held whole', async () => {
    const chunk = (messageId: string, text: string): HistoryRecord => ({
      t: 1,
      e: { sessionId: 's1', kind: 'message_chunk', role: 'agent', messageId, content: { type: 'text', text } },
    });
    const line = (r: HistoryRecord): string => `${JSON.stringify(r)}\n`;
    const text = line(chunk('a', 'before')) + line(chunk('big', 'x'.repeat(5 * 1048576))) + line(chunk('b', 'after'));
    const dir = historyDir({ s1: text });
    const file = path.join(dir, 'sessions', fileName(A, 's1'));
    const read = await readLog(file, { maxPlanRevisions: 200, maxLineBytes: 1048576, chunkBytes: 64 * 1024 });
    assert.deepEqual(
      read.records.map((r) => ('e' in r && r.e.kind === 'message_chunk' ? r.e.messageId : '')),
      ['a', 'b'],
    );
    assert.equal(read.longLines, 1);
    assert.ok(read.maxBuffered <= 1048576 + 64 * 1024, `buffered at most ${read.maxBuffered} bytes`);
    // The store reads logs the same way (its limit injected): the rest of the session loads.
    const warnings: string[] = [];
    const history = new HistoryStore(dir, {
      maxSessions: 10,
      maxBytes: 1e9,
      maxPlanRevisions: 200,
      maxLogLineBytes: 1048576,
      warn: (m) => warnings.push(m),
    });
    const loaded = await history.load(history.loadIndex()[0]!);
    assert.equal(loaded.records.length, 2);
    assert.equal(loaded.badLines, 1);
  });
});
