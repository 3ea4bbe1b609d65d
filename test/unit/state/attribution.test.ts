import assert from 'node:assert/strict';
import type { PlanEntry, SessionEvent, ToolCallFields } from '../../../src/protocol/domain';
import { DROPPED, PLAN_ENTRY_META_KEY, PlanTrack, WHOLE_PLAN, WorkStore, type WorkChange } from '../../../src/state/attribution/workStore';

const A = 'agent';
const S = 'sess';

function e(content: string, status: string): PlanEntry {
  return { content, status, priority: 'medium' };
}
function plan(planId: string, ...entries: PlanEntry[]): SessionEvent {
  return { sessionId: S, kind: 'plan_update', plan: { type: 'items', planId, entries } };
}
function call(toolCallId: string, fields: ToolCallFields = {}): SessionEvent {
  return { sessionId: S, kind: 'tool_call', toolCallId, fields: { title: toolCallId, status: 'in_progress', ...fields } };
}

function setup(): { w: WorkStore; at: (ev: SessionEvent) => void; clock: { t: number }; changes: WorkChange[] } {
  const w = new WorkStore();
  const clock = { t: 1000 };
  const changes: WorkChange[] = [];
  w.onDidChange((c) => changes.push(c));
  return {
    w,
    at: (ev) => {
      w.apply(A, ev, clock.t);
      clock.t += 1000;
    },
    clock,
    changes,
  };
}

describe('WorkStore (attribution of work to plan steps)', () => {
  it('gives a call to the entry in progress when it happened, and the step its timeline', () => {
    const { w, at } = setup();
    at(plan('p', e('Read', 'in_progress'), e('Write', 'pending')));
    at(call('c1'));
    at(plan('p', e('Read', 'completed'), e('Write', 'in_progress')));
    at(call('c2'));
    at(plan('p', e('Read', 'completed'), e('Write', 'completed')));
    const read = w.stepAt(A, S, 'p', 0)!;
    const write = w.stepAt(A, S, 'p', 1)!;
    assert.deepEqual(read.calls, ['c1']);
    assert.deepEqual(write.calls, ['c2']);
    assert.deepEqual([read.start, read.finish, write.start, write.finish], [1000, 3000, 3000, 5000]);
  });

  it('calls before any plan and after the last step go to Unplanned', () => {
    const { w, at } = setup();
    at(call('before'));
    at(plan('p', e('One', 'in_progress')));
    at(call('during'));
    at(plan('p', e('One', 'completed')));
    at(call('after'));
    assert.deepEqual(w.unplanned(A, S)!.calls, ['before', 'after']);
    assert.deepEqual(w.stepAt(A, S, 'p', 0)!.calls, ['during']);
  });

  it('survives plan rewrites: entries matched by content, reworded in place, added, dropped, reordered', () => {
    const { w, at } = setup();
    at(plan('p', e('A', 'in_progress'), e('B', 'pending'), e('C', 'pending')));
    at(call('a1'));
    const a = w.stepAt(A, S, 'p', 0)!;
    // C moves to the front, B is reworded in place, a new D arrives; A still in progress.
    at(plan('p', e('C', 'pending'), e('A', 'in_progress'), e('B, better', 'pending'), e('D', 'pending')));
    assert.equal(w.stepAt(A, S, 'p', 1), a, 'A keeps its identity at its new index');
    at(call('a2'));
    assert.deepEqual(a.calls, ['a1', 'a2']);
    // B dropped.
    at(plan('p', e('C', 'pending'), e('A', 'completed'), e('D', 'in_progress')));
    at(call('d1'));
    assert.deepEqual(w.stepAt(A, S, 'p', 2)!.calls, ['d1']);
    const t = w.track(A, S, 'p')!;
    const drift = t.drift.map((d) => ({ added: d.added, dropped: d.dropped, moved: d.moved }));
    assert.deepEqual(drift, [
      { added: ['D'], dropped: [], moved: ['C'] },
      { added: [], dropped: ['B, better'], moved: [] },
    ]);
    assert.equal(t.all.find((s) => s.content === 'B, better')!.index, DROPPED);
  });

  it('a plan that shrinks and grows back keeps its steps: the same keys, their work, no new steps', () => {
    const { w, at } = setup();
    const entries = (n: number, active: number) => Array.from({ length: n }, (_, i) => e(`S${i}`, i === active ? 'in_progress' : 'pending'));
    at(plan('p', ...entries(5, 4)));
    at(call('c4'));
    const t = w.track(A, S, 'p')!;
    const keys = t.byIndex.map((s) => s.key);
    for (let k = 0; k < 50; k++) {
      at(plan('p', ...entries(2, 0)));
      assert.equal(t.all[4]!.index, DROPPED);
      at(plan('p', ...entries(5, 4)));
    }
    assert.deepEqual(
      t.byIndex.map((s) => s.key),
      keys,
    );
    assert.equal(t.all.length, 5, 'no step made again');
    assert.deepEqual(w.stepAt(A, S, 'p', 4)!.calls, ['c4']);
    assert.deepEqual(t.drift.at(-1)!.added, ['S2', 'S3', 'S4']);
    assert.deepEqual(t.drift.at(-2)!.dropped, ['S2', 'S3', 'S4']);
  });

  it('concurrent plans: a call goes to the entries in progress in every plan', () => {
    const { w, at } = setup();
    at(plan('impl', e('Code', 'in_progress')));
    at(plan('tests', e('Test', 'in_progress')));
    at(call('both'));
    at(plan('tests', e('Test', 'completed')));
    at(call('impl only'));
    assert.deepEqual(w.stepAt(A, S, 'impl', 0)!.calls, ['both', 'impl only']);
    assert.deepEqual(w.stepAt(A, S, 'tests', 0)!.calls, ['both']);
    assert.deepEqual(w.call(A, S, 'both')!.owners.length, 2);
  });

  it('an explicit _meta link wins over time, and a later link moves the call and its files', () => {
    const { w, at } = setup();
    at(plan('impl', e('Code', 'in_progress'), e('Docs', 'pending')));
    at(plan('tests', e('Test', 'in_progress')));
    at(call('x', { _meta: { [PLAN_ENTRY_META_KEY]: { planId: 'impl', index: 1 } } }));
    assert.deepEqual(w.stepAt(A, S, 'impl', 1)!.calls, ['x']);
    assert.deepEqual(w.stepAt(A, S, 'impl', 0)!.calls, []);
    at(
      call('y', { content: [{ type: 'diff', changes: [{ operation: 'modify', path: '/w/a.ts' }], texts: [{ path: '/w/a.ts', oldText: '1', newText: '2' }] }] }),
    );
    assert.deepEqual(w.stepAt(A, S, 'tests', 0)!.files, ['/w/a.ts']);
    at(call('y', { _meta: { [PLAN_ENTRY_META_KEY]: [{ planId: 'tests', index: 0 }] } }));
    assert.deepEqual(w.stepAt(A, S, 'impl', 0)!.calls, [], 'moved off Code');
    assert.deepEqual(w.stepAt(A, S, 'tests', 0)!.calls, ['y']);
    const changes = w.stepChanges(A, S, w.stepAt(A, S, 'tests', 0)!);
    assert.deepEqual(
      changes.map((c) => [c.path, c.first.before, c.last.after]),
      [['/w/a.ts', '1', '2']],
    );
    // A link to a plan the session does not have is ignored.
    at(call('z', { _meta: { [PLAN_ENTRY_META_KEY]: { planId: 'nope', index: 0 } } }));
    assert.ok(w.stepAt(A, S, 'impl', 0)!.calls.includes('z'));
    // No index: the plan as a whole.
    at(call('whole', { _meta: { [PLAN_ENTRY_META_KEY]: { planId: 'tests' } } }));
    assert.deepEqual(w.stepAt(A, S, 'tests', WHOLE_PLAN)!.calls, ['whole']);
  });

  it('markdown plans take work as a whole while no entry is in progress', () => {
    const { w, at } = setup();
    at({ sessionId: S, kind: 'plan_update', plan: { type: 'markdown', planId: 'md', content: '- [ ] a' } });
    at(call('m1'));
    at({ sessionId: S, kind: 'message_chunk', role: 'agent', messageId: 'msg1', content: { type: 'text', text: 'hi' } });
    const whole = w.stepAt(A, S, 'md', WHOLE_PLAN)!;
    assert.deepEqual(whole.calls, ['m1']);
    assert.deepEqual(whole.messages, ['msg1']);
    at({ sessionId: S, kind: 'plan_removed', planId: 'md' });
    at(call('m2'));
    assert.deepEqual(w.unplanned(A, S)!.calls, ['m2']);
  });

  it('a client write belongs to the call in progress on that path, else to the steps in progress', () => {
    const { w, at, clock, changes } = setup();
    at(plan('impl', e('Code', 'in_progress')));
    at(plan('tests', e('Test', 'in_progress')));
    at(call('edit', { locations: [{ path: '/w/a.ts' }], _meta: { [PLAN_ENTRY_META_KEY]: { planId: 'impl', index: 0 } } }));
    changes.length = 0;
    w.recordWrite(A, S, '/w/a.ts', 'old', 'new', clock.t);
    w.recordWrite(A, S, '/w/b.ts', null, 'both', clock.t);
    const code = w.stepAt(A, S, 'impl', 0)!;
    const test = w.stepAt(A, S, 'tests', 0)!;
    assert.deepEqual(code.files, ['/w/a.ts', '/w/b.ts']);
    assert.deepEqual(test.files, ['/w/b.ts']);
    assert.equal(w.stepChanges(A, S, code)[0]!.first.written, true);
    assert.deepEqual(
      changes.map((c) => c.steps),
      [
        [{ planId: 'impl', index: 0 }],
        [
          { planId: 'impl', index: 0 },
          { planId: 'tests', index: 0 },
        ],
      ],
    );
  });

  it('keeps per-step changes per file: first before, last after', () => {
    const { w, at, clock } = setup();
    at(plan('p', e('One', 'in_progress')));
    w.recordWrite(A, S, '/w/a', 'v0', 'v1', clock.t);
    w.recordWrite(A, S, '/w/a', 'v1', 'v2', clock.t);
    const [c] = w.stepChanges(A, S, w.stepAt(A, S, 'p', 0)!);
    assert.deepEqual([c!.first.before, c!.last.after, c!.all.length], ['v0', 'v2', 2]);
  });
});

describe('PlanTrack: the shortcuts give what the full matching gives', () => {
  /** A small random generator (fixed seed): plans of few distinct contents, so duplicates happen. */
  function rng(seed: number): () => number {
    let x = seed;
    return () => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return x / 2 ** 31;
    };
  }
  const STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'];

  it('statuses only, steps added or dropped at the end, rewordings, reorderings: the same steps, keys, times and drift', () => {
    const r = rng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    for (let run = 0; run < 200; run++) {
      const fast = new PlanTrack('p');
      const full = new PlanTrack('p');
      // The full matching alone: no shortcut is ever taken.
      Object.assign(full, { alignedPrefix: () => false });
      let entries: PlanEntry[] = [];
      for (let v = 0; v < 30; v++) {
        const op = r();
        if (op < 0.4) entries = entries.map((e) => ({ ...e, status: r() < 0.3 ? pick(STATUSES) : e.status }));
        else if (op < 0.6)
          entries = [
            ...entries,
            ...Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({ content: `step ${Math.floor(r() * 6)}`, priority: 'low', status: 'pending' })),
          ];
        else if (op < 0.7) entries = entries.slice(0, Math.floor(r() * entries.length));
        else if (op < 0.85) entries = entries.map((e) => (r() < 0.2 ? { ...e, content: `step ${Math.floor(r() * 6)}` } : e));
        else entries = [...entries].sort(() => r() - 0.5);
        const plan = { type: 'items' as const, planId: 'p', entries };
        const a = fast.update(plan, v).map((s) => [s.key, s.index, s.status]);
        const b = full.update(plan, v).map((s) => [s.key, s.index, s.status]);
        assert.deepEqual(a, b, `changed rows, run ${run}, revision ${v}`);
      }
      const view = (t: PlanTrack) => ({ steps: t.all.map((s) => [s.key, s.index, s.content, s.status, s.start, s.finish]), drift: t.drift });
      assert.deepEqual(view(fast), view(full), `run ${run}`);
    }
  });
});
