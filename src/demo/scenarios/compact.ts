// `/compact`: a long session's context is compacted mid-turn. Sends an items plan `compact` (first
// step in progress), a usage near the window's size, then the compaction: `compaction_update`
// in_progress, the summary as `compaction_summary_chunk`s, and `completed` with the token counts
// before → after in `_meta.jetbrains.air.contextCompaction` (`preTokens`, `postTokens`, where the
// one agent that reports them puts them); then the smaller usage, the plan completed and a message.
// `/compact fail` ends the compaction `failed` with an error instead. v1: only to a client that
// advertised `clientCapabilities.session.compaction` (otherwise the compaction is not sent).
import { ItemPlan, type Scenario } from './scenario';

export const COMPACTION_SUMMARY = [
  'The user is refactoring the parser. ',
  'Done so far: the tokenizer was split out and its tests pass. ',
  'Next: move error recovery into its own module.',
];
export const COMPACTION_TOKENS = { before: 184_000, after: 12_500 } as const;
export const COMPACTION_ERROR = 'The summary did not fit the context window.';
const WINDOW = 200_000;

export const compactScenario: Scenario = {
  name: 'compact',
  description: 'Compacts the context in the middle of a turn (the summary streams in)',
  hint: 'fail',
  async run(turn, args) {
    const plan = new ItemPlan(turn, 'compact', [
      ['Read the long history', 'high'],
      ['Keep working after the compaction', 'medium'],
    ]);
    plan.set([0, 'in_progress']);
    turn.emit({ kind: 'usage', used: COMPACTION_TOKENS.before, size: WINDOW });
    turn.say('The context is nearly full: compacting it.');
    await turn.pace();
    const compactionId = turn.id('compaction');
    turn.emit({ kind: 'compaction', compactionId, status: 'in_progress' });
    for (const text of COMPACTION_SUMMARY) {
      await turn.pace();
      turn.emit({ kind: 'compactionChunk', compactionId, text });
    }
    await turn.pace();
    if (args.trim().toLowerCase() === 'fail') {
      turn.emit({ kind: 'compaction', compactionId, status: 'failed', error: COMPACTION_ERROR });
      turn.say('Compaction failed; going on with the full context.');
      return;
    }
    const facts = { version: 1, trigger: 'manual', preTokens: COMPACTION_TOKENS.before, postTokens: COMPACTION_TOKENS.after };
    turn.emit({ kind: 'compaction', compactionId, status: 'completed', _meta: { jetbrains: { air: { contextCompaction: facts } } } });
    turn.emit({ kind: 'usage', used: COMPACTION_TOKENS.after, size: WINDOW });
    plan.set([0, 'completed'], [1, 'in_progress']);
    await turn.pace();
    plan.set([1, 'completed']);
    turn.say('Done, with the compacted context.');
  },
};
