// The replay player: instant, recorded speed (gaps from the recorded times, capped), step by
// step; pause, resume and step in any pace. Time is a hand-driven scheduler: no sleeps.
import * as assert from 'node:assert/strict';
import { ReplayDecoder } from '../../../src/recording/decoder';
import { headerLine, indexRecording, messageLine, type RecordedMessage } from '../../../src/recording/format';
import { DEFAULT_GAP_MS, MAX_GAP_MS, ReplayPlayer, type ReplayPace } from '../../../src/recording/player';
import { fixture, ManualScheduler } from './support';

function timed(gaps: number[]): Buffer {
  let t = Date.UTC(2025, 0, 1);
  let text = headerLine({ agent: 'x' });
  gaps.forEach((g, i) => {
    t += g;
    text += messageLine(
      'receive',
      {
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `m${i}` } } },
      },
      t,
    );
  });
  return Buffer.from(text);
}

function player(bytes: Buffer, pace: ReplayPace) {
  const sched = new ManualScheduler();
  const played: RecordedMessage[] = [];
  const p = new ReplayPlayer(bytes, indexRecording(bytes), new ReplayDecoder(1), (_o, m) => played.push(m), pace, sched.schedule);
  return { p, sched, played };
}

describe('replay player', () => {
  it('step: starts paused; each step plays exactly one recorded line', () => {
    const { p, sched, played } = player(fixture('codex-acp-0.16.0.ndjson'), 'step');
    const states: number[] = [];
    p.onDidChange((s) => states.push(s.position));
    p.start();
    assert.equal(sched.pending, undefined);
    assert.deepEqual(p.state, { position: 0, total: 23, paused: true, done: false, pace: 'step' });
    assert.equal(p.step(), true);
    assert.deepEqual(
      played.map((m) => m.line),
      [2],
    );
    p.step();
    assert.deepEqual(
      played.map((m) => m.line),
      [2, 3],
    );
    assert.equal(sched.pending, undefined, 'stepping schedules nothing');
    while (p.step());
    assert.equal(played.length, 23);
    assert.equal(p.state.done, true);
    assert.equal(p.step(), false);
    assert.deepEqual(states.slice(0, 3), [0, 1, 2]);
  });

  it('instant: plays everything through the scheduler (never in the caller), without waiting', () => {
    const { p, sched, played } = player(fixture('codex-acp-0.16.0.ndjson'), 'instant');
    p.start();
    assert.equal(played.length, 0);
    sched.drain();
    assert.equal(played.length, 23);
    assert.ok(sched.delays.every((d) => d === 0));
    assert.equal(p.state.done, true);
  });

  it('recorded speed: waits the recorded gaps, long ones shortened; no times → the default gap', () => {
    const { p, sched, played } = player(timed([0, 250, 60_000, 5]), 'recorded');
    p.start();
    sched.drain();
    assert.equal(played.length, 4);
    assert.deepEqual(sched.delays, [0, 250, MAX_GAP_MS, 5]);
    const untimed = player(fixture('sdk-1.9.0-example-agent.ndjson'), 'recorded');
    untimed.p.start();
    untimed.sched.drain();
    assert.ok(untimed.sched.delays.slice(1).every((d) => d === DEFAULT_GAP_MS));
  });

  it('pause stops the clock; step while playing pauses; resume goes on from there', () => {
    const { p, sched, played } = player(timed([0, 100, 100, 100, 100]), 'recorded');
    p.start();
    sched.run();
    assert.equal(played.length, 1);
    p.pause();
    assert.equal(sched.pending, undefined);
    assert.equal(p.state.paused, true);
    p.resume();
    sched.run();
    assert.equal(played.length, 2);
    p.step(); // pauses, plays one
    assert.deepEqual([played.length, p.state.paused, sched.pending], [3, true, undefined]);
    p.resume();
    sched.drain();
    assert.equal(played.length, 5);
    p.dispose();
    p.resume();
    assert.equal(sched.pending, undefined);
  });
});
