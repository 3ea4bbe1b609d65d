// The renderer pace (src/ui/renderPace.ts): the surfaces' updates run together at one tick; a tick
// after a post waits for the webview's answer (or the answer timeout), never less than a frame
// after the last; the status bar's coalescer and the conversation's pump run at its ticks.
import { strict as assert } from 'node:assert';
import { RenderPace } from '../../../src/ui/renderPace';
import { FrameCoalescer, type Scheduler } from '../../../src/ui/coalesce';
import { DeltaPump } from '../../../src/ui/conversation/pump';
import { Transcript } from '../../../src/state/transcript';
import type { ToWebview } from '../../../src/ui/conversation/webviewMessages';
import { ev, S } from '../conversation/builders';

/** A manual clock: `advance(ms)` runs the timers that fall due, in order. */
function manualClock(): Scheduler & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      timers.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout(h) {
      timers.delete(h as number);
    },
    pending: () => timers.size,
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = [...timers.entries()].sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!next || next[1].at > end) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = end;
    },
  };
}

/** Lets settled promises' callbacks run. */
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * A live pump on a fresh transcript, at a pace on a manual clock; `posts` holds what it posted and
 * `replies[i]()` is the renderer's reply to `posts[i]`.
 */
function pacedPump() {
  const clock = manualClock();
  const pace = new RenderPace({ scheduler: clock });
  const t = new Transcript();
  t.sessionFor(S);
  const posts: ToWebview[] = [];
  const replies: (() => void)[] = [];
  const pump = new DeltaPump(
    t,
    (m) => {
      posts.push(m);
      return new Promise<void>((r) => replies.push(r));
    },
    { pace, now: clock.now },
  );
  pump.setSession(S);
  pump.start();
  return { clock, pace, t, posts, replies, pump };
}

describe('RenderPace', () => {
  it('runs every surface asked for at the same tick, once however often asked', () => {
    const clock = manualClock();
    const pace = new RenderPace({ scheduler: clock });
    const ran: string[] = [];
    const a = (): number => ran.push('a');
    const b = (): number => ran.push('b');
    pace.request(a);
    pace.request(b);
    pace.request(a);
    clock.advance(0);
    assert.deepEqual(ran, ['a', 'b']);
    assert.equal(pace.ticks, 1);
  });

  it('waits a frame between ticks, and for the answer to a post (at most the answer timeout)', () => {
    const clock = manualClock();
    const pace = new RenderPace({ scheduler: clock, frameMs: 16, answerTimeoutMs: 250 });
    let runs = 0;
    const flush = (): void => {
      runs++;
    };
    pace.request(flush);
    clock.advance(0);
    assert.equal(runs, 1);
    pace.request(flush);
    clock.advance(10);
    assert.equal(runs, 1, 'not within a frame of the last tick');
    clock.advance(6);
    assert.equal(runs, 2, 'a frame after the last tick');
    const token = pace.posted();
    pace.request(flush);
    clock.advance(100);
    assert.equal(runs, 2, 'waits for the answer to its post');
    pace.answered(token);
    clock.advance(0);
    assert.equal(runs, 3, 'the answer lets the next tick run');
    pace.posted();
    pace.request(flush);
    clock.advance(249);
    assert.equal(runs, 3);
    clock.advance(1);
    assert.equal(runs, 4, 'an answer that does not come is waited for 250 ms, not more');
    pace.request(flush);
    clock.advance(16);
    assert.equal(runs, 5, 'and not again');
  });

  it('ticks when its clock moves on between two readings (a real clock does)', () => {
    const clock = manualClock();
    const creeping: Scheduler = { ...clock, now: () => (clock.advance(0.01), clock.now()) };
    const pace = new RenderPace({ scheduler: creeping, frameMs: 16 });
    let runs = 0;
    pace.request(() => runs++);
    clock.advance(1);
    assert.equal(runs, 1);
  });

  it('waits for a held post until the renderer replies, and not for an answer within its grace', async () => {
    const clock = manualClock();
    const pace = new RenderPace({ scheduler: clock, frameMs: 16, answerTimeoutMs: 250 });
    let runs = 0;
    const flush = (): void => {
      runs++;
    };
    let reply!: () => void;
    pace.held(new Promise<void>((r) => (reply = r)));
    pace.request(flush);
    clock.advance(100);
    assert.equal(runs, 0, 'waits for the reply');
    reply();
    await settle();
    clock.advance(0);
    assert.equal(runs, 1, 'runs once the reply came');
    const token = pace.posted(100);
    pace.request(flush);
    clock.advance(16);
    assert.equal(runs, 2, 'an answer within its grace is not waited for');
    clock.advance(100);
    pace.request(flush);
    clock.advance(100);
    assert.equal(runs, 2, 'once late, it is');
    pace.answered(token);
    clock.advance(0);
    assert.equal(runs, 3);
  });

  it('the status bar and the conversation update in one tick; the next waits for the reply, and for a late answer', async () => {
    const { clock, pace, t, posts, replies, pump } = pacedPump();
    const base = posts.length; // the snapshot
    let statusRenders = 0;
    const status = new FrameCoalescer<true>(() => statusRenders++, 16, clock, pace);
    const more = (text: string): void => {
      t.apply(ev.chunk('m1', text));
      status.add(true);
    };
    more('Hel');
    clock.advance(0);
    assert.equal(posts.length, base + 1);
    assert.equal(statusRenders, 1);
    assert.equal(pace.ticks, 1, 'one tick for both');
    const first = posts[base];
    assert.ok(first.type === 'delta' && typeof first.seq === 'number', 'the first delta asks the webview to answer');
    more('lo');
    clock.advance(16);
    assert.equal(posts.length, base + 2, 'an answer in its grace is not waited for');
    assert.equal(statusRenders, 2);
    const second = posts[base + 1];
    assert.ok(second.type === 'delta' && second.seq === undefined, 'one answer awaited at a time');
    more(' wor');
    clock.advance(50);
    assert.equal(posts.length, base + 2, 'nothing more before the renderer replied to the last post');
    assert.equal(statusRenders, 2);
    replies[base + 1]();
    await settle();
    clock.advance(0);
    assert.equal(posts.length, base + 3);
    assert.equal(statusRenders, 3);
    assert.deepEqual((posts[base + 2] as { ops: unknown }).ops, [{ op: 'append', itemId: 'm:agent:m1', text: ' wor' }]);
    replies[base + 2]();
    await settle();
    clock.advance(40); // 106 ms after the first delta: its answer is late now
    more('ld');
    clock.advance(100);
    assert.equal(posts.length, base + 3, 'a late answer is waited for');
    assert.equal(statusRenders, 3);
    pump.answered(first.seq!);
    clock.advance(0);
    assert.equal(posts.length, base + 4);
    const fourth = posts[base + 3];
    assert.ok(fourth.type === 'delta' && typeof fourth.seq === 'number' && fourth.seq > first.seq!, 'and then the next delta asks again');
    pump.dispose();
    status.dispose();
  });

  it('asks the webview to answer once per askEveryMs under a steady stream, not per delta', async () => {
    const { clock, t, posts, replies, pump } = pacedPump();
    const base = posts.length;
    for (let i = 0; i < 50; i++) {
      t.apply(ev.chunk('m1', `w${i} `));
      clock.advance(20);
      replies.forEach((r) => r());
      await settle();
      // The webview answers an ask once two more posts followed it (about 40 ms later).
      for (const p of posts.slice(0, -2)) if (p.type === 'delta' && p.seq !== undefined) pump.answered(p.seq);
    }
    const deltas = posts.slice(base).filter((p) => p.type === 'delta');
    const asks = deltas.filter((p) => p.type === 'delta' && p.seq !== undefined);
    assert.ok(deltas.length >= 45, `every chunk posted (${deltas.length})`);
    assert.ok(asks.length >= 9 && asks.length <= 11, `one ask per 100 ms of a 1 s stream (${asks.length})`);
    pump.dispose();
  });

  it('a hidden webview is not waited for', () => {
    const { clock, pace, t, pump } = pacedPump();
    t.apply(ev.chunk('m1', 'a'));
    clock.advance(0);
    pump.pause();
    let renders = 0;
    pace.request(() => renders++);
    clock.advance(16);
    assert.equal(renders, 1);
    pump.dispose();
  });
});
