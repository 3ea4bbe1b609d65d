// The Demo Agent's `/compact`: a compaction mid-turn (in progress → summary chunks → completed with
// token counts, or failed), valid against the unstable schemas, and in v1 only after the opt-in.
import assert from 'node:assert/strict';
import { COMPACTION_ERROR, COMPACTION_SUMMARY } from '../../../src/demo/scenarios/compact';
import { text } from './support/demoClient';
import { cleanup, isIdleWithStop, schemaCheck, start, type Started } from './support/harness';

type Update = Record<string, unknown>;

async function turn(s: Started, prompt: string, version: 1 | 2): Promise<Update[]> {
  const from = s.client.received.length;
  const answer = await s.client.request('session/prompt', { sessionId: s.sessionId, prompt: [text(prompt)] });
  if (version === 2) await s.client.waitFor(isIdleWithStop, from);
  else assert.deepEqual(answer, { stopReason: 'end_turn' });
  return s.client.updates(from);
}

const compactions = (updates: Update[]) => updates.filter((u) => String(u.sessionUpdate).startsWith('compaction_'));

describe('Demo Agent: /compact', function () {
  this.timeout(30_000);
  before(() => schemaCheck());
  afterEach(cleanup);

  for (const version of [2, 1] as const) {
    it(`v${version}: in progress, the summary in chunks, completed with the token counts`, async () => {
      const s = await start(version === 1 ? { version, clientCapabilities: { session: { compaction: {} } } } : { version });
      const updates = compactions(await turn(s, '/compact', version));
      const id = updates[0]!.compactionId;
      assert.deepEqual(
        updates.map((u) => [u.sessionUpdate, u.status ?? (u.content as { text: string }).text]),
        [['compaction_update', 'in_progress'], ...COMPACTION_SUMMARY.map((t) => ['compaction_summary_chunk', t]), ['compaction_update', 'completed']],
      );
      assert.ok(updates.every((u) => u.compactionId === id));
      assert.deepEqual((updates.at(-1)!._meta as { jetbrains: { air: { contextCompaction: unknown } } }).jetbrains.air.contextCompaction, {
        version: 1,
        trigger: 'manual',
        preTokens: 184000,
        postTokens: 12500,
      });
      assert.deepEqual(s.client.problems, [], s.client.problems.join('\n'));
    });
  }

  it('v2: `/compact fail` ends the compaction failed with its error', async () => {
    const s = await start({ version: 2 });
    const last = compactions(await turn(s, '/compact fail', 2)).at(-1)!;
    assert.deepEqual([last.status, last.error], ['failed', COMPACTION_ERROR]);
    assert.deepEqual(s.client.problems, [], s.client.problems.join('\n'));
  });

  it('v1 without the opt-in: no compaction updates', async () => {
    const s = await start({ version: 1 });
    assert.deepEqual(compactions(await turn(s, '/compact', 1)), []);
  });
});
