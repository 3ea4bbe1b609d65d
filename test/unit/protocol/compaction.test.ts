// Context compaction updates (`compaction_update`, `compaction_summary_chunk`) as both adapters read
// them: exact schema shapes, lenient on extra and malformed optional fields, token counts from the
// `_meta` one agent reports them in; and the v1 opt-in that makes agents send them.
import * as assert from 'node:assert/strict';
import { createAdapter, ProtocolShapeError, type VersionAdapter } from '../../../src/protocol/adapter';
import type { SessionEvent } from '../../../src/protocol/domain';

const S = 'sess_c';
const text = (t: string) => ({ type: 'text', text: t });
const counts = (pre: unknown, post?: unknown) => ({
  jetbrains: { air: { contextCompaction: { version: 1, trigger: 'manual', preTokens: pre, postTokens: post } } },
});

for (const version of [1, 2] as const) {
  describe(`compaction updates (v${version} adapter)`, () => {
    let a: VersionAdapter;
    const decode = (u: Record<string, unknown>): SessionEvent[] => a.decodeUpdate({ sessionId: S, update: u });
    const one = (u: Record<string, unknown>): SessionEvent => {
      const evs = decode(u);
      assert.equal(evs.length, 1);
      return evs[0]!;
    };
    beforeEach(() => {
      a = createAdapter(version);
    });

    it('reads an in-progress update, summary chunks and a completed update with token counts', () => {
      assert.deepEqual(one({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress', extra: 1 }), {
        sessionId: S,
        kind: 'compaction',
        compactionId: 'c1',
        status: 'in_progress',
      });
      assert.deepEqual(one({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('The user ') }), {
        sessionId: S,
        kind: 'compaction_chunk',
        compactionId: 'c1',
        content: text('The user '),
      });
      const done = one({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed', _meta: counts(120000, 8000) });
      assert.deepEqual(done, {
        sessionId: S,
        kind: 'compaction',
        compactionId: 'c1',
        status: 'completed',
        tokens: { before: 120000, after: 8000 },
        _meta: counts(120000, 8000),
      });
    });

    it('keeps omitted, null and a value apart for summary, error and counts', () => {
      const failed = one({ sessionUpdate: 'compaction_update', compactionId: 'c2', status: 'failed', error: 'Context too large', summary: null, _meta: null });
      assert.deepEqual(failed, {
        sessionId: S,
        kind: 'compaction',
        compactionId: 'c2',
        status: 'failed',
        summary: null,
        error: 'Context too large',
        tokens: null,
        _meta: null,
      });
      const replaced = one({
        sessionUpdate: 'compaction_update',
        compactionId: 'c2',
        status: 'completed',
        summary: [text('all'), { type: 'nope' }, 7],
        error: null,
      });
      assert.ok(replaced.kind === 'compaction');
      // Invalid blocks are skipped (an unknown block type is kept as unknown), the rest kept in order.
      assert.deepEqual(replaced.summary?.[0], text('all'));
      assert.equal(replaced.summary?.length, 2);
      assert.equal(replaced.error, null);
      assert.equal('tokens' in replaced, false);
    });

    it('reads a malformed optional field as omitted, counts only when they are counts, and keeps custom statuses', () => {
      const e = one({ sessionUpdate: 'compaction_update', compactionId: 'c3', status: '_paused', summary: 'not a list', error: 42, _meta: counts(-1, 'x') });
      assert.deepEqual(e, { sessionId: S, kind: 'compaction', compactionId: 'c3', status: '_paused', tokens: null, _meta: counts(-1, 'x') });
      const only = one({ sessionUpdate: 'compaction_update', compactionId: 'c3', status: 'completed', _meta: counts(5000) });
      assert.ok(only.kind === 'compaction');
      assert.deepEqual(only.tokens, { before: 5000 });
    });

    it('rejects a compaction without its required fields (a malformed known update, never applied)', () => {
      for (const u of [
        { sessionUpdate: 'compaction_update', status: 'completed' },
        { sessionUpdate: 'compaction_update', compactionId: 'c', status: 3 },
        { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c' },
        { sessionUpdate: 'compaction_summary_chunk', content: text('x') },
      ]) {
        let events: SessionEvent[] | undefined;
        try {
          events = decode(u);
        } catch (err) {
          assert.ok(err instanceof ProtocolShapeError, String(err));
          continue;
        }
        // v1 reports a malformed update as a rejected unknown one.
        assert.equal(events.length, 1);
        assert.equal(events[0]!.kind, 'unknown');
        assert.ok((events[0] as { problem?: string }).problem);
      }
    });

    it('reads a summary chunk for an id never announced (it is still a compaction, not unknown)', () => {
      const e = one({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'fresh', content: text('so far'), _meta: { k: 1 } });
      assert.deepEqual(e, { sessionId: S, kind: 'compaction_chunk', compactionId: 'fresh', content: text('so far'), _meta: { k: 1 } });
    });
  });
}

describe('compaction opt-in (v1 initialize)', () => {
  it('advertises session.compaction, with or without boolean config options', () => {
    const a = createAdapter(1);
    const caps = (booleanConfigOptions: boolean) =>
      (a.initializeParams({ clientInfo: { name: 'c', version: '1' }, unstablePlans: true, booleanConfigOptions }).clientCapabilities as { session: unknown })
        .session;
    assert.deepEqual(caps(true), { configOptions: { boolean: {} }, compaction: {} });
    assert.deepEqual(caps(false), { compaction: {} });
  });
});
