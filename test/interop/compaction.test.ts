// Context compaction with the newest adapters through OUR client: `/compact` (an available command
// of both) compacts the session's context; the adapter reports it as `compaction_update` (and, for
// claude-agent-acp, the summary as `compaction_summary_chunk`s) because our client speaks v2 (where
// compaction updates need no capability). Our transcript shows it as one compaction row, never as
// an unknown update.
import assert from 'node:assert/strict';
import { clientTurn, type ClientTurn } from './support/clientTurn';
import type { SessionEvent } from '../../src/protocol/domain';
import { compactionItemId, Transcript, type CompactionItem } from '../../src/state/transcript';
import { itemView } from '../../src/ui/conversation/viewModel';
import type { AgentName } from './support/agents';
import { SUMMARY_TEXT } from './support/compactionScenarios';

const compactionEvents = (t: ClientTurn) =>
  t.events.filter((e): e is Extract<SessionEvent, { kind: 'compaction' | 'compaction_chunk' }> => e.kind === 'compaction' || e.kind === 'compaction_chunk');

/** The turn's events through our transcript: the compaction rows and the unknown updates it shows. */
function transcriptOf(t: ClientTurn): { compactions: CompactionItem[]; unknown: string[]; labels: string[] } {
  const tr = new Transcript();
  for (const e of t.events) tr.apply(e);
  const items = tr.session(t.sessionId)?.slice(0) ?? [];
  const compactions = items.filter((i): i is CompactionItem => i.kind === 'compaction');
  return {
    compactions,
    unknown: items.flatMap((i) => (i.kind === 'unknown' ? [i.updateType] : [])),
    labels: compactions.map((c, k) => (itemView(c, k) as { label: string }).label),
  };
}

const summaryOf = (c: CompactionItem) => c.parts.map((p) => (p.type === 'text' ? p.chunks.join('') : '')).join('');

function describeRun(agent: AgentName, t: ClientTurn): string {
  return `${agent}: stop ${t.stopReason}; events ${JSON.stringify(t.events.map((e) => e.kind))}; compaction ${JSON.stringify(compactionEvents(t))}`;
}

for (const agent of ['codex-acp-2.6', 'claude-agent-acp-0.101'] as const) {
  describe(`interop (our client): context compaction, ${agent}`, function () {
    this.timeout(120_000);

    it('/compact is shown as one completed compaction row, nothing unknown', async () => {
      // Claude has nothing to compact in a new session: a first turn gives it a conversation.
      const t = await clientTurn({
        agent,
        ...(agent === 'claude-agent-acp-0.101' ? { prompt: 'Say hello.', thenPrompts: ['/compact'] } : { prompt: '/compact' }),
        scenario: () => ({ finalText: SUMMARY_TEXT, steps: [] }),
        record: `client-${agent}-compaction`,
      });
      assert.equal(t.conn.version, 2);
      const events = compactionEvents(t);
      assert.ok(events.length > 0, describeRun(agent, t));
      const ids = new Set(events.map((e) => e.compactionId));
      assert.equal(ids.size, 1, 'one compaction');
      const shown = transcriptOf(t);
      assert.deepEqual(shown.unknown, []);
      assert.equal(shown.compactions.length, 1);
      const row = shown.compactions[0]!;
      assert.equal(row.itemId, compactionItemId([...ids][0]!));
      assert.equal(row.status, 'completed', describeRun(agent, t));
      assert.deepEqual(shown.labels, ['Context compacted']);
      // claude-agent-acp sends the summary whole with the completed update (the fake model's answer to
      // the compaction request, tags stripped); codex-acp sends none.
      assert.equal(summaryOf(row), agent === 'claude-agent-acp-0.101' ? SUMMARY_TEXT : '');
    });
  });
}
