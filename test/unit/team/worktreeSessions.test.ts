// The worktree sessions' owner in plain Node: its records kept through the memento port (add,
// forget, a second owner over the same state), sessions restored from the history known again
// (once), and a worktree folder deleted outside VS Code: the folder port's event reads it again and
// the "gone" port is told once, however many events and reads follow.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorktreeSessions, type WorktreeHost, type WorktreeRecord } from '../../../src/app/team/worktreeSessions';
import type { StoredWorktree } from '../../../src/app/history/storedSessions';
import { SessionStore } from '../../../src/state/sessionStore';
import { addWorktree } from '../../../src/worktrees/repo';
import { makeRepo, mapMemento } from './support';

const KEY = 'acp.worktreeSessions';

function record(i: number, folder = `/nowhere/repo.worktrees/demo-${i}`): WorktreeRecord {
  return {
    repo: '/nowhere/repo',
    path: folder,
    branch: `acp/demo/${i}`,
    baseRef: 'main',
    baseCommit: 'a'.repeat(40),
    agentId: 'demo',
    sessionId: `s${i}`,
    team: i % 2 === 0,
  };
}

/** The folder port as the host gives it: who is watched, and a way to fire a folder's event. */
function folderHost() {
  const watched = new Map<string, () => void>();
  const gone: WorktreeRecord[] = [];
  const host: WorktreeHost = {
    watch: (folder, changed) => {
      watched.set(folder, changed);
      return { dispose: () => watched.delete(folder) };
    },
    gone: (r) => void gone.push(r),
  };
  return { host, watched, gone };
}

describe('Worktree sessions: records, restore and a folder gone (plain Node)', function () {
  this.timeout(30000);

  it('keeps its records in the memento: added, found, read back by a second owner, forgotten', async () => {
    const memento = mapMemento();
    const store = new SessionStore();
    const kept: [string, StoredWorktree | null][] = [];
    const { host, watched } = folderHost();
    const first = new WorktreeSessions(
      memento,
      store,
      () => undefined,
      (r, w) => void kept.push([r.sessionId, w]),
      host,
    );
    let changes = 0;
    first.onDidChange(() => changes++);
    await first.add(record(1));
    await first.add(record(2));
    assert.deepEqual(
      (memento.map.get(KEY) as WorktreeRecord[]).map((r) => r.sessionId),
      ['s1', 's2'],
    );
    assert.deepEqual(first.rootsFor('demo', 's1'), [record(1).path]);
    assert.deepEqual([...watched.keys()], [record(1).path, record(2).path]);
    assert.deepEqual(
      kept.map(([s, w]) => [s, w?.branch]),
      [
        ['s1', 'acp/demo/1'],
        ['s2', 'acp/demo/2'],
      ],
    );
    // A window reloaded: the same records, watched again.
    const second = new WorktreeSessions(memento, store, () => undefined, undefined, folderHost().host);
    assert.deepEqual(second.all(), first.all());
    assert.deepEqual(second.of('demo', 's2'), record(2));
    await first.forget(record(1).path);
    assert.deepEqual(
      (memento.map.get(KEY) as WorktreeRecord[]).map((r) => r.sessionId),
      ['s2'],
    );
    assert.deepEqual(kept.at(-1), ['s1', null], 'the history record no longer names the worktree');
    assert.equal(first.of('demo', 's1'), undefined);
    assert.ok(!watched.has(record(1).path), 'its folder is no longer watched');
    assert.ok(changes > 0);
    await Promise.all([first.refreshAll(), second.refreshAll()]);
    first.dispose();
    second.dispose();
  });

  it('knows again the sessions restored from the history, once, and saves them', async () => {
    const memento = mapMemento();
    const sessions = new WorktreeSessions(memento, new SessionStore(), () => undefined);
    const stored = (i: number) => {
      const r = record(i);
      return {
        agentId: r.agentId,
        sessionId: r.sessionId,
        worktree: { repo: r.repo, path: r.path, branch: r.branch, baseRef: r.baseRef, baseCommit: r.baseCommit, ...(r.team ? { team: true } : {}) },
      };
    };
    let changes = 0;
    sessions.onDidChange(() => changes++);
    sessions.restored([stored(1), stored(2)]);
    sessions.restored([stored(2)]);
    assert.deepEqual(sessions.all(), [record(1), record(2)]);
    assert.equal(changes >= 1, true);
    await sessions.refreshAll();
    assert.deepEqual(memento.map.get(KEY), [record(1), record(2)]);
    sessions.dispose();
  });

  it('a worktree folder deleted outside VS Code: read again on its folder event, the "gone" port told once', async () => {
    const { dir, repo } = makeRepo();
    try {
      const folder = path.join(dir, 'repo.worktrees', 'demo-a');
      const added = await addWorktree(repo, 'acp/demo/a', folder, 'HEAD');
      const { host, watched, gone } = folderHost();
      const sessions = new WorktreeSessions(mapMemento(), new SessionStore(), () => undefined, undefined, host);
      const r: WorktreeRecord = { repo, ...added, agentId: 'demo', sessionId: 's1', team: false };
      await sessions.add(r);
      assert.equal(sessions.state(folder)?.exists, true);
      fs.rmSync(folder, { recursive: true, force: true });
      // The folder's event alone reads it again.
      const noticed = new Promise<void>((resolve) => {
        const d = sessions.onDidChange(() => {
          if (sessions.state(folder)?.exists !== false) return;
          d.dispose();
          resolve();
        });
      });
      watched.get(folder)!();
      await noticed;
      assert.deepEqual(gone, [r]);
      // A deletion is several events (the folder, its files): each asks for a read, none says it again.
      watched.get(folder)!();
      watched.get(folder)!();
      await sessions.refresh(folder);
      await sessions.refreshAll();
      assert.equal(gone.length, 1, 'said once');
      assert.deepEqual(sessions.of('demo', 's1'), r, 'nothing forgotten');
      sessions.dispose();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
