// Size limits of the transcript against hostile inputs: one message fed hundreds of megabytes,
// sessions flooded with large items, oversized and deeply nested raw fields. What a limit drops
// is counted on the item and said in its view; nothing throws and memory stays bounded.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { ToolCallContent } from '../../../src/protocol/domain';
import {
  DEFAULT_SESSION_LIMITS,
  messageText,
  Transcript,
  type MessageItem,
  type SessionLimits,
  type ToolCallItem,
  type TranscriptChange,
} from '../../../src/state/transcript';
import { approxSize } from '../../../src/state/transcript/size';
import { jsonPreview } from '../../../src/ui/conversation/jsonPreview';
import { itemView, toolHeaderView } from '../../../src/ui/conversation/viewModel';
import { ev, S, text } from './builders';
import { german } from '../l10n/german';

function setup(limits: Partial<SessionLimits> = {}): { t: Transcript; changes: TranscriptChange[] } {
  const t = new Transcript(limits);
  const changes: TranscriptChange[] = [];
  t.onDidChange((c) => changes.push(c));
  return { t, changes };
}
const msg = (t: Transcript, id: string) => t.session(S)!.item(`m:agent:${id}`) as MessageItem;
const tool = (t: Transcript, id: string) => t.session(S)!.item(`t:${id}`) as ToolCallItem;
const textContent = (s: string): ToolCallContent => ({ type: 'content', content: text(s) });

/** `{a:{a:{…}}}` nested `depth` levels, built without recursion. */
function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe('Transcript limits: messages', () => {
  it('keeps the first 1 MiB of a message fed 300 chunks of 1 MB, and counts the rest', () => {
    const { t, changes } = setup();
    const mb = 'x'.repeat(1_000_000);
    for (let i = 0; i < 300; i++) t.apply(ev.chunk('big', mb));
    const m = msg(t, 'big');
    const limit = DEFAULT_SESSION_LIMITS.maxMessageChars;
    assert.equal(messageText(m).length, limit);
    assert.equal(m.truncated?.droppedChars, 300 * 1_000_000 - limit);
    assert.equal(m.truncated?.limit, limit);
    assert.ok(t.session(S)!.chars <= limit, `the session counts ${t.session(S)!.chars}`);
    // add, one append that fills it, one upsert that shows the truncation; the 298 chunks after it change nothing shown.
    assert.deepEqual(
      changes.map((c) => c.kind),
      ['add', 'upsert'],
    );
    const view = itemView(m, 0);
    assert.ok(view.kind === 'message');
    assert.equal(view.truncated, 'Not all of this message was kept: it passed the limit of 1 MiB per message (298,951,424 characters were dropped).');
  });

  it('never splits a surrogate pair at the limit', () => {
    const { t } = setup({ maxMessageChars: 5 });
    t.apply(ev.chunk('u', 'abcd😀z'));
    assert.equal(messageText(msg(t, 'u')), 'abcd');
    assert.equal(msg(t, 'u').truncated?.droppedChars, 3);
  });

  it('drops a non-text block that does not fit whole, and counts it', () => {
    const { t } = setup({ maxMessageChars: 100 });
    t.apply(ev.chunk('m', 'hello'));
    t.apply({ sessionId: S, kind: 'message_chunk', role: 'agent', messageId: 'm', content: { type: 'image', mimeType: 'image/png', data: 'A'.repeat(1000) } });
    assert.deepEqual(
      msg(t, 'm').parts.map((p) => p.type),
      ['text'],
    );
    assert.equal(msg(t, 'm').truncated?.droppedBlocks, 1);
  });

  it('caps a v2 upsert, and an upsert that fits clears the truncation', () => {
    const { t } = setup({ maxMessageChars: 10 });
    t.apply(ev.message('m', [text('0123456789abcdef'), text('more')]));
    assert.equal(messageText(msg(t, 'm')), '0123456789');
    assert.equal(msg(t, 'm').truncated?.droppedChars, 10);
    t.apply(ev.message('m', [text('short')]));
    assert.equal(messageText(msg(t, 'm')), 'short');
    assert.equal(msg(t, 'm').truncated, undefined);
  });

  it('holds the invariants for any chunk sizes: kept + dropped = sent, kept within the limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.array(fc.string({ maxLength: 80 }), { maxLength: 40 }), (limit, chunks) => {
        const { t } = setup({ maxMessageChars: limit });
        for (const c of chunks) t.apply(ev.chunk('m', c));
        const m = t.session(S)?.item('m:agent:m') as MessageItem | undefined;
        const sent = chunks.reduce((n, c) => n + c.length, 0);
        const kept = m ? messageText(m).length : 0;
        assert.ok(kept <= limit);
        assert.equal(kept + (m?.truncated?.droppedChars ?? 0), sent);
      }),
    );
  });
});

describe('Transcript limits: sessions', () => {
  it('drops the oldest items when the session passes its size, keeping the newest whole', () => {
    const { t } = setup({ maxMessageChars: 1000, maxSessionChars: 10_000 });
    for (let i = 0; i < 100; i++) t.apply(ev.chunk(`m${i}`, 'y'.repeat(1000)));
    const s = t.session(S)!;
    assert.ok(s.chars <= 10_000, `${s.chars} characters held`);
    assert.ok(s.size >= 9 && s.size <= 10, `${s.size} items held`);
    assert.equal(s.endIndex, 100);
    assert.equal(s.item('m:agent:m0'), undefined);
    assert.equal(messageText(msg(t, 'm99')).length, 1000);
    assert.equal(s.firstIndex, 100 - s.size);
  });

  it('counts a message that grows: appending to it can push the oldest out', () => {
    const { t } = setup({ maxMessageChars: 5000, maxSessionChars: 6000 });
    t.apply(ev.chunk('old', 'o'.repeat(3000)));
    t.apply(ev.chunk('new', 'n'));
    for (let i = 0; i < 40; i++) t.apply(ev.chunk('new', 'n'.repeat(100)));
    const s = t.session(S)!;
    assert.equal(s.item('m:agent:old'), undefined);
    assert.equal(messageText(msg(t, 'new')).length, 4001);
    assert.ok(s.chars <= 6000);
  });
});

describe('Transcript limits: tool calls and raw fields', () => {
  it('keeps the head of tool call content and counts what was dropped; a replacement starts over', () => {
    const { t } = setup({ maxToolCallChars: 100 });
    t.apply(ev.tool('tc', { title: 'cat big.log', status: 'in_progress' }));
    for (let i = 0; i < 10; i++) t.apply(ev.toolChunk('tc', textContent('z'.repeat(30))));
    t.apply(
      ev.toolChunk('tc', { type: 'diff', changes: [{ operation: 'modify', path: '/a' }], texts: [{ path: '/a', oldText: 'a'.repeat(500), newText: 'b' }] }),
    );
    const tc = tool(t, 'tc');
    const kept = tc.content.reduce((n, c) => n + (c.type === 'content' && c.content.type === 'text' ? c.content.text.length : 0), 0);
    assert.equal(kept + tc.truncated!.droppedChars, 300);
    assert.ok(kept <= 100 - 'cat big.log'.length - 'in_progress'.length);
    assert.equal(tc.truncated!.droppedBlocks, 1, 'the diff did not fit whole');
    assert.match(toolHeaderView(tc, 0).truncated ?? '', /per tool call .*characters and 1 block were dropped/);
    t.apply(ev.tool('tc', { content: [textContent('fresh')] }));
    assert.equal(tool(t, 'tc').content.length, 1);
    assert.equal(tool(t, 'tc').truncated?.droppedChars, 0);
  });

  it('does not keep a rawOutput larger than the raw limit, and says so', () => {
    const { t } = setup({ maxRawChars: 1000 });
    t.apply(ev.tool('tc', { title: 'dump', rawInput: { path: 'a' }, rawOutput: { data: 'q'.repeat(5000) } }));
    const tc = tool(t, 'tc');
    assert.deepEqual(tc.rawInput, { path: 'a' });
    assert.equal(tc.rawOutput, undefined);
    assert.deepEqual(tc.truncated?.droppedFields, ['rawOutput']);
    assert.equal(toolHeaderView(tc, 0).rawOutput, null);
    assert.match(toolHeaderView(tc, 0).truncated ?? '', /its output was too large to keep/);
  });

  it('takes a rawInput nested 1,000,000 levels deep without overflowing the stack', () => {
    const deep = nested(1_000_000);
    const { t } = setup();
    t.apply(ev.tool('deep', { title: 'deep', rawInput: deep }));
    assert.deepEqual(tool(t, 'deep').truncated?.droppedFields, ['rawInput'], 'over the raw limit: not kept');
    // With a limit high enough to keep it, the preview is still bounded in depth and size.
    const { t: t2 } = setup({ maxRawChars: 100_000_000 });
    t2.apply(ev.tool('deep', { title: 'deep', rawInput: deep }));
    assert.equal(tool(t2, 'deep').rawInput, deep);
    const view = toolHeaderView(tool(t2, 'deep'), 0);
    assert.ok(view.rawInput !== null && view.rawInput.length < 5000, 'bounded preview');
    assert.match(view.rawInput, /\{…\}/);
  });

  it('keeps an unknown update too large to keep as a note, not its raw content', () => {
    const { t } = setup({ maxRawChars: 100 });
    t.apply({ sessionId: S, kind: 'unknown', updateType: 'future_thing', raw: { blob: 'b'.repeat(10_000) } });
    const item = t.session(S)!.slice(0)[0];
    assert.ok(item.kind === 'unknown');
    assert.deepEqual(item.raw, {});
    const view = itemView(item, 0);
    assert.ok(view.kind === 'unknown');
    assert.match(view.json, /not kept: this update was larger than 100 characters/);
  });
});

describe('Bounded measures and previews', () => {
  it('approxSize stops early on huge and deep values', () => {
    assert.ok(approxSize(nested(1_000_000), 1000) > 1000);
    let arr: unknown = [];
    for (let i = 0; i < 1_000_000; i++) arr = [arr];
    assert.ok(approxSize(arr, 1000) > 1000);
    assert.ok(approxSize({ a: 'x'.repeat(50) }) >= 50);
  });

  it('jsonPreview matches JSON.stringify for small values and bounds big ones', () => {
    const v = { a: [1, 'two', null, true, { b: [] }], c: {}, d: undefined, e: 'quote"d' };
    assert.equal(jsonPreview(v), JSON.stringify(v, null, 2));
    const big = Array.from({ length: 100_000 }, (_, i) => ({ i }));
    const p = jsonPreview(big, 500);
    assert.ok(p.length < 600 && p.endsWith('… (more not shown)'));
    assert.ok(jsonPreview(big, 500, undefined, german).endsWith('… (Rest nicht angezeigt)'), 'the cut note in the view model’s words');
    assert.ok(jsonPreview(nested(1_000_000)).includes('{…}'));
    assert.ok(jsonPreview('s'.repeat(10_000_000), 100).length < 200);
  });
});
