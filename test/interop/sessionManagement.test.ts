// Session management with the real codex-acp 2.6 (v2) against the fake model, through OUR client
// (connect()): after a turn, what the agent advertises (`session.fork` and `session.title`; archive
// and status it does not advertise on v2: it offers archiving only as `_session/archive` of its
// JetBrains AIR extension, which this client does not speak), a `session/fork` (a new session id),
// a `session/set_title` (the title the agent stored, and `session/list` shows
// it), and nothing sent for what it did not advertise. Every message we sent is schema-valid (the
// harness checks the recording).
import assert from 'node:assert/strict';
import { clientTurn } from './support/clientTurn';
import { codexScenario } from './support/scenarios';

type Msg = { id?: unknown; method?: string; params?: Record<string, unknown> };

describe('session management (codex-acp 2.6, v2): fork, rename, what is not advertised is not sent', function () {
  this.timeout(240_000);

  it('forks and renames (session/list shows the title); archive and status are not offered and not sent', async () => {
    const seen: Record<string, unknown> = {};
    const t = await clientTurn({
      agent: 'codex-acp-2.6',
      scenario: () => codexScenario(),
      record: 'client-codex-acp-2.6-session-management',
      afterTurn: async ({ conn, sessionId }) => {
        seen.caps = { fork: conn.capabilities.fork, title: conn.capabilities.title, archive: conn.capabilities.archive, status: conn.capabilities.status };
        const fork = await conn.forkSession({ sessionId, cwd: (await conn.listSessions()).sessions.find((s) => s.sessionId === sessionId)?.cwd ?? '' });
        seen.fork = fork.sessionId;
        seen.title = await conn.setSessionTitle(sessionId, '  Interop rename  ');
        const listed = await conn.listSessions();
        seen.listed = listed.sessions.map((s) => ({ id: s.sessionId, title: s.title ?? undefined, archived: s.archived }));
        await assert.rejects(conn.setSessionArchived(sessionId, true), /archive/);
        await assert.rejects(conn.sessionStatus(sessionId), /status/);
      },
    });
    console.log(`      codex-acp 2.6: ${JSON.stringify(seen)}`);
    assert.deepEqual(seen.caps, { fork: true, title: true, archive: false, status: false });
    assert.ok(typeof seen.fork === 'string' && seen.fork !== t.sessionId, 'a new session id');
    assert.equal(seen.title, 'Interop rename', 'the title codex stored (trimmed)');
    const listed = seen.listed as { id: string; title?: string }[];
    assert.equal(listed.find((s) => s.id === t.sessionId)?.title, 'Interop rename', 'session/list shows the new title');
    const sent = t.wire.filter((l) => l.dir === 'send').map((l) => (l.msg as Msg).method);
    assert.ok(sent.includes('session/fork') && sent.includes('session/set_title'));
    assert.ok(!sent.includes('session/archive') && !sent.includes('session/status') && !sent.includes('_session/archive'), 'nothing unadvertised');
  });
});
