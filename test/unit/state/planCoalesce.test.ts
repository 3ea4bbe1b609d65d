import assert from 'node:assert/strict';
import { FrameCoalescer, type Scheduler } from '../../../src/ui/coalesce';

/** A manual clock: timers run only when the test advances time. */
class ManualScheduler implements Scheduler {
  t = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.timers = this.timers.filter((x) => x.id !== h);
  }
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = due.at;
      due.fn();
    }
    this.t = end;
  }
}

describe('FrameCoalescer', () => {
  it('flushes a synchronous burst once, with the set of keys', () => {
    const sch = new ManualScheduler();
    const flushed: string[][] = [];
    const c = new FrameCoalescer<string>((k) => flushed.push([...k]), 16, sch);
    for (let i = 0; i < 1000; i++) c.add(`k${i % 3}`);
    assert.deepEqual(flushed, []);
    sch.advance(0);
    assert.deepEqual(flushed, [['k0', 'k1', 'k2']]);
  });

  it('flushes at most once per frame', () => {
    const sch = new ManualScheduler();
    const times: number[] = [];
    const c = new FrameCoalescer<number>(() => times.push(sch.t), 16, sch);
    for (let ms = 0; ms < 1000; ms++) {
      c.add(ms);
      sch.advance(1);
    }
    sch.advance(100);
    for (let i = 1; i < times.length; i++) assert.ok(times[i]! - times[i - 1]! >= 16, `flushes ${times[i - 1]} and ${times[i]} closer than a frame`);
    assert.ok(times.length <= 1000 / 16 + 2, `${times.length} flushes`);
    assert.equal(c.flushes, times.length);
  });

  it('resolves whenIdle after the pending flush, and flushNow flushes at once', async () => {
    const sch = new ManualScheduler();
    const flushed: number[][] = [];
    const c = new FrameCoalescer<number>((k) => flushed.push([...k]), 16, sch);
    await c.whenIdle();
    c.add(1);
    let idle = false;
    const p = c.whenIdle().then(() => {
      idle = true;
    });
    await Promise.resolve();
    assert.equal(idle, false);
    c.flushNow();
    await p;
    assert.deepEqual(flushed, [[1]]);
    c.add(2);
    c.dispose();
    sch.advance(100);
    assert.deepEqual(flushed, [[1]], 'nothing after dispose');
  });
});
