// The session management service (src/app/sessionManagement) over a real SessionStore and an agent
// double: what a row's menu offers follows the agent's capabilities (none while it is stopped or
// without them); archive marks survive a new instance over the same memento (a reload); a fork
// the agent refuses leaves no session behind and says so as a typed reason; a rename applies the
// title the agent stored; a title is checked before anything is sent; the Resume pick's listing
// asks for archived sessions and their status only where offered.
import * as assert from 'node:assert/strict';
import type { AgentCapabilities, SessionEvent } from '../../../src/protocol/domain';
import { SessionStore } from '../../../src/state/sessionStore';
import { ArchiveMarks, ARCHIVE_MARKS_KEY, type MarksMemento } from '../../../src/app/sessionManagement/archiveMarks';
import { ManageError, SessionManagement, type ManagedAgent } from '../../../src/app/sessionManagement/sessionManagement';
import { listWithStatus } from '../../../src/app/sessionManagement/listing';

class MapMemento implements MarksMemento {
  readonly data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Promise<void> {
    this.data.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

function agentDouble(caps: Partial<AgentCapabilities>, fork: (forkOf: string) => Promise<string>) {
  const calls: string[] = [];
  const agent: ManagedAgent & { running: boolean } = {
    running: true,
    def: { name: 'Double' },
    get connection() {
      return this.running
        ? {
            capabilities: caps as AgentCapabilities,
            setSessionArchived: (id: string, a: boolean) => (calls.push(`${a ? 'archive' : 'unarchive'} ${id}`), Promise.resolve()),
            setSessionTitle: (id: string, t: string) => (calls.push(`title ${id} ${t}`), Promise.resolve(`${t}!`)),
          }
        : undefined;
    },
    newSession: (_cwd, extras) => (calls.push(`fork ${extras.forkOf}`), fork(extras.forkOf!)),
  };
  return { agent, calls };
}

function setup(caps: Partial<AgentCapabilities>, fork: (forkOf: string) => Promise<string> = () => Promise.resolve('forked')) {
  const store = new SessionStore();
  store.setAgent({ id: 'a', name: 'Double', status: 'running' });
  store.attachSession('a', 's1', { cwd: '/work', title: 'First' });
  const memento = new MapMemento();
  const marks = new ArchiveMarks(memento);
  const applied: SessionEvent[] = [];
  const closed: string[] = [];
  const { agent, calls } = agentDouble(caps, async (id) => {
    const sid = await fork(id);
    store.attachSession('a', sid, { cwd: '/work' }); // what the supervisor's attach does
    return sid;
  });
  const manage = new SessionManagement({
    agents: { get: (id) => (id === 'a' ? agent : undefined) },
    store,
    marks,
    apply: (_a, e) => applied.push(e),
    close: (ref) => (closed.push(ref.sessionId), Promise.resolve()),
  });
  return { store, memento, marks, manage, agent, calls, applied, closed };
}

describe('session management (service)', () => {
  it('offers on a row only what the running agent advertises', () => {
    const all = setup({ fork: true, archive: true, title: true });
    assert.deepEqual(all.manage.facets('a', 's1'), ['fork', 'archive', 'rename']);
    all.agent.running = false;
    assert.deepEqual(all.manage.facets('a', 's1'), [], 'nothing while the agent is stopped');
    assert.deepEqual(setup({}).manage.facets('a', 's1'), [], 'nothing without the capabilities');
    assert.deepEqual(setup({ title: true }).manage.facets('a', 's1'), ['rename']);
  });

  it('archives on the agent (closing the open session first), marks it, and the mark survives a reload', async () => {
    const t = setup({ archive: true });
    await t.manage.setArchived({ agentId: 'a', sessionId: 's1' }, true);
    assert.deepEqual(t.closed, ['s1']);
    assert.deepEqual(t.calls, ['archive s1']);
    assert.deepEqual(t.manage.facets('a', 's1'), ['unarchive']);
    assert.deepEqual(t.memento.get(ARCHIVE_MARKS_KEY), [['a', 's1']]);
    const reloaded = new ArchiveMarks(t.memento);
    assert.equal(reloaded.isArchived('a', 's1'), true, 'kept across a reload');
    await t.manage.setArchived({ agentId: 'a', sessionId: 's1' }, false);
    assert.equal(new ArchiveMarks(t.memento).isArchived('a', 's1'), false);
    assert.equal(new ArchiveMarks(new MapMemento()).isArchived('a', 's1'), false);
  });

  it('a fork the agent refuses leaves nothing behind and is a typed reason', async () => {
    const t = setup({ fork: true }, () => Promise.reject(new Error('thread is busy')));
    const before = t.store.sessions('a').map((s) => s.sessionId);
    await assert.rejects(t.manage.fork({ agentId: 'a', sessionId: 's1' }), (e: unknown) => {
      assert.ok(e instanceof ManageError);
      assert.deepEqual(e.reason, { code: 'agent_refused', agent: 'Double', what: 'fork', message: 'thread is busy' });
      return true;
    });
    assert.deepEqual(
      t.store.sessions('a').map((s) => s.sessionId),
      before,
    );
    assert.equal(t.store.activeSession?.sessionId, undefined);
  });

  it('a fork opens the new session and makes it active', async () => {
    const t = setup({ fork: true });
    assert.deepEqual(await t.manage.fork({ agentId: 'a', sessionId: 's1' }), { agentId: 'a', sessionId: 'forked' });
    assert.deepEqual(t.calls, ['fork s1']);
    assert.equal(t.store.activeSession?.sessionId, 'forked');
  });

  it('refuses what is not offered, without calling the agent', async () => {
    const t = setup({});
    await assert.rejects(t.manage.fork({ agentId: 'a', sessionId: 's1' }), (e: unknown) => e instanceof ManageError && e.reason.code === 'not_offered');
    await assert.rejects(
      t.manage.setArchived({ agentId: 'a', sessionId: 's1' }, true),
      (e: unknown) => e instanceof ManageError && e.reason.code === 'not_offered',
    );
    assert.deepEqual(t.calls, []);
  });

  it('renames with a checked title and applies the title the agent stored', async () => {
    const t = setup({ title: true });
    await assert.rejects(
      t.manage.rename({ agentId: 'a', sessionId: 's1' }, '   '),
      (e: unknown) => e instanceof ManageError && e.reason.code === 'title_empty',
    );
    await assert.rejects(
      t.manage.rename({ agentId: 'a', sessionId: 's1' }, 'x'.repeat(201)),
      (e: unknown) => e instanceof ManageError && e.reason.code === 'title_too_long',
    );
    assert.deepEqual(t.calls, []);
    assert.equal(await t.manage.rename({ agentId: 'a', sessionId: 's1' }, '  Notes  '), 'Notes!');
    assert.deepEqual(t.calls, ['title s1 Notes']);
    assert.deepEqual(t.applied, [{ sessionId: 's1', kind: 'session_info', title: 'Notes!' }]);
  });

  it('lists archived sessions too and their status only where offered', async () => {
    const asked: unknown[] = [];
    const conn = (caps: Partial<AgentCapabilities>) => ({
      capabilities: caps as AgentCapabilities,
      listSessions: (p?: unknown) => (
        asked.push(p),
        Promise.resolve({
          sessions: [
            { sessionId: 's1', cwd: '/w' },
            { sessionId: 's2', cwd: '/w' },
          ],
        })
      ),
      sessionStatus: (id: string) => (id === 's2' ? Promise.reject(new Error('gone')) : Promise.resolve({ status: 'open' })),
    });
    const plain = await listWithStatus(conn({}), { cwd: '/w' });
    assert.deepEqual(plain.sessions, [
      { sessionId: 's1', cwd: '/w' },
      { sessionId: 's2', cwd: '/w' },
    ]);
    const rich = await listWithStatus(conn({ archive: true, status: true }), { cwd: '/w' });
    assert.deepEqual(rich.sessions, [
      { sessionId: 's1', cwd: '/w', status: { status: 'open' } },
      { sessionId: 's2', cwd: '/w' },
    ]);
    assert.deepEqual(asked, [{ cwd: '/w' }, { cwd: '/w', archived: 'include' }]);
  });
});
