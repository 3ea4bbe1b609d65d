import assert from 'node:assert/strict';
import type { PlanContent, PlanEntry, SessionEvent } from '../../../src/protocol/domain';
import { PlanStore, type PlanChange } from '../../../src/state/planStore';

const A = 'agent-1';
const S = 'sess-1';

function entry(content: string, status: string, priority = 'medium'): PlanEntry {
  return { content, status, priority };
}
function items(planId: string, ...entries: PlanEntry[]): PlanContent {
  return { type: 'items', planId, entries };
}
function upd(plan: PlanContent, sessionId = S): SessionEvent {
  return { sessionId, kind: 'plan_update', plan };
}

function setup(opts: { maxRevisions?: number } = {}): { store: PlanStore; changes: PlanChange[]; clock: { t: number } } {
  const clock = { t: 1000 };
  const store = new PlanStore({ ...opts, now: () => clock.t });
  const changes: PlanChange[] = [];
  store.onDidChange((c) => changes.push(c));
  return { store, changes, clock };
}

describe('PlanStore', () => {
  it('replaces an items plan wholesale and bumps the version on each real change', () => {
    const { store, changes, clock } = setup();
    store.apply(A, upd(items('p1', entry('a', 'in_progress'), entry('b', 'pending'))));
    clock.t = 2000;
    store.apply(A, upd(items('p1', entry('a', 'completed'))));
    const p = store.get({ agentId: A, sessionId: S, planId: 'p1' })!;
    assert.equal(p.version, 2);
    assert.deepEqual(p.plan, items('p1', entry('a', 'completed')));
    assert.equal(p.summary.header, 'v2 — the only step complete');
    assert.equal(p.createdAt, 1000);
    assert.equal(p.updatedAt, 2000);
    assert.deepEqual(
      changes.map((c) => c.kind),
      ['added', 'updated'],
    );
    assert.deepEqual(changes[1], { kind: 'updated', agentId: A, sessionId: S, planId: 'p1', version: 2 });
  });

  it('ignores an identical re-send (no version bump, no revision, no event), even with another key order', () => {
    const { store, changes } = setup();
    store.apply(A, upd(items('p1', entry('a', 'pending'))));
    store.apply(A, upd(items('p1', entry('a', 'pending'))));
    store.apply(A, upd({ planId: 'p1', entries: [{ status: 'pending', priority: 'medium', content: 'a' }], type: 'items' }));
    const p = store.get({ agentId: A, sessionId: S, planId: 'p1' })!;
    assert.equal(p.version, 1);
    assert.equal(p.revisions.length, 1);
    assert.equal(changes.length, 1);
  });

  it('keeps every revision with its time, and drops the oldest beyond the cap', () => {
    const { store, clock } = setup({ maxRevisions: 3 });
    for (let i = 1; i <= 5; i++) {
      clock.t = i * 100;
      store.apply(A, upd(items('p1', entry(`step ${i}`, 'pending'))));
    }
    const p = store.get({ agentId: A, sessionId: S, planId: 'p1' })!;
    assert.equal(p.version, 5);
    assert.deepEqual(
      p.revisions.map((r) => [r.version, r.time]),
      [
        [3, 300],
        [4, 400],
        [5, 500],
      ],
    );
    assert.equal(p.droppedRevisions, 2);
    assert.equal(store.revision({ agentId: A, sessionId: S, planId: 'p1' }, 4)?.plan.type, 'items');
    assert.equal(store.revision({ agentId: A, sessionId: S, planId: 'p1' }, 1), undefined);
    store.setMaxRevisions(1);
    assert.deepEqual(
      store.get({ agentId: A, sessionId: S, planId: 'p1' })!.revisions.map((r) => r.version),
      [5],
    );
  });

  it('defaults to a cap of 200 revisions', () => {
    const { store } = setup();
    for (let i = 0; i < 205; i++) store.apply(A, upd(items('p1', entry(`s${i}`, 'pending'))));
    const p = store.get({ agentId: A, sessionId: S, planId: 'p1' })!;
    assert.equal(p.revisions.length, 200);
    assert.equal(p.revisions[0]!.version, 6);
    assert.equal(p.droppedRevisions, 5);
  });

  it('holds several planIds per session, and sessions and agents apart', () => {
    const { store } = setup();
    store.apply(A, upd(items('p1', entry('a', 'pending'))));
    store.apply(A, upd({ type: 'markdown', planId: 'p2', content: '- [ ] x' }));
    store.apply(A, upd(items('p1', entry('other session', 'pending')), 'sess-2'));
    store.apply('agent-2', upd(items('p1', entry('other agent', 'pending'))));
    assert.deepEqual(
      store.plans(A, S).map((p) => p.planId),
      ['p1', 'p2'],
    );
    assert.deepEqual(
      store.plans(A, 'sess-2').map((p) => p.planId),
      ['p1'],
    );
    assert.deepEqual(store.agentIds(), [A, 'agent-2']);
    assert.deepEqual(store.sessionIds(A), [S, 'sess-2']);
    assert.equal(store.allPlans().length, 4);
    assert.equal((store.get({ agentId: 'agent-2', sessionId: S, planId: 'p1' })!.plan as { entries: PlanEntry[] }).entries[0]!.content, 'other agent');
  });

  it('archives a removed plan with its revisions; the same planId can come back as a new plan', () => {
    const { store, changes, clock } = setup();
    store.apply(A, upd(items('p1', entry('a', 'pending'))));
    store.apply(A, upd(items('p1', entry('a', 'completed'))));
    clock.t = 5000;
    store.apply(A, { sessionId: S, kind: 'plan_removed', planId: 'p1' });
    assert.equal(store.get({ agentId: A, sessionId: S, planId: 'p1' }), undefined);
    const [arch] = store.archived(A, S);
    assert.ok(arch);
    assert.equal(arch.planId, 'p1');
    assert.equal(arch.version, 2);
    assert.equal(arch.revisions.length, 2);
    assert.equal(arch.archived?.removedAt, 5000);
    const removed = changes.at(-1)!;
    assert.equal(removed.kind, 'removed');
    assert.equal(store.get({ agentId: A, sessionId: S, planId: 'p1', archiveId: arch.archived!.archiveId }), arch);

    store.apply(A, upd(items('p1', entry('again', 'pending'))));
    assert.equal(store.get({ agentId: A, sessionId: S, planId: 'p1' })!.version, 1);
    assert.equal(store.archived(A, S).length, 1);
    assert.equal(store.archivedSnapshot()[0]!.planId, 'p1');
    assert.equal(store.snapshot()[0]!.plan.type, 'items');
  });

  it('ignores plan_removed for an unknown planId and other event kinds', () => {
    const { store, changes } = setup();
    store.apply(A, { sessionId: S, kind: 'plan_removed', planId: 'nope' });
    store.apply(A, { sessionId: S, kind: 'state', state: 'running' });
    assert.equal(changes.length, 0);
    assert.equal(store.archived(A, S).length, 0);
  });

  it('keeps unknown plan types with their raw payload', () => {
    const { store } = setup();
    const raw = { type: '_intent', planId: 'i1', goal: 'ship it', steps: [{ n: 1 }] };
    store.apply(A, upd({ type: 'unknown', planId: 'i1', rawType: '_intent', raw }));
    const p = store.get({ agentId: A, sessionId: S, planId: 'i1' })!;
    assert.deepEqual(p.plan, { type: 'unknown', planId: 'i1', rawType: '_intent', raw });
    assert.equal(p.summary.header, 'v1 — _intent plan');
    const snap = store.snapshot()[0]!;
    assert.equal(snap.rawType, '_intent');
    assert.deepEqual(JSON.parse(JSON.stringify(snap)), snap, 'snapshot is plain JSON');
  });

  it('derives progress of a markdown plan from its checkboxes', () => {
    const { store } = setup();
    store.apply(A, upd({ type: 'markdown', planId: 'm', content: '## Steps\n- [x] Refactor module\n- [ ] Add tests\n- [X] Docs' }));
    const p = store.get({ agentId: A, sessionId: S, planId: 'm' })!;
    assert.equal(p.summary.total, 3);
    assert.equal(p.summary.done, 2);
    assert.equal(p.summary.header, 'v1 — 2/3 done, 0 blocked');
    assert.equal(p.summary.current?.content, 'Add tests');
    assert.equal(p.view.kind === 'markdown' ? p.view.data.flat.length : undefined, 4);
  });

  it("records a file plan's loaded text without bumping its version, and forgets it when the URI changes", () => {
    const { store, changes } = setup();
    const ref = { agentId: A, sessionId: S, planId: 'f' };
    store.apply(A, upd({ type: 'file', planId: 'f', uri: 'file:///tmp/plan.md' }));
    assert.equal(store.get(ref)!.summary.header, 'v1 — file plan.md');
    store.setFileContent(ref, { text: '- [x] one\n- [ ] two' });
    let p = store.get(ref)!;
    assert.equal(p.version, 1);
    assert.equal(p.revisions.length, 1);
    assert.equal(p.summary.header, 'v1 — 1/2 done, 0 blocked');
    assert.equal(changes.length, 2);
    store.setFileContent(ref, { text: '- [x] one\n- [ ] two' });
    assert.equal(changes.length, 2, 'same text: no event');
    store.setFileContent(ref, { text: 'stale' }, 'file:///elsewhere.md');
    assert.equal(changes.length, 2, 'result for another URI ignored');
    store.apply(A, upd({ type: 'file', planId: 'f', uri: 'file:///tmp/other.md' }));
    p = store.get(ref)!;
    assert.equal(p.file, undefined);
    assert.equal(p.summary.header, 'v2 — file other.md');
    store.setFileContent(ref, { error: 'not found' });
    assert.equal(store.get(ref)!.summary.header, 'v2 — file other.md (not found)');
  });

  it('clears a session or an agent', () => {
    const { store, changes } = setup();
    store.apply(A, upd(items('p1', entry('a', 'pending'))));
    store.apply(A, upd(items('p1', entry('a', 'pending')), 'sess-2'));
    store.clearSession(A, S);
    assert.deepEqual(store.sessionIds(A), ['sess-2']);
    store.clearAgent(A);
    assert.deepEqual(store.agentIds(), []);
    assert.deepEqual(changes.slice(-2), [
      { kind: 'cleared', agentId: A, sessionId: S },
      { kind: 'cleared', agentId: A },
    ]);
  });

  it("does not share state with the caller's objects", () => {
    const { store } = setup();
    const e = entry('a', 'pending');
    store.apply(A, upd(items('p1', e)));
    e.status = 'completed';
    assert.equal(store.get({ agentId: A, sessionId: S, planId: 'p1' })!.summary.done, 0);
  });

  it('keeps applying after a listener throws', () => {
    const { store } = setup();
    store.onDidChange(() => {
      throw new Error('listener bug');
    });
    store.apply(A, upd(items('p1', entry('a', 'pending'))));
    store.apply(A, upd(items('p1', entry('a', 'completed'))));
    assert.equal(store.get({ agentId: A, sessionId: S, planId: 'p1' })!.version, 2);
  });

  describe('byte caps', () => {
    const KiB = 1024;
    const md = (planId: string, content: string): PlanContent => ({ type: 'markdown', planId, content });

    it('keeps the head of a markdown plan over maxPlanBytes and says what was left out', () => {
      const store = new PlanStore({ limits: { maxPlanBytes: 4 * KiB } });
      const line = '- [ ] step\n';
      store.apply(A, upd(md('m', line.repeat(1000))));
      const p = store.get({ agentId: A, sessionId: S, planId: 'm' })!;
      const content = (p.plan as { content: string }).content;
      assert.ok(content.length <= 4 * KiB && content.endsWith('\n'), 'cut at a line break');
      assert.equal(p.revisions[0]!.truncated, `the last ${Math.round((11000 - content.length) / 1024)} KiB of the text`);
      assert.equal(p.summary.total, content.length / line.length);
      assert.equal(store.snapshot()[0]!.truncated, p.revisions[0]!.truncated);
      // The same oversized plan again is an identical re-send.
      store.apply(A, upd(md('m', line.repeat(1000))));
      assert.equal(store.get({ agentId: A, sessionId: S, planId: 'm' })!.version, 1);
    });

    it('drops trailing entries of an items plan over the cap, and the raw fields of an unknown one', () => {
      const store = new PlanStore({ limits: { maxPlanBytes: 2 * KiB } });
      store.apply(A, upd(items('i', ...Array.from({ length: 100 }, (_, k) => entry(`step ${k} ${'x'.repeat(50)}`, 'pending')))));
      const p = store.get({ agentId: A, sessionId: S, planId: 'i' })!;
      const kept = (p.plan as { entries: PlanEntry[] }).entries.length;
      assert.ok(kept > 0 && kept < 100);
      assert.equal(p.revisions[0]!.truncated, `the last ${100 - kept} of 100 entries`);
      store.apply(A, upd({ type: 'unknown', planId: 'u', rawType: '_big', raw: { type: '_big', planId: 'u', blob: 'y'.repeat(10 * KiB) } }));
      assert.deepEqual(store.get({ agentId: A, sessionId: S, planId: 'u' })!.plan, {
        type: 'unknown',
        planId: 'u',
        rawType: '_big',
        raw: { type: '_big', planId: 'u' },
      });
    });

    it('keeps at most maxHistoryBytes of revisions per plan (the current one always) and counts the dropped', () => {
      const store = new PlanStore({ limits: { maxPlanBytes: 64 * KiB, maxHistoryBytes: 100 * KiB } });
      for (let v = 1; v <= 10; v++) store.apply(A, upd(md('m', `# v${v}\n` + 'z'.repeat(30 * KiB))));
      const p = store.get({ agentId: A, sessionId: S, planId: 'm' })!;
      assert.deepEqual(
        p.revisions.map((r) => r.version),
        [8, 9, 10],
      );
      assert.equal(p.droppedRevisions, 7);
      assert.equal(
        p.historyBytes,
        p.revisions.reduce((n, r) => n + r.bytes, 0),
      );
      assert.ok(p.historyBytes <= 100 * KiB);
      store.setLimits({ maxHistoryBytes: 1 });
      assert.deepEqual(
        store.get({ agentId: A, sessionId: S, planId: 'm' })!.revisions.map((r) => r.version),
        [10],
        'the current revision stays',
      );
    });

    it('bounds 10 MB markdown plans x 200 revisions to the history cap (was about 2 GB)', () => {
      const store = new PlanStore();
      const ten = 'w'.repeat(10 * 1024 * KiB);
      for (let v = 0; v < 12; v++) store.apply(A, upd(md('m', `${v}\n${ten}`)));
      const p = store.get({ agentId: A, sessionId: S, planId: 'm' })!;
      assert.ok(p.historyBytes <= store.limits.maxHistoryBytes, `${p.historyBytes}`);
      assert.ok(p.revisions.every((r) => r.bytes <= store.limits.maxPlanBytes + 64));
      assert.equal(p.droppedRevisions + p.revisions.length, 12);
      assert.ok(p.droppedRevisions >= 4, `${p.droppedRevisions} dropped`);
    });

    it('keeps at most maxArchived removed plans per session, oldest dropped first, and counts them', () => {
      const store = new PlanStore({ limits: { maxArchived: 3 } });
      for (let k = 0; k < 10; k++) {
        store.apply(A, upd(items(`p${k}`, entry('a', 'pending'))));
        store.apply(A, { sessionId: S, kind: 'plan_removed', planId: `p${k}` });
      }
      assert.deepEqual(
        store.archived(A, S).map((p) => p.planId),
        ['p7', 'p8', 'p9'],
      );
      assert.equal(store.droppedArchived(A, S), 7);
      assert.equal(store.droppedArchived(A, 'other'), 0);
    });

    it('keeps at most maxArchiveBytes of archived history per session', () => {
      const store = new PlanStore({ limits: { maxArchiveBytes: 50 * KiB } });
      for (let k = 0; k < 5; k++) {
        store.apply(A, upd(md(`m${k}`, 'q'.repeat(20 * KiB))));
        store.apply(A, { sessionId: S, kind: 'plan_removed', planId: `m${k}` });
      }
      assert.deepEqual(
        store.archived(A, S).map((p) => p.planId),
        ['m3', 'm4'],
      );
      assert.equal(store.droppedArchived(A, S), 3);
    });
  });
});
