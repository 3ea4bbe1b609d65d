// The Plans tree's refresh pacing (src/ui/tree/refreshPacer.ts) on a fake clock: a fire never lands
// inside the window of the previous one, never while the previous one waits for its fetch, at once
// otherwise, and the last fire carries the last change.
import * as assert from 'node:assert/strict';
import { RefreshPacer, VIEW_DEBOUNCE_MS, type FlushResult } from '../../../src/ui/tree/refreshPacer';
import type { Scheduler } from '../../../src/ui/coalesce';

/** A clock whose timers run in expiry order, then first in first out (as Node's). */
function fakeClock() {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; seq: number; fn: () => void }>();
  const scheduler: Scheduler = {
    setTimeout: (fn, ms) => {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(1, ms), seq: id, fn });
      return id;
    },
    clearTimeout: (h) => void timers.delete(h as number),
    now: () => now,
  };
  /** Advances to `t`, running every timer due by then. */
  const advance = (t: number): void => {
    for (;;) {
      const next = [...timers.entries()].sort((a, b) => a[1].at - b[1].at || a[1].seq - b[1].seq)[0];
      if (!next || next[1].at > t) break;
      timers.delete(next[0]);
      now = next[1].at;
      next[1].fn();
    }
    now = t;
  };
  return {
    scheduler,
    advance,
    get now() {
      return now;
    },
  };
}

function setup(result: FlushResult = 'fetch') {
  const clock = fakeClock();
  const fires: { at: number; keys: number[] }[] = [];
  const pacer = new RefreshPacer<number>(
    (keys) => {
      fires.push({ at: clock.now, keys: [...keys] });
      return result;
    },
    { windowMs: VIEW_DEBOUNCE_MS, fetchWaitMs: 1000, scheduler: clock.scheduler },
  );
  return { clock, fires, pacer };
}

describe('RefreshPacer (Plans tree refreshes)', () => {
  it('fires the first change at once, then holds changes until the window has closed', () => {
    const { clock, fires, pacer } = setup();
    pacer.add(1);
    clock.advance(5);
    assert.deepEqual(fires, [{ at: 1, keys: [1] }]);
    pacer.fetched();
    pacer.add(2);
    pacer.add(3);
    clock.advance(150);
    assert.equal(fires.length, 1, 'nothing inside the window');
    clock.advance(201);
    assert.deepEqual(fires[1], { at: 201, keys: [2, 3] }, 'the held changes together, as the window closes');
  });

  it('never fires while the last fire waits for its fetch; fires as soon as it comes', () => {
    const { clock, fires, pacer } = setup();
    pacer.add(1);
    clock.advance(1);
    pacer.add(2);
    clock.advance(600);
    assert.equal(fires.length, 1, 'no fetch yet: held past the window');
    assert.ok(pacer.awaitingFetch);
    pacer.fetched();
    clock.advance(602);
    assert.deepEqual(fires[1], { at: 601, keys: [2] }, 'on the next turn');
  });

  it('stops waiting for a fetch that does not come', () => {
    const { clock, fires, pacer } = setup();
    pacer.add(1);
    clock.advance(1);
    pacer.add(2);
    clock.advance(1000);
    assert.equal(fires.length, 1);
    clock.advance(1002);
    assert.equal(fires.length, 2);
    assert.equal(fires[1].at, 1002);
  });

  it('does not wait for a fetch when the fired rows are not held by the view', () => {
    const { clock, fires, pacer } = setup('noFetch');
    pacer.add(1);
    clock.advance(1);
    pacer.add(2);
    clock.advance(250);
    assert.deepEqual(
      fires.map((f) => f.at),
      [1, 201],
    );
  });

  it('during a steady stream fires every window, and the last fire has the last change', () => {
    const { clock, fires, pacer } = setup();
    // 50 updates/s for 2 s; the view fetches 30 ms after each fire.
    for (let t = 0; t < 2000; t += 20) {
      clock.advance(t);
      pacer.add(t);
      const last = fires.at(-1);
      if (last && t - last.at >= 30) pacer.fetched();
    }
    for (let t = 2000; t < 3000; t += 10) {
      clock.advance(t);
      pacer.fetched();
    }
    const gaps = fires.slice(1).map((f, i) => f.at - fires[i].at);
    assert.ok(
      gaps.every((g) => g >= VIEW_DEBOUNCE_MS),
      `no fire inside the window: ${gaps.join(' ')}`,
    );
    assert.ok(Math.max(...gaps) <= VIEW_DEBOUNCE_MS + 21, `a fire as each window closes: ${gaps.join(' ')}`);
    assert.equal(fires.at(-1)!.keys.at(-1), 1980, 'the final state is fired');
    assert.equal(pacer.pending, false);
  });

  it('flushNow fires at once, window or not; whenIdle resolves once all is fired', async () => {
    const { clock, fires, pacer } = setup();
    pacer.add(1);
    clock.advance(1);
    pacer.add(2);
    let idle = false;
    const done = pacer.whenIdle().then(() => (idle = true));
    await Promise.resolve();
    assert.equal(idle, false);
    pacer.flushNow();
    await done;
    assert.equal(fires.length, 2);
    pacer.dispose();
    pacer.add(3);
    clock.advance(5000);
    assert.equal(fires.length, 2, 'nothing after dispose');
  });
});
