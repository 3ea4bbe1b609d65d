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

/** A live pump on a fresh transcript, at a pace on a manual clock; `posts` holds what it posted. */
function pacedPump() {
  const clock = manualClock();
  const pace = new RenderPace({ scheduler: clock });
  const t = new Transcript();
  t.sessionFor(S);
  const posts: ToWebview[] = [];
  const pump = new DeltaPump(t, (m) => posts.push(m), { pace });
  pump.setSession(S);
  pump.start();
  return { clock, pace, t, posts, pump };
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

  it('the status bar and the conversation update in one tick, and the next waits for the webview', () => {
    const { clock, pace, t, posts, pump } = pacedPump();
    posts.length = 0;
    let statusRenders = 0;
    const status = new FrameCoalescer<true>(() => statusRenders++, 16, clock, pace);
    t.apply(ev.chunk('m1', 'Hel'));
    status.add(true);
    clock.advance(0);
    assert.equal(posts.length, 1);
    assert.equal(statusRenders, 1);
    assert.equal(pace.ticks, 1, 'one tick for both');
    const first = posts[0];
    assert.ok(first.type === 'delta' && typeof first.seq === 'number');
    for (const c of ['lo', ' wor', 'ld']) t.apply(ev.chunk('m1', c));
    status.add(true);
    clock.advance(100);
    assert.equal(posts.length, 1, 'nothing more before the webview answers');
    assert.equal(statusRenders, 1);
    pump.answered(first.seq!);
    clock.advance(0);
    assert.equal(posts.length, 2);
    assert.equal(statusRenders, 2);
    const second = posts[1];
    assert.ok(second.type === 'delta');
    assert.deepEqual(second.ops, [{ op: 'append', itemId: 'm:agent:m1', text: 'lo world' }]);
    pump.dispose();
    status.dispose();
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
