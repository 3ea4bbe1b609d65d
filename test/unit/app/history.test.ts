import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/app/history/historyStore';
import { compact, compactInSlices, parseLog, parseLogInSlices } from '../../../src/app/history/logReader';
import { LogEncoder, PendingBatch, serialize, type HistoryRecord } from '../../../src/app/history/records';
import type { SessionEvent } from '../../../src/protocol/domain';

const chunk = (messageId: string, text: string): SessionEvent => ({
  sessionId: 's1',
  kind: 'message_chunk',
  role: 'agent',
  messageId,
  content: { type: 'text', text },
});
const plan = (n: number): SessionEvent =>
  ({
    sessionId: 's1',
    kind: 'plan_update',
    plan: { type: 'items', planId: 'main', entries: [{ content: `step ${n}`, status: 'pending', priority: 'medium' }] },
  }) as SessionEvent;

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'acp-history-'));
}
function store(dir: string, warnings: string[] = [], extra: Partial<ConstructorParameters<typeof HistoryStore>[1]> = {}): HistoryStore {
  return new HistoryStore(dir, { maxSessions: 100, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: (m) => warnings.push(m), ...extra });
}

describe('Session history: records', () => {
  it('parses lines, skips bad ones, and detects a torn last record', () => {
    const good = JSON.stringify({ t: 1, e: chunk('m', 'a') });
    const r = parseLog(`${good}\nnot json\n{"t":2}\n${good}\n{"t":3,"e":{"sessionId":"s1","kind":"mess`);
    assert.equal(r.records.length, 2);
    assert.equal(r.badLines, 2);
    assert.equal(r.torn, true);
    assert.equal(parseLog(`${good}\n`).torn, false);
  });

  it('parses a large log in slices, yielding between them, to the same result', async () => {
    const good = JSON.stringify({ t: 1, e: chunk('m', 'a') });
    const text = `${Array.from({ length: 2500 }, (_, i) => (i % 500 === 7 ? 'not json' : good)).join('\n')}\n{"t":3,"e":{"sessionId":"s1","kind":"mess`;
    let yields = 0;
    const sliced = await parseLogInSlices(
      text,
      async () => {
        yields++;
      },
      1000 * (good.length + 1),
    );
    assert.deepEqual(sliced, parseLog(text));
    assert.equal(sliced.records.length, 2495);
    assert.equal(sliced.badLines, 5);
    assert.equal(sliced.torn, true);
    assert.equal(yields, 2, "about 2,500 lines in slices of 1,000 lines' length: two pauses");
  });

  it('writes each record so it reads back as it was; a plan revision as the entries that changed', () => {
    const shared = { content: 'Read the code', status: 'completed', priority: 'high', _meta: { 'x/y': [1, null] } };
    const steps = ['Two', 'Three', 'Four'].map((content) => ({ content, status: 'pending', priority: 'low' }));
    const items = (entries: unknown[], title = 'entries":0}}}'): SessionEvent =>
      ({ sessionId: 's1', kind: 'plan_update', _meta: { entries: 0 }, plan: { type: 'items', planId: 'main', title, entries } }) as unknown as SessionEvent;
    const records: HistoryRecord[] = [
      { t: 1, e: chunk('m', 'a "quoted" line\n') },
      { t: 2, e: items([shared, ...steps]) },
      { t: 3, e: items([shared, { ...steps[0], status: 'in_progress' }, steps[1], steps[2]]) }, // one entry changed
      { t: 4, e: items([shared, steps[0]], 'shorter') },
      { t: 5, e: items([shared, steps[0], steps[1], steps[2], { content: 'Five', status: 'pending', priority: 'low' }]) },
      { t: 6, e: items([]) },
      { t: 7, e: { sessionId: 's1', kind: 'plan_update', plan: { type: 'markdown', planId: 'doc', content: '# Plan' } } as SessionEvent },
      { t: 8, answer: { id: '7', outcome: { outcome: 'cancelled' } } },
    ];
    const encoder = new LogEncoder();
    const lines = records.map((r) => encoder.line(r));
    for (const l of lines) assert.ok(l.endsWith('}\n') && !l.slice(0, -1).includes('\n'), l);
    assert.match(lines[2]!, /^\{"t":3,"p":/, 'one entry of four changed: a delta line');
    assert.match(lines[1]!, /^\{"q":1,"t":2,"e":/, 'a whole plan line has its number');
    assert.ok(!lines[2]!.includes('Read the code') && !lines[2]!.includes('Three'), lines[2]);
    assert.deepEqual(parseLog(lines.join('')).records, JSON.parse(JSON.stringify(records)));
    // A delta whose base line is lost (torn, unreadable) is a bad line itself, never a wrong plan.
    const lost = parseLog([lines[0], 'not json\n', lines[2], lines[3], lines[6]].join(''));
    assert.equal(lost.badLines, 3);
    assert.deepEqual(
      lost.records.map((r) => r.t),
      [1, 7],
    );
    // A line written by the encoder but lost (never appended): the deltas after it are bad lines.
    const skipped = parseLog([lines[1], lines[3], lines[4]].join(''));
    assert.deepEqual(
      skipped.records.map((r) => r.t),
      [2, 5],
      'the delta based on the lost line 3 is not applied to line 2; the next whole line reads',
    );
    assert.equal(skipped.badLines, 1);
    // A log of its own (a rewrite, another batch's encoder) starts whole: it reads back alone.
    const text = serialize(records.slice(2, 5));
    assert.match(text, /^\{"q":1,"t":3,"e":/);
    assert.deepEqual(parseLog(text).records, JSON.parse(JSON.stringify(records.slice(2, 5))));
  });

  it('compacts in slices, yielding between them, to the same result', async () => {
    const records: HistoryRecord[] = Array.from({ length: 3000 }, (_, i) => ({ t: i, e: i % 3 ? chunk(`m${i % 7}`, `${i} `) : plan(i) }));
    let yields = 0;
    const sliced = await compactInSlices(
      records,
      200,
      async () => {
        yields++;
      },
      0,
    );
    assert.deepEqual(sliced, compact(records, 200));
    assert.ok(yields >= 3000 / 256 - 1, `${yields} pauses: one per 256 records at most with no time to spend`);
  });

  it('compacts: message chunks become one message at the first chunk, old plan updates go', () => {
    const records: HistoryRecord[] = [
      { t: 1, e: chunk('m1', 'Hel') },
      { t: 2, e: plan(1) },
      { t: 3, e: chunk('m1', 'lo') },
      { t: 4, e: plan(2) },
      { t: 5, e: plan(3) },
    ];
    const out = compact(records, 2);
    assert.equal(out.length, 3);
    const first = out[0]!;
    assert.ok('e' in first && first.e.kind === 'message' && Array.isArray(first.e.content));
    assert.deepEqual('e' in first && first.e.kind === 'message' ? first.e.content : null, [{ type: 'text', text: 'Hello' }]);
    assert.deepEqual(
      out.slice(1).map((r) => 'e' in r && r.e.kind === 'plan_update' && r.e.plan.type === 'items' && r.e.plan.entries[0]!.content),
      ['step 2', 'step 3'],
    );
  });
});

/** A batch as it is written, read back. */
function compactBatch(records: readonly HistoryRecord[], maxPlanRevisions: number): HistoryRecord[] {
  const batch = new PendingBatch(maxPlanRevisions);
  for (const r of records) batch.add(r);
  return parseLog([...batch.text(new LogEncoder(), 1)].join('')).records;
}

describe('Session history: batches and compaction across batches', () => {
  const text = (out: HistoryRecord[]): string =>
    out
      .map((r) =>
        'e' in r && r.e.kind === 'message' && Array.isArray(r.e.content)
          ? r.e.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
          : 'e' in r && r.e.kind === 'message_chunk' && r.e.content.type === 'text'
            ? `+${r.e.content.text}`
            : '',
      )
      .join('|');

  it('a batch joins the text chunks of a message into its first chunk (still a chunk) and leaves out obsolete plan updates', () => {
    const batch: HistoryRecord[] = [
      { t: 1, e: chunk('m1', 'Hel') },
      { t: 2, e: plan(1) },
      { t: 3, e: chunk('m2', 'A') },
      { t: 4, e: chunk('m1', 'lo') },
      { t: 5, e: plan(2) },
      { t: 6, e: plan(3) },
    ];
    const out = compactBatch(batch, 2);
    assert.deepEqual(
      out.map((r) => ('e' in r ? r.e.kind : '')),
      ['message_chunk', 'message_chunk', 'plan_update', 'plan_update'],
    );
    assert.equal(text(out), '+Hello|+A||');
    assert.deepEqual(
      out.slice(2).map((r) => 'e' in r && r.e.kind === 'plan_update' && r.e.plan.type === 'items' && r.e.plan.entries[0]!.content),
      ['step 2', 'step 3'],
    );
    // What a later load compacts it to is what the whole stream compacts to.
    assert.deepEqual(compact(out, 2), compact(batch, 2));
  });

  it("a batch merges a tool call's updates into its first one, but not across a content chunk or a permission request", () => {
    const call = (t: number, toolCallId: string, fields: Record<string, unknown>): HistoryRecord => ({
      t,
      e: { sessionId: 's1', kind: 'tool_call', toolCallId, fields } as SessionEvent,
    });
    const out = compactBatch(
      [
        call(1, 'a', { title: 'Edit', status: 'pending', rawInput: { path: 'x' } }),
        { t: 2, e: chunk('m1', 'Hi') },
        call(3, 'a', { status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: 'one' } }] }),
        call(4, 'a', { status: 'completed', title: undefined, content: [{ type: 'content', content: { type: 'text', text: 'two' } }] }),
        {
          t: 5,
          e: {
            sessionId: 's1',
            kind: 'tool_call_content_chunk',
            toolCallId: 'a',
            content: { type: 'content', content: { type: 'text', text: '+' } },
          } as SessionEvent,
        },
        call(6, 'a', { status: 'failed' }),
        { t: 7, ask: { id: 'p1', request: { sessionId: 's1', toolCall: { toolCallId: 'a', fields: {} }, options: [] } as never, flags: [] } },
        call(8, 'a', { status: 'completed' }),
      ],
      200,
    );
    const calls = out.filter((r) => 'e' in r && r.e.kind === 'tool_call').map((r) => ('e' in r && r.e.kind === 'tool_call' ? [r.t, r.e.fields] : null));
    assert.deepEqual(calls, [
      [1, { title: 'Edit', status: 'completed', rawInput: { path: 'x' }, content: [{ type: 'content', content: { type: 'text', text: 'two' } }] }],
      [6, { status: 'failed' }], // after the content chunk: the chunk appended to "two", then this
      [8, { status: 'completed' }], // after the permission request's snapshot
    ]);
    assert.deepEqual(
      out.map((r) => r.t),
      [1, 2, 5, 6, 7, 8],
    );
  });

  it('chunks that continue a message stored whole earlier are merged into it, never replace it', () => {
    // A log compacted at its cap in the middle of a message, then the rest of the message appended.
    const first = compact([{ t: 1, e: chunk('m1', 'Hel') }], 200);
    const later = compactBatch(
      [
        { t: 2, e: chunk('m1', 'lo') },
        { t: 3, e: chunk('m1', '!') },
      ],
      200,
    );
    assert.equal(text(compact([...first, ...later], 200)), 'Hello!');
    // After a message whose content cannot take them, chunks stay chunks (in order).
    const meta: HistoryRecord = { t: 4, e: { sessionId: 's1', kind: 'message', role: 'agent', messageId: 'm1', content: undefined, _meta: { x: 1 } } };
    assert.equal(text(compact([...first, meta, { t: 5, e: chunk('m1', '?') }], 200)), 'Hel||+?');
  });
});

describe('Session history: store', () => {
  it('appends batched records and reads them back after a restart; the index survives', async () => {
    const dir = tmp();
    const a = store(dir);
    a.describe({ agentId: 'demo', agentName: 'Demo Agent', sessionId: 's1', title: 'Fix', cwd: '/w' });
    for (let i = 0; i < 1000; i++) a.append('demo', 's1', { t: i, e: plan(i) });
    await a.flush();
    const b = store(dir);
    const [s] = b.loadIndex();
    assert.deepEqual(s && { agentId: s.agentId, agentName: s.agentName, title: s.title, cwd: s.cwd }, {
      agentId: 'demo',
      agentName: 'Demo Agent',
      title: 'Fix',
      cwd: '/w',
    });
    const loaded = await b.load(s!);
    assert.equal(loaded.records.length, 200, 'compacted to the kept plan revisions');
    assert.ok(fs.statSync(path.join(dir, 'sessions', s!.file)).size < 200 * 300, 'the log was rewritten compacted');
  });

  it('deactivation in the middle of a flush writes every record, in order, before flushSync returns; nothing is written after', async () => {
    // Three 128 Ki-character slices per flush. flushSync is called after 0, 1, 2… turns of the
    // event loop, so it meets the flush before its first write, between slices, and after it.
    const text = (i: number): string => `${i}:${'x'.repeat(1000)}`;
    const n = 300;
    let midway = 0;
    for (let turns = 0; ; turns++) {
      const dir = tmp();
      const a = store(dir);
      a.describe({ agentId: 'demo', agentName: 'Demo', sessionId: 's1' });
      a.append('demo', 's1', { t: 0, e: chunk('m0', text(0)) });
      await a.flush(); // the log exists: later flushes append to it
      const file = path.join(dir, 'sessions', a.sessions()[0]!.file);
      const initial = fs.statSync(file).size;
      for (let i = 1; i < n; i++) a.append('demo', 's1', { t: i, e: chunk(`m${i}`, text(i)) });
      const flushing = a.flush();
      for (let k = 0; k < turns; k++) await new Promise((resolve) => setImmediate(resolve));
      const before = fs.statSync(file).size;
      a.flushSync();
      const after = fs.readFileSync(file, 'utf8'); // what a process ending now leaves
      const texts = parseLog(after).records.map((r) => ('e' in r && r.e.kind === 'message_chunk' && r.e.content.type === 'text' ? r.e.content.text : ''));
      const wrong = texts.findIndex((t, i) => t !== text(i));
      assert.ok(texts.length === n && wrong === -1, `flushSync after ${turns} turns: ${texts.length} of ${n} records, first wrong at ${wrong}`);
      await flushing;
      assert.equal(fs.readFileSync(file, 'utf8'), after, `nothing written after flushSync (${turns} turns)`);
      // A turn completes one file operation of the flush at most: some turn sees slice 1 written, not slice 3.
      if (before > initial && before < after.length) midway++;
      if (before === after.length) break;
    }
    assert.ok(midway > 0, 'flushSync met a flush between its slices at least once');
  });

  it('an index write in flight at deactivation never replaces the index flushSync wrote', async () => {
    for (let turns = 0; turns < 40; turns++) {
      const dir = tmp();
      const a = store(dir, [], { maxSessions: 1000 });
      a.describe({ agentId: 'demo', agentName: 'Demo', sessionId: 's1', title: 'older' });
      for (let i = 2; i < 200; i++) a.describe({ agentId: 'demo', agentName: 'Demo', sessionId: `s${i}`, title: 'x'.repeat(2000) }); // an index of 400 KB: its write takes a few turns
      const flushing = a.flush(); // writes the index, asynchronously
      for (let k = 0; k < turns; k++) await new Promise((resolve) => setImmediate(resolve));
      a.describe({ agentId: 'demo', agentName: 'Demo', sessionId: 's1', title: 'newer' });
      a.flushSync();
      await flushing;
      const index = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as { sessions: { sessionId: string; title: string }[] };
      assert.equal(index.sessions.find((x) => x.sessionId === 's1')?.title, 'newer', `flushSync after ${turns} turns`);
    }
  });

  it('a log cut in the middle of a record (kill -9 while writing) loads, reporting the torn record once', async () => {
    const dir = tmp();
    const a = store(dir);
    a.describe({ agentId: 'demo', agentName: 'Demo', sessionId: 's1' });
    for (let i = 0; i < 10; i++) a.append('demo', 's1', { t: i, e: chunk(`m${i}`, 'x') });
    await a.flush();
    const file = path.join(dir, 'sessions', a.sessions()[0]!.file);
    fs.appendFileSync(file, '{"t":99,"e":{"sessionId":"s1","kind":"message_ch');
    const warnings: string[] = [];
    const b = store(dir, warnings);
    const loaded = await b.load(b.loadIndex()[0]!);
    assert.equal(loaded.records.length, 10);
    assert.equal(loaded.torn, true);
    assert.equal(warnings.filter((w) => /cut short/.test(w)).length, 1);
    const again = await store(dir, warnings).load(store(dir).loadIndex()[0]!);
    assert.equal(again.torn, false, 'reported once: the torn line is gone after the rewrite');
  });

  it('keeps at most maxSessions (least recently used go first), and deletes on request', async () => {
    const dir = tmp();
    const a = store(dir, [], { maxSessions: 2 });
    for (const id of ['old', 'mid', 'new']) {
      a.describe({ agentId: 'demo', agentName: 'Demo', sessionId: id });
      a.append('demo', id, { t: { old: 1, mid: 2, new: 3 }[id]!, e: { ...chunk('m', id), sessionId: id } });
    }
    await a.flush();
    assert.deepEqual(
      a
        .sessions()
        .map((s) => s.sessionId)
        .sort(),
      ['mid', 'new'],
    );
    await a.delete('demo', 'mid');
    await a.flush();
    assert.deepEqual(
      store(dir)
        .loadIndex()
        .map((s) => s.sessionId),
      ['new'],
    );
  });

  it('a session log never grows past its cap: compacted at the cap, then full (reported once) when compaction cannot shrink it', async () => {
    const dir = tmp();
    const warnings: string[] = [];
    const a = store(dir, warnings, { maxSessionBytes: 20_000 });
    a.describe({ agentId: 'demo', agentName: 'Demo', sessionId: 's1' });
    // Chunks of one message compact to one record: the log stays small.
    for (let i = 0; i < 2000; i++) a.append('demo', 's1', { t: i, e: chunk('m1', 'x') });
    await a.flush();
    const file = path.join(dir, 'sessions', a.sessions()[0]!.file);
    assert.ok(fs.statSync(file).size < 20_000, `compacted: ${fs.statSync(file).size} bytes`);
    assert.deepEqual(warnings, []);
    // Distinct plan revisions the store keeps cannot be compacted away: the log is closed, once.
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 200; i++) a.append('demo', 's1', { t: i, e: plan(round * 1000 + i) });
      await a.flush();
    }
    const size = fs.statSync(file).size;
    assert.ok(size < 3 * 20_000, `bounded: ${size} bytes`);
    assert.equal(warnings.filter((w) => /is not kept after a reload/.test(w)).length, 1);
  });

  it('an unreadable index starts an empty history (reported), never a failed activation', () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'index.json'), '{broken');
    const warnings: string[] = [];
    assert.deepEqual(store(dir, warnings).loadIndex(), []);
    assert.equal(warnings.length, 1);
  });
});
