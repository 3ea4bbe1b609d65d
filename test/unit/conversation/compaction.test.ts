// Context compactions in the transcript and the conversation's view of them: one row per
// compactionId, its summary streamed in as appends, status, error and token counts worded; and
// a compaction in the middle of a turn leaves the turn, its plans and step attribution alone.
import { strict as assert } from 'node:assert';
import type { SessionEvent } from '../../../src/protocol/domain';
import { PlanStore } from '../../../src/state/planStore';
import { WorkStore } from '../../../src/state/attribution/workStore';
import { compactionItemId, messageText, Transcript, type CompactionItem, type TranscriptChange } from '../../../src/state/transcript';
import { DeltaTracker } from '../../../src/ui/conversation/deltas';
import { itemView } from '../../../src/ui/conversation/viewModel';
import { ev, S, text } from './builders';

const update = (compactionId: string, status: string, rest: Partial<Extract<SessionEvent, { kind: 'compaction' }>> = {}): SessionEvent => ({
  sessionId: S,
  kind: 'compaction',
  compactionId,
  status,
  ...rest,
});
const chunk = (compactionId: string, t: string): SessionEvent => ({ sessionId: S, kind: 'compaction_chunk', compactionId, content: text(t) });

function setup(): { t: Transcript; changes: TranscriptChange[] } {
  const t = new Transcript({});
  const changes: TranscriptChange[] = [];
  t.onDidChange((c) => changes.push(c));
  return { t, changes };
}
const compaction = (t: Transcript, id: string) => t.session(S)!.item(compactionItemId(id)) as CompactionItem;
const summaryText = (c: CompactionItem) => messageText({ kind: 'message', itemId: '', role: 'agent', messageId: '', parts: c.parts, rev: 0, local: false });
const view = (t: Transcript, id: string) => itemView(compaction(t, id), 0) as Extract<ReturnType<typeof itemView>, { kind: 'compaction' }>;

describe('Transcript: context compactions', () => {
  it('makes one row per compactionId: running, summary chunks appended in order, then completed with counts', () => {
    const { t, changes } = setup();
    t.apply(update('c1', 'in_progress'));
    assert.equal(view(t, 'c1').label, 'Compacting context…');
    t.apply(chunk('c1', 'The user asked '));
    t.apply(chunk('c1', 'for a refactor.'));
    t.apply(update('c1', 'completed', { tokens: { before: 120000, after: 8000 } }));
    const items = t.session(S)!.slice(0);
    assert.equal(items.length, 1);
    assert.equal(summaryText(compaction(t, 'c1')), 'The user asked for a refactor.');
    assert.deepEqual(
      changes.map((c) => c.kind),
      ['add', 'append', 'append', 'upsert'],
    );
    const v = view(t, 'c1');
    assert.equal(v.label, 'Context compacted');
    assert.equal(v.tokens, '120000 → 8000 tokens');
    assert.deepEqual(v.blocks, [{ type: 'text', text: 'The user asked for a refactor.' }]);
  });

  it('makes a row for a summary chunk that no update announced (in progress)', () => {
    const { t } = setup();
    t.apply(chunk('lonely', 'half a summary'));
    const c = compaction(t, 'lonely');
    assert.equal(c.status, 'in_progress');
    assert.equal(summaryText(c), 'half a summary');
    assert.equal(t.session(S)!.slice(0).length, 1);
  });

  it('words a failed compaction with its error; a whole summary replaces the chunks; null clears', () => {
    const { t } = setup();
    t.apply(update('c2', 'in_progress'));
    t.apply(chunk('c2', 'draft'));
    t.apply(update('c2', 'completed', { summary: [text('final summary')] }));
    assert.equal(summaryText(compaction(t, 'c2')), 'final summary');
    t.apply(update('c2', 'failed', { summary: null, error: 'Context limit reached' }));
    const v = view(t, 'c2');
    assert.equal(v.label, 'Context compaction failed');
    assert.equal(v.error, 'Context limit reached');
    assert.deepEqual(v.blocks, []);
    t.apply(update('c3', 'cancelled'));
    t.apply(update('c4', '_paused', { tokens: { before: 10 } }));
    assert.equal(view(t, 'c3').label, 'Context compaction cancelled');
    assert.equal(view(t, 'c4').label, 'Context compaction (_paused)');
    assert.equal(view(t, 'c4').tokens, '10 tokens before');
  });

  it('sends the webview the summary as appends, and the whole row when its status changes', () => {
    const { t } = setup();
    t.apply(update('c1', 'in_progress'));
    const tracker = new DeltaTracker(t.session(S)!);
    assert.equal(tracker.snapshot(10).items[0]!.kind, 'compaction');
    t.apply(chunk('c1', 'one '));
    assert.deepEqual(tracker.itemOps(compactionItemId('c1')), [{ op: 'append', itemId: compactionItemId('c1'), blocks: [{ type: 'text', text: 'one ' }] }]);
    t.apply(chunk('c1', 'two'));
    assert.deepEqual(tracker.itemOps(compactionItemId('c1')), [{ op: 'append', itemId: compactionItemId('c1'), text: 'two' }]);
    t.apply(update('c1', 'completed'));
    const ops = tracker.itemOps(compactionItemId('c1'));
    assert.equal(ops.length, 1);
    assert.ok(ops[0]!.op === 'upsert' && ops[0]!.item.kind === 'compaction');
    assert.equal(ops[0]!.item.label, 'Context compacted');
  });

  it('is no turn boundary: the turn, its plan and the step its calls belong to go on', () => {
    const { t } = setup();
    const plans = new PlanStore();
    const work = new WorkStore();
    let time = 1000;
    const all = (e: SessionEvent): void => {
      t.apply(e);
      plans.apply('a', e);
      work.apply('a', e, (time += 1000));
    };
    const plan: SessionEvent = {
      sessionId: S,
      kind: 'plan_update',
      plan: { type: 'items', planId: 'p', entries: [{ content: 'Refactor', priority: 'high', status: 'in_progress' }] },
    };
    all(ev.state('running'));
    all(plan);
    all(ev.tool('before', { title: 'read', status: 'pending' }));
    all(update('c1', 'in_progress'));
    all(chunk('c1', 'summary'));
    all(update('c1', 'completed', { tokens: { before: 9, after: 1 } }));
    all(ev.tool('after', { title: 'write', status: 'in_progress' }));
    const kinds = t
      .session(S)!
      .slice(0)
      .map((i) => i.kind);
    assert.deepEqual(kinds, ['tool_call', 'compaction', 'tool_call']);
    assert.equal(plans.get({ agentId: 'a', sessionId: S, planId: 'p' })!.revisions.length, 1);
    assert.deepEqual(work.stepAt('a', S, 'p', 0)!.calls, ['before', 'after']);
    all(ev.state('idle', 'end_turn'));
    // The tool calls of the whole turn (before and after the compaction) are the ending turn's.
    const before = t.session(S)!.item('t:before');
    assert.ok(before?.kind === 'tool_call' && before.unfinished === true);
    assert.deepEqual(
      t
        .session(S)!
        .slice(0)
        .map((i) => i.kind),
      ['tool_call', 'compaction', 'tool_call', 'turn_end'],
    );
  });
});
