import { strict as assert } from 'node:assert';
import type { PermissionRequest } from '../../../src/protocol/domain';
import { messageText, Transcript, type MessageItem, type ToolCallItem, type TranscriptChange } from '../../../src/state/transcript';
import { DeltaTracker } from '../../../src/ui/conversation/deltas';
import { ev, S, text } from './builders';

function setup(opts = {}): { t: Transcript; changes: TranscriptChange[] } {
  const t = new Transcript(opts);
  const changes: TranscriptChange[] = [];
  t.onDidChange((c) => changes.push(c));
  return { t, changes };
}
const items = (t: Transcript) => t.session(S)!.slice(0);
const msg = (t: Transcript, id: string, role = 'agent') => t.session(S)!.item(`m:${role}:${id}`) as MessageItem;
const tool = (t: Transcript, id: string) => t.session(S)!.item(`t:${id}`) as ToolCallItem;

describe('Transcript: messages', () => {
  it('appends chunks to one message per id and fires add, then append', () => {
    const { t, changes } = setup();
    t.apply(ev.chunk('m1', 'Hello'));
    t.apply(ev.chunk('m1', ', world'));
    t.apply(ev.chunk('m1', '!'));
    assert.equal(items(t).length, 1);
    assert.equal(messageText(msg(t, 'm1')), 'Hello, world!');
    assert.deepEqual(msg(t, 'm1').parts, [{ type: 'text', chunks: ['Hello', ', world', '!'], length: 13, joined: 0 }]);
    assert.deepEqual(
      changes.map((c) => c.kind),
      ['add', 'append', 'append'],
    );
    assert.deepEqual(
      changes.map((c) => 'itemId' in c && c.itemId),
      ['m:agent:m1', 'm:agent:m1', 'm:agent:m1'],
    );
  });

  it('keeps a long message as a few joined pieces; the appends a webview is sent add up to its text', () => {
    const { t } = setup();
    t.apply(ev.chunk('m1', 'start '));
    const tracker = new DeltaTracker(t.session(S)!);
    tracker.snapshot(10);
    let shown = 'start ';
    for (let i = 1; i <= 1000; i++) {
      t.apply(ev.chunk('m1', `c${i} `));
      if (i % 7 !== 0 && i % 64 !== 0) continue; // the webview is sent what changed now and then, across joins
      for (const op of tracker.itemOps('m:agent:m1')) if (op.op === 'append') shown += op.text ?? '';
    }
    for (const op of tracker.itemOps('m:agent:m1')) if (op.op === 'append') shown += op.text ?? '';
    const part = msg(t, 'm1').parts[0]!;
    assert.equal(shown, messageText(msg(t, 'm1')));
    assert.equal(shown, `start ${Array.from({ length: 1000 }, (_, i) => `c${i + 1} `).join('')}`);
    assert.ok(part.type === 'text' && part.chunks.length < 1001 / 64 + 64, `${part.type === 'text' && part.chunks.length} strings`);
  });

  it('keeps roles apart even with the same message id, and keeps arrival order', () => {
    const { t } = setup();
    t.apply(ev.chunk('x', 'thinking…', 'thought'));
    t.apply(ev.chunk('x', 'answer'));
    t.apply(ev.chunk('x', ' more thought', 'thought'));
    assert.deepEqual(
      items(t).map((i) => i.itemId),
      ['m:thought:x', 'm:agent:x'],
    );
    assert.equal(messageText(msg(t, 'x', 'thought')), 'thinking… more thought');
  });

  it('puts non-text chunks in their own parts and text after them in a new part', () => {
    const { t } = setup();
    t.apply(ev.chunk('m', 'see '));
    t.apply({ sessionId: S, kind: 'message_chunk', role: 'agent', messageId: 'm', content: { type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' } });
    t.apply(ev.chunk('m', 'done'));
    assert.deepEqual(
      msg(t, 'm').parts.map((p) => p.type),
      ['text', 'block', 'text'],
    );
  });

  it('upserts (v2): undefined leaves content, null and [] clear it, an array replaces it', () => {
    const { t, changes } = setup();
    t.apply(ev.message('m', [text('one')]));
    assert.equal(messageText(msg(t, 'm')), 'one');
    const rev = msg(t, 'm').rev;
    t.apply(ev.message('m', undefined));
    assert.equal(messageText(msg(t, 'm')), 'one');
    assert.equal(msg(t, 'm').rev, rev, 'an omitted content is no replacement');
    t.apply(ev.message('m', [text('two'), text(' three')]));
    assert.equal(messageText(msg(t, 'm')), 'two three');
    assert.ok(msg(t, 'm').rev > rev);
    t.apply(ev.message('m', null));
    assert.equal(messageText(msg(t, 'm')), '');
    t.apply(ev.message('m', [text('back')]));
    t.apply(ev.message('m', []));
    assert.deepEqual(msg(t, 'm').parts, []);
    assert.equal(items(t).length, 1);
    assert.deepEqual(
      changes.map((c) => c.kind),
      ['add', 'upsert', 'upsert', 'upsert', 'upsert', 'upsert'],
    );
  });

  it('appends chunks after an upsert to the same message', () => {
    const { t } = setup();
    t.apply(ev.message('m', [text('Hi')]));
    t.apply(ev.chunk('m', ' there'));
    assert.equal(messageText(msg(t, 'm')), 'Hi there');
  });

  it('shows a locally typed prompt as a user message', () => {
    const { t } = setup();
    const id = t.addUserPrompt(S, [text('fix the bug')]);
    const item = t.session(S)!.item(id) as MessageItem;
    assert.equal(item.role, 'user');
    assert.equal(item.local, true);
    assert.equal(messageText(item), 'fix the bug');
  });
});

describe('Transcript: tool calls', () => {
  it('marks tool calls the agent left open as unfinished when the turn ends', () => {
    const { t } = setup();
    t.apply(ev.tool('old', { title: 'Earlier', status: 'in_progress' }));
    t.apply(ev.state('idle', 'end_turn'));
    t.apply(ev.state('running'));
    t.apply(ev.tool('edit', { title: 'Edit', status: 'in_progress' }));
    t.apply(ev.tool('read', { title: 'Read', status: 'completed' }));
    t.apply(ev.state('idle', 'cancelled'));
    assert.equal(tool(t, 'edit').unfinished, true);
    assert.equal(tool(t, 'edit').status, 'in_progress', 'what the agent said is kept');
    assert.ok(!tool(t, 'read').unfinished);
    t.apply(ev.state('idle', 'cancelled')); // a repeated idle is not a new turn end
    t.apply(ev.tool('edit', { status: 'completed' }));
    assert.equal(tool(t, 'edit').unfinished, false, 'a late final status clears the mark');
  });

  it('creates on first update and applies patch semantics per field', () => {
    const { t, changes } = setup();
    t.apply(ev.tool('c1', { title: 'Read a.ts', kind: 'read', status: 'pending', locations: [{ path: '/w/a.ts', line: 3 }], rawInput: { path: 'a.ts' } }));
    t.apply(ev.tool('c1', { status: 'in_progress' }));
    let c = tool(t, 'c1');
    assert.equal(c.title, 'Read a.ts', 'omitted title unchanged');
    assert.equal(c.toolKind, 'read');
    assert.equal(c.status, 'in_progress');
    assert.deepEqual(c.locations, [{ path: '/w/a.ts', line: 3 }]);
    assert.deepEqual(c.rawInput, { path: 'a.ts' });
    t.apply(ev.tool('c1', { title: null, locations: null, rawInput: null, kind: 'edit' }));
    c = tool(t, 'c1');
    assert.equal(c.title, null);
    assert.deepEqual(c.locations, []);
    assert.equal(c.rawInput, null);
    assert.equal(c.toolKind, 'edit');
    assert.equal(c.status, 'in_progress');
    t.apply(ev.tool('c1', { locations: [{ path: '/b' }, { path: '/c' }] }));
    t.apply(ev.tool('c1', { locations: [{ path: '/d' }] }));
    assert.deepEqual(tool(t, 'c1').locations, [{ path: '/d' }], 'arrays are replaced whole');
    assert.deepEqual(
      changes.map((x) => x.kind),
      ['add', 'upsert', 'upsert', 'upsert', 'upsert'],
    );
  });

  it('appends content chunks, and a content array replaces them', () => {
    const { t, changes } = setup();
    t.apply(ev.toolChunk('c2', { type: 'content', content: text('out 1') }));
    t.apply(ev.toolChunk('c2', { type: 'content', content: text('out 2') }));
    assert.equal(tool(t, 'c2').content.length, 2);
    const rev = tool(t, 'c2').contentRev;
    t.apply(ev.tool('c2', { status: 'completed' }));
    assert.equal(tool(t, 'c2').content.length, 2, 'omitted content unchanged');
    t.apply(ev.tool('c2', { content: [{ type: 'terminal', terminalId: 'term' }] }));
    assert.deepEqual(tool(t, 'c2').content, [{ type: 'terminal', terminalId: 'term' }]);
    assert.ok(tool(t, 'c2').contentRev > rev);
    t.apply(ev.tool('c2', { content: null }));
    assert.deepEqual(tool(t, 'c2').content, []);
    assert.deepEqual(
      changes.map((x) => x.kind),
      ['add', 'append', 'upsert', 'upsert', 'upsert'],
    );
  });
});

describe('Transcript: turns, session state, notices, unknown updates', () => {
  it('adds one turn end per completed turn, never for a repeated idle', () => {
    const { t } = setup();
    t.apply(ev.state('idle', 'end_turn')); // snapshot of a fresh session: not a completion
    t.apply(ev.state('running'));
    t.apply(ev.state('requires_action'));
    t.apply(ev.state('running'));
    t.apply(ev.state('idle', null)); // idle without stop reason: not a completion
    t.apply(ev.state('running'));
    t.apply({ sessionId: S, kind: 'state', state: 'idle', stopReason: 'cancelled', usage: { totalTokens: 10 } });
    t.apply(ev.state('idle', 'cancelled'));
    const ends = items(t).filter((i) => i.kind === 'turn_end');
    assert.equal(ends.length, 1);
    assert.equal(ends[0].kind === 'turn_end' && ends[0].stopReason, 'cancelled');
    assert.deepEqual(t.session(S)!.meta.lastTurnUsage, { totalTokens: 10 });
  });

  it("keeps commands and usage as session state (turn state, title and config options are the SessionStore's)", () => {
    const { t, changes } = setup();
    t.apply({ sessionId: S, kind: 'commands', commands: [{ name: 'plan', description: 'Make a plan' }] });
    t.apply({ sessionId: S, kind: 'config_options', options: [{ kind: 'boolean', id: 'x', name: 'X', currentValue: true }] });
    t.apply({ sessionId: S, kind: 'usage', used: 5, size: 100 });
    t.apply({ sessionId: S, kind: 'session_info', title: 'Fixing' });
    t.apply({ sessionId: S, kind: 'session_info', updatedAt: 'now' });
    const m = t.session(S)!.meta;
    assert.equal(m.commands[0].name, 'plan');
    assert.deepEqual(m.usage, { used: 5, size: 100, cost: null });
    assert.deepEqual(Object.keys(m).sort(), ['commands', 'lastTurnUsage', 'usage']);
    assert.ok(changes.every((c) => c.kind === 'session'));
    assert.equal(items(t).length, 0);
  });

  it('keeps notices and unknown updates as items, raw', () => {
    const { t } = setup();
    t.apply({ sessionId: S, kind: 'notice', severity: 'warning', title: 'Slow' });
    t.apply({ sessionId: S, kind: 'unknown', updateType: 'compaction_update', raw: { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'done' } });
    const [n, u] = items(t);
    assert.equal(n.kind, 'notice');
    assert.equal(u.kind, 'unknown');
    assert.deepEqual(u.kind === 'unknown' && u.raw, { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'done' });
  });

  it('ignores plan events (they belong to the plan store)', () => {
    const { t } = setup();
    t.apply({ sessionId: S, kind: 'plan_update', plan: { type: 'items', planId: 'p', entries: [] } });
    assert.equal(items(t).length, 0);
  });

  it('keeps sessions apart and resets a removed one', () => {
    const { t, changes } = setup();
    t.apply(ev.chunk('a', 'one'));
    t.apply(ev.chunk('a', 'two', 'agent', 'sess-2'));
    assert.deepEqual(t.sessionIds().sort(), [S, 'sess-2']);
    t.removeSession('sess-2');
    assert.equal(t.session('sess-2'), undefined);
    assert.deepEqual(changes[changes.length - 1], { sessionId: 'sess-2', kind: 'reset' });
  });

  it('drops the oldest items past the cap, keeping ids and indexes consistent', () => {
    const { t } = setup({ maxItems: 10 });
    for (let i = 0; i < 25; i++) t.apply(ev.chunk(`m${i}`, `x${i}`));
    const s = t.session(S)!;
    assert.ok(s.size <= 10);
    assert.equal(s.endIndex, 25);
    assert.equal(s.item('m:agent:m0'), undefined);
    const last = s.item('m:agent:m24') as MessageItem;
    assert.equal(messageText(last), 'x24');
    assert.equal(s.indexOf('m:agent:m24'), 24);
    assert.equal(s.at(24), last);
    t.apply(ev.chunk('m20', '+'));
    assert.equal(messageText(s.item('m:agent:m20') as MessageItem), 'x20+');
  });

  it('a throwing listener neither stops other listeners nor the store', () => {
    const errors: unknown[] = [];
    const t = new Transcript({ onListenerError: (e) => errors.push(e) });
    const seen: string[] = [];
    t.onDidChange(() => {
      throw new Error('boom');
    });
    t.onDidChange((c) => seen.push(c.kind));
    t.apply(ev.chunk('m', 'a'));
    assert.deepEqual(seen, ['add']);
    assert.equal(errors.length, 1);
    assert.equal(messageText(t.session(S)!.item('m:agent:m') as MessageItem), 'a');
  });
});

describe('Transcript: permissions', () => {
  const req: PermissionRequest = {
    sessionId: S,
    title: 'Run rm',
    options: [
      { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
    subject: { type: 'tool_call', toolCallId: 'tc', fields: { title: 'rm -rf build', kind: 'execute', status: 'pending' } },
  };

  it('shows the request pending with flags, applies its tool call, records the answer once', () => {
    const { t } = setup();
    const id = t.addPermissionRequest(req, { flags: ['not_in_plan'] });
    assert.equal(tool(t, 'tc').title, 'rm -rf build');
    const item = t.session(S)!.item(`p:${id}`);
    assert.ok(item?.kind === 'permission');
    assert.equal(item.state, 'pending');
    assert.deepEqual(item.flags, ['not_in_plan']);
    assert.equal(t.resolvePermission(S, id, { outcome: 'selected', optionId: 'allow' }), true);
    assert.equal(item.state, 'selected');
    assert.equal(item.optionId, 'allow');
    assert.equal(t.resolvePermission(S, id, { outcome: 'cancelled' }), false, 'answered once');
    assert.equal(item.state, 'selected');
  });

  it('records a cancellation (turn cancelled) as cancelled, with one upsert', () => {
    const { t, changes } = setup();
    t.addPermissionRequest(req, { requestId: 'r9' });
    const before = changes.length;
    assert.equal(t.resolvePermission(S, 'r9', { outcome: 'cancelled' }), true);
    assert.equal(t.resolvePermission(S, 'r9', { outcome: 'selected', optionId: 'allow' }), false, 'never approved after cancellation');
    const item = t.session(S)!.item('p:r9');
    assert.equal(item?.kind === 'permission' && item.state, 'cancelled');
    assert.deepEqual(changes.slice(before), [{ sessionId: S, kind: 'upsert', itemId: 'p:r9' }]);
  });

  it('refuses a second request with the same id and answers unknown ids with false', () => {
    const { t } = setup();
    t.addPermissionRequest(req, { requestId: 'r1' });
    assert.throws(() => t.addPermissionRequest(req, { requestId: 'r1' }), /already exists/);
    assert.equal(t.resolvePermission(S, 'nope', { outcome: 'cancelled' }), false);
    assert.equal(t.resolvePermission('other-session', 'r1', { outcome: 'cancelled' }), false);
  });
});
