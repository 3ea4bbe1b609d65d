// The session events (src/app/sessionEvents.ts): one subscription for what happens to sessions.
// Listeners hear every event in firing order, a throwing listener stops neither the others nor the
// one who fires, a disposed subscription hears nothing more, and a turn waits for every
// participant (a checkpoint taken before the prompt goes out) — and no longer once it is disposed.
import * as assert from 'node:assert/strict';
import { SessionEvents, type AppliedEvent } from '../../../src/app/sessionEvents';

const applied = (n: number): AppliedEvent => ({ agentId: 'a', event: { kind: 'notice', sessionId: 's', severity: 'info', title: `n${n}` }, t: n });

describe('SessionEvents', () => {
  it('every listener hears every applied event, in order, even when another throws', () => {
    const errors: unknown[] = [];
    const ev = new SessionEvents((e) => errors.push(e));
    const first: number[] = [];
    const second: number[] = [];
    ev.onDidApply((e) => {
      first.push(e.t);
      if (e.t === 2) throw new Error('boom');
    });
    ev.onDidApply((e) => second.push(e.t));
    for (const n of [1, 2, 3]) ev.fireApplied(applied(n));
    assert.deepEqual(first, [1, 2, 3]);
    assert.deepEqual(second, [1, 2, 3]);
    assert.equal(errors.length, 1);
  });

  it('a disposed subscription hears nothing more; the others still do', () => {
    const ev = new SessionEvents(() => undefined);
    const heard: string[] = [];
    const sub = ev.onDidWrite((w) => heard.push(`x:${w.path}`));
    ev.onDidWrite((w) => heard.push(`y:${w.path}`));
    ev.fireWrite({ agentId: 'a', sessionId: 's', path: '/1', before: null, after: '', t: 0 });
    sub.dispose();
    ev.fireWrite({ agentId: 'a', sessionId: 's', path: '/2', before: null, after: '', t: 0 });
    assert.deepEqual(heard, ['x:/1', 'y:/1', 'y:/2']);
  });

  it('a turn waits for every participant, and for none that was disposed', async () => {
    const ev = new SessionEvents(() => undefined);
    const done: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const p1 = ev.onWillStartTurn(() => slow.then(() => void done.push('checkpoint')));
    ev.onWillStartTurn((ref) => void done.push(`sync ${ref.sessionId}`));
    let started = false;
    const turn = ev.willStartTurn({ agentId: 'a', sessionId: 's' }).then(() => (started = true));
    await Promise.resolve();
    assert.equal(started, false, 'the turn waits for the checkpoint');
    release();
    await turn;
    assert.deepEqual(done, ['sync s', 'checkpoint']);
    p1.dispose();
    await ev.willStartTurn({ agentId: 'a', sessionId: 't' });
    assert.deepEqual(done, ['sync s', 'checkpoint', 'sync t']);
  });

  it('after dispose nothing is heard and no turn waits', async () => {
    const ev = new SessionEvents(() => undefined);
    const heard: number[] = [];
    ev.onDidApply((e) => heard.push(e.t));
    ev.onWillStartTurn(() => new Promise<void>(() => undefined)); // never settles
    ev.dispose();
    ev.fireApplied(applied(1));
    assert.deepEqual(heard, []);
    await ev.willStartTurn({ agentId: 'a', sessionId: 's' });
  });
});
