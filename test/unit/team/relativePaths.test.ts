// A file an agent names by a path relative to its session's folder (a worktree) is one file of its
// step: the tool call's `alpha.txt` and the client's write of `<worktree>/alpha.txt` are the same,
// live and after a reload (the session history replays the records into a fresh work index).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore } from '../../../src/app/history/historyStore';
import { SessionHistory } from '../../../src/app/history/sessionHistory';
import type { SessionEvent } from '../../../src/protocol/domain';
import { WorkStore } from '../../../src/state/attribution/workStore';
import { PlanStore } from '../../../src/state/planStore';
import { SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';

const A = 'claude';
const S = 's1';

function world(dir: string) {
  const history = new HistoryStore(dir, { maxSessions: 10, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: () => undefined });
  const store = new SessionStore();
  const plans = new PlanStore();
  const transcript = new Transcript();
  const work = new WorkStore({ cwd: (a, s) => store.session(a, s)?.cwd });
  const h = new SessionHistory({ history, store, plans, transcript, work, agentName: () => 'Claude', ignored: () => false, setReplayTime: () => undefined });
  return { history, store, plans, work, h };
}

describe('Team: a file named by a relative path is one file of its step', () => {
  let dir: string;
  beforeEach(() => (dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-relpaths-')))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('live and after a reload: one call, one file, the worktree path', async () => {
    const worktree = path.join(dir, 'repo.worktrees', 'claude-a');
    const abs = path.join(worktree, 'alpha.txt');
    const live = world(path.join(dir, 'history'));
    live.store.addStoredSession(A, S, { cwd: worktree });
    const feed = (e: SessionEvent, t: number): void => {
      live.plans.apply(A, e);
      live.work.apply(A, e, t);
      live.h.record(A, S, { t, e });
    };
    feed(
      {
        sessionId: S,
        kind: 'plan_update',
        plan: { type: 'items', planId: 'p', entries: [{ content: 'Create alpha.txt', status: 'in_progress', priority: 'medium' }] },
      },
      1,
    );
    feed(
      {
        sessionId: S,
        kind: 'tool_call',
        toolCallId: 'w1',
        fields: {
          title: 'Write alpha.txt',
          status: 'in_progress',
          locations: [{ path: 'alpha.txt' }],
          content: [{ type: 'diff', changes: [{ path: 'alpha.txt', operation: 'add' }], texts: [{ path: 'alpha.txt', oldText: null, newText: 'a\n' }] }],
        },
      } as SessionEvent,
      2,
    );
    live.work.recordWrite(A, S, abs, null, 'a\n', 3);
    live.h.record(A, S, { t: 3, write: { path: abs, before: null, after: 'a\n' } });
    feed({ sessionId: S, kind: 'tool_call', toolCallId: 'w1', fields: { status: 'completed' } }, 4);
    const step = live.work.stepAt(A, S, 'p', 0)!;
    assert.deepEqual([step.calls, step.files], [['w1'], [abs]], 'live');
    assert.deepEqual(
      live.work.stepChanges(A, S, step).map((c) => [c.path, c.all.length, c.last.written]),
      [[abs, 2, true]],
    );
    await live.history.flush();

    for (let reload = 0; reload < 2; reload++) {
      const again = world(path.join(dir, 'history'));
      again.h.restore();
      await again.h.whenRestored();
      const s = again.work.stepAt(A, S, 'p', 0)!;
      assert.deepEqual([s.calls, s.files], [['w1'], [abs]], `reload ${reload + 1}`);
    }
  });

  it('keeps absolute paths, URIs and the paths of a session without a folder as they are named', () => {
    const store = new SessionStore();
    const work = new WorkStore({ cwd: (a, s) => store.session(a, s)?.cwd });
    const call = (sessionId: string, id: string, p: string): SessionEvent =>
      ({
        sessionId,
        kind: 'tool_call',
        toolCallId: id,
        fields: { title: id, status: 'in_progress', locations: [{ path: p }], content: [{ type: 'diff', changes: [{ path: p, operation: 'modify' }] }] },
      }) as SessionEvent;
    store.addStoredSession(A, 'with', { cwd: '/wt' });
    work.apply(A, call('with', 'c1', '/elsewhere/x.txt'), 1);
    work.apply(A, call('with', 'c2', 'C:\\w\\y.txt'), 2);
    work.apply(A, call('with', 'c3', 'sub/../z.txt'), 3);
    work.apply(A, call('without', 'c4', 'z.txt'), 4);
    assert.deepEqual(work.unplanned(A, 'with')!.files, ['/elsewhere/x.txt', 'C:\\w\\y.txt', '/wt/z.txt']);
    assert.deepEqual(work.unplanned(A, 'without')!.files, ['z.txt']);
  });
});
