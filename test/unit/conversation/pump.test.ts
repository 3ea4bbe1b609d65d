import { strict as assert } from 'node:assert';
import { Transcript } from '../../../src/state/transcript';
import type { DeltaOp, ToWebview } from '../../../src/ui/conversation/webviewMessages';
import { DeltaPump, FIRST_PAINT_ITEMS } from '../../../src/ui/conversation/pump';
import { b64, ev, S, text } from './builders';
import { SessionStore } from '../../../src/state/sessionStore';

/** A pump with a manual timer: `tick()` runs the pending flush. */
function setup(windowSize = 500) {
  const t = new Transcript();
  const posts: ToWebview[] = [];
  let pending: (() => void) | undefined;
  let timers = 0;
  t.sessionFor(S); // the session exists (else the first change brings a snapshot)
  const store = new SessionStore();
  const pump = new DeltaPump(t, (m) => void posts.push(m), {
    windowSize,
    facts: {
      get: (id) => store.session('a', id),
      onDidChange: (l) =>
        store.onDidChange((c) => {
          if (c.scope === 'session') l(c.sessionId);
        }),
    },
    setTimer: (fn) => {
      timers++;
      pending = fn;
      return 1;
    },
    clearTimer: () => {
      pending = undefined;
    },
  });
  const tick = (): void => {
    const fn = pending;
    pending = undefined;
    fn?.();
  };
  return { t, store, posts, pump, tick, timers: () => timers };
}
const deltas = (posts: ToWebview[]): DeltaOp[][] => posts.flatMap((p) => (p.type === 'delta' ? [p.ops] : []));

describe('DeltaPump', () => {
  it('sends a snapshot on start, then nothing until something changes', () => {
    const { t, posts, pump } = setup();
    t.apply(ev.chunk('m1', 'Hello'));
    pump.setSession(S);
    assert.equal(posts.length, 0, 'not before the webview is ready');
    pump.start();
    assert.equal(posts.length, 1);
    const snap = posts[0];
    assert.ok(snap.type === 'snapshot');
    assert.equal(snap.sessionId, S);
    assert.deepEqual(
      snap.items.map((i) => i.itemId),
      ['m:agent:m1'],
    );
  });

  it("sends a long session's newest items first, then the rest of the window as an earlier page on the next tick", () => {
    const { t, posts, pump, tick } = setup(500);
    for (let i = 0; i < 700; i++) t.apply(ev.chunk(`m${i}`, `message ${i}`));
    pump.setSession(S);
    pump.start();
    assert.equal(posts.length, 1);
    const snap = posts[0];
    assert.ok(snap.type === 'snapshot');
    assert.equal(snap.items.length, FIRST_PAINT_ITEMS);
    assert.equal(snap.windowSize, 500, 'the webview keeps the whole window');
    assert.equal(snap.items.at(-1)?.itemId, 'm:agent:m699');
    tick();
    assert.equal(posts.length, 2);
    const rest = posts[1];
    assert.ok(rest.type === 'earlier');
    assert.deepEqual(
      rest.items.map((i) => i.index),
      Array.from({ length: 500 - FIRST_PAINT_ITEMS }, (_, i) => snap.items[0].index - (500 - FIRST_PAINT_ITEMS) + i),
      'the window just before the snapshot, in order',
    );
    tick();
    assert.equal(posts.length, 2, 'nothing more');
    // A session no longer than the first part is sent whole.
    const small = setup(500);
    for (let i = 0; i < 30; i++) small.t.apply(ev.chunk(`m${i}`, `message ${i}`));
    small.pump.setSession(S);
    small.pump.start();
    small.tick();
    assert.deepEqual(
      small.posts.map((p) => p.type),
      ['snapshot'],
    );
  });

  it('coalesces a burst of chunks into one post that appends only the new text', () => {
    const { t, posts, pump, tick, timers } = setup();
    pump.setSession(S);
    t.apply(ev.chunk('m1', 'Hel'));
    pump.start();
    posts.length = 0;
    for (const c of ['lo', ', ', 'wor', 'ld']) t.apply(ev.chunk('m1', c));
    assert.equal(posts.length, 0, 'nothing posted before the timer');
    assert.equal(timers(), 1, 'one timer for the burst');
    tick();
    assert.deepEqual(deltas(posts), [[{ op: 'append', itemId: 'm:agent:m1', text: 'lo, world' }]]);
    assert.equal(pump.stats.deltasPosted, 1);
    assert.equal(pump.stats.changesSeen, 4);
  });

  it('sends new items whole, replaced messages whole, appended tool content only', () => {
    const { t, posts, pump, tick } = setup();
    pump.setSession(S);
    pump.start();
    posts.length = 0;
    t.apply(ev.tool('c1', { title: 'Run tests', kind: 'execute', status: 'in_progress' }));
    t.apply(ev.message('m', [text('v1')]));
    tick();
    let [ops] = deltas(posts);
    assert.deepEqual(
      ops.map((o) => o.op),
      ['upsert', 'upsert'],
    );
    posts.length = 0;
    t.apply(ev.toolChunk('c1', { type: 'content', content: text('ok 1') }));
    t.apply(ev.tool('c1', { status: 'completed' }));
    t.apply(ev.message('m', [text('v2')]));
    tick();
    [ops] = deltas(posts);
    const toolOp = ops.find((o) => o.op === 'tool');
    assert.ok(toolOp && toolOp.op === 'tool');
    assert.equal(toolOp.header.status, 'completed');
    assert.deepEqual(toolOp.append, [{ type: 'block', block: { type: 'text', text: 'ok 1' } }]);
    const msgOp = ops.find((o) => o.op === 'upsert');
    assert.ok(msgOp && msgOp.op === 'upsert' && msgOp.item.kind === 'message');
    assert.deepEqual(msgOp.item.blocks, [{ type: 'text', text: 'v2' }]);
  });

  it('sends a terminal before the tool call showing it, then appends its output', () => {
    const { t, posts, pump, tick } = setup();
    pump.setSession(S);
    pump.start();
    posts.length = 0;
    t.apply(ev.termUpdate('term', { command: 'make', output: b64('start\n') }));
    t.apply(ev.tool('c', { title: 'make', content: [{ type: 'terminal', terminalId: 'term' }] }));
    tick();
    const [ops] = deltas(posts);
    assert.deepEqual(
      ops.map((o) => o.op),
      ['terminal', 'upsert'],
    );
    posts.length = 0;
    t.apply(ev.termChunk('term', b64('\x1b[32mdone\x1b[0m\n')));
    tick();
    assert.deepEqual(deltas(posts), [[{ op: 'terminalAppend', terminalId: 'term', text: 'done\n' }]]);
  });

  it('sends session state as one op', () => {
    const { t, store, posts, pump, tick } = setup();
    pump.setSession(S);
    pump.start();
    posts.length = 0;
    store.applyEvent('a', ev.state('running')); // turn state: the SessionStore's
    t.apply({ sessionId: S, kind: 'usage', used: 10, size: 100 }); // usage: the transcript's
    tick();
    const [ops] = deltas(posts);
    assert.equal(ops.length, 1);
    assert.ok(ops[0].op === 'session' && ops[0].session.busy && ops[0].session.usage?.used === 10);
  });

  it('ignores other sessions, and snapshots again on a session switch or reset', () => {
    const { t, posts, pump, tick } = setup();
    pump.setSession(S);
    pump.start();
    posts.length = 0;
    t.apply(ev.chunk('x', 'other', 'agent', 'sess-2'));
    tick();
    assert.equal(posts.length, 0);
    pump.setSession('sess-2');
    assert.equal(posts.length, 1);
    assert.ok(posts[0].type === 'snapshot' && posts[0].items.length === 1);
    t.removeSession('sess-2');
    tick();
    assert.ok(posts[1].type === 'snapshot' && posts[1].items.length === 0);
  });

  it('snapshots only the last window of items and pages earlier ones on request', () => {
    const { t, posts, pump } = setup(10);
    for (let i = 0; i < 25; i++) t.apply(ev.chunk(`m${i}`, `${i}`));
    pump.setSession(S);
    pump.start();
    const snap = posts[0];
    assert.ok(snap.type === 'snapshot');
    assert.deepEqual(
      snap.items.map((i) => i.index),
      [15, 16, 17, 18, 19, 20, 21, 22, 23, 24],
    );
    assert.equal(snap.firstIndex, 0);
    pump.sendEarlier(S, 15, 10);
    const page = posts[1];
    assert.ok(page.type === 'earlier');
    assert.deepEqual(
      page.items.map((i) => i.index),
      [5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
    );
  });

  it('posts nothing while paused and snapshots when started again', () => {
    const { t, posts, pump, tick } = setup();
    pump.setSession(S);
    pump.start();
    pump.pause();
    posts.length = 0;
    t.apply(ev.chunk('m', 'while hidden'));
    tick();
    assert.equal(posts.length, 0);
    pump.start();
    assert.ok(posts[0].type === 'snapshot' && posts[0].items.length === 1);
  });

  it('10,000 chunks in bursts cost one post per burst, each carrying only its own text', () => {
    const { t, posts, pump, tick } = setup();
    pump.setSession(S);
    pump.start();
    posts.length = 0;
    let total = '';
    for (let burst = 0; burst < 100; burst++) {
      for (let i = 0; i < 100; i++) {
        const c = `${burst}.${i} `;
        total += c;
        t.apply(ev.chunk('long', c));
      }
      tick();
    }
    assert.equal(pump.stats.deltasPosted, 100);
    const ds = deltas(posts);
    assert.ok(ds[0][0].op === 'upsert');
    const appended = ds
      .slice(1)
      .map((ops) => (ops[0].op === 'append' ? (ops[0].text ?? '') : ''))
      .join('');
    const first = ds[0][0].op === 'upsert' && ds[0][0].item.kind === 'message' && ds[0][0].item.blocks[0].type === 'text' ? ds[0][0].item.blocks[0].text : '';
    assert.equal(first + appended, total);
    assert.ok(ds.slice(1).every((ops) => ops[0].op === 'append' && (ops[0].text ?? '').length < 1000));
  });
});
