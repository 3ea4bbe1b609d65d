// The worktree a session works in, on its history record: written to the index and read back, kept
// when the session is described again, cleared when the worktree is removed, a bad one dropped
// (the session kept), and handed to the worktrees' owner by a restore.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryStore, type StoredWorktree } from '../../../src/app/history/historyStore';
import { SessionHistory, type WorktreeSession } from '../../../src/app/history/sessionHistory';
import { PlanStore } from '../../../src/state/planStore';
import { SessionStore } from '../../../src/state/sessionStore';
import { Transcript } from '../../../src/state/transcript';

const W: StoredWorktree = {
  repo: '/src/repo',
  path: '/src/repo.worktrees/demo-fix-1',
  branch: 'acp/demo/fix-1',
  baseRef: 'main',
  baseCommit: 'a'.repeat(40),
  team: true,
};

function world(dir: string) {
  const history = new HistoryStore(dir, { maxSessions: 10, maxBytes: 1e9, maxPlanRevisions: 200, flushMs: 1, warn: () => undefined });
  const store = new SessionStore();
  const restored: WorktreeSession[][] = [];
  const h = new SessionHistory({
    history,
    store,
    plans: new PlanStore(),
    transcript: new Transcript(),
    agentName: () => 'Demo',
    ignored: () => false,
    setReplayTime: () => undefined,
    worktrees: { restored: (list) => restored.push([...list]) },
  });
  store.onDidChange((c) => {
    if (c.scope === 'session' && c.kind !== 'removed') h.describe(c);
  });
  return { history, store, h, restored };
}

describe('Session history: the worktree of a session', () => {
  it('is written to the index and read back after a reload, and a restore hands it to the worktrees’ owner', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-history-wt-'));
    const before = world(dir);
    before.store.addStoredSession('demo', 's1', { cwd: W.path, title: 'In a worktree' });
    before.store.addStoredSession('demo', 's2', { cwd: '/src/repo', title: 'Not in one' });
    before.h.setWorktree({ agentId: 'demo', sessionId: 's1' }, W); // no record yet: the entry is made now
    before.h.record('demo', 's2', { t: 1, e: { sessionId: 's2', kind: 'session_info', title: 'Not in one' } });
    // Described again (a title, a turn): the worktree stays.
    before.store.applyEvent('demo', { sessionId: 's1', kind: 'session_info', title: 'Renamed' });
    await before.history.flush();
    const onDisk = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as { sessions: { sessionId: string; worktree?: unknown }[] };
    assert.deepEqual(onDisk.sessions.find((s) => s.sessionId === 's1')?.worktree, W);
    assert.equal(onDisk.sessions.find((s) => s.sessionId === 's2')?.worktree, undefined);

    const after = world(dir);
    assert.equal(after.h.restore(), 2);
    assert.deepEqual(after.restored, [[{ agentId: 'demo', sessionId: 's1', worktree: W }]]);
    assert.equal(after.store.session('demo', 's1')?.cwd, W.path);
    assert.equal(after.store.session('demo', 's1')?.title, 'Renamed');
    await after.h.whenRestored();
    after.h.dispose();
    before.h.dispose();
  });

  it('is cleared when the worktree is removed; a worktree that is not one is dropped and its session kept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-history-wt-'));
    const w = world(dir);
    w.store.addStoredSession('demo', 's1', { cwd: W.path });
    w.h.setWorktree({ agentId: 'demo', sessionId: 's1' }, W);
    w.h.setWorktree({ agentId: 'demo', sessionId: 's1' }, null);
    w.h.setWorktree({ agentId: 'demo', sessionId: 'unknown' }, null); // nothing stored: nothing made
    assert.equal(w.history.session('demo', 's1')?.worktree, undefined);
    assert.equal(w.history.session('demo', 'unknown'), undefined);
    w.h.setWorktree({ agentId: 'demo', sessionId: 's1' }, W);
    await w.history.flush();
    w.h.dispose();
    const file = path.join(dir, 'index.json');
    const index = JSON.parse(fs.readFileSync(file, 'utf8')) as { sessions: Record<string, unknown>[] };
    index.sessions[0]!.worktree = { repo: '/src/repo', path: 42, branch: 'x' };
    fs.writeFileSync(file, JSON.stringify(index));
    const again = world(dir);
    assert.equal(again.h.restore(), 1);
    assert.deepEqual(again.restored, []);
    assert.equal(again.history.session('demo', 's1')?.worktree, undefined);
    assert.equal(again.store.session('demo', 's1')?.cwd, W.path);
    await again.h.whenRestored();
    again.h.dispose();
  });
});
