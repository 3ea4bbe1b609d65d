// Session management on the wire (v2, unstable: `session/fork`, `session/archive` / `unarchive`,
// `session/set_title`, `session/status`, and `session/list`'s `archived`): the capabilities read
// from `initialize`, each request schema-valid against the later draft that defines it (ajv, the
// harness's checker), its answer decoded (the stored title, the status; an unknown status kept);
// and gating: nothing is sent to an agent that did not advertise a method, nor on v1.
import * as assert from 'node:assert/strict';
import type { AcpConnection } from '../../../src/protocol/api';
import { connect, memoryStreamPair } from '../../../src/protocol/connect';
import { SchemaSet, checkSent } from '../../harness/lib/outbound-schemas.mjs';
import { schemasDir } from './outbound';
import { SentLines } from './transportHarness';

type Msg = Record<string, unknown>;

async function open(version: 1 | 2, session: Msg) {
  const pair = memoryStreamPair();
  const fromClient = new SentLines(pair.agent.readable);
  const send = (m: Msg): void => void pair.agent.writable.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  const sent: Msg[] = [];
  const connecting = connect(pair.client, {
    protocol: version,
    clientInfo: { name: 'acp-plans-tests', version: '0.0.1' },
    logger: { log: () => undefined, wire: (dir, m) => void (dir === 'send' && sent.push(m as Msg)) },
    handlers: { onEvent: () => undefined, requestPermission: () => Promise.resolve({ outcome: 'cancelled' }) },
  });
  const init = await fromClient.next();
  send({
    id: init.id as number,
    result:
      version === 1
        ? { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { list: {}, fork: {} } }, authMethods: [] }
        : { protocolVersion: 2, info: { name: 'memory-agent', version: '1.0.0' }, capabilities: { session } },
  });
  return { conn: await connecting, fromClient, send, sent };
}

const ALL = { fork: {}, archive: {}, title: {}, status: {} };

describe('session management (protocol)', () => {
  let conn: AcpConnection | undefined;
  afterEach(() => conn?.dispose());
  const schemas = new SchemaSet(schemasDir());
  const valid = (m: Msg): void => assert.deepEqual(checkSent(schemas, m, 2, undefined, 'any'), [], JSON.stringify(m));

  it('v2: reads the capabilities; fork, archive, unarchive, set_title, status and list are schema-valid and decoded', async () => {
    const a = await open(2, ALL);
    conn = a.conn;
    assert.deepEqual([conn.capabilities.fork, conn.capabilities.archive, conn.capabilities.title, conn.capabilities.status], [true, true, true, true]);

    const forking = conn.forkSession({ sessionId: 's1', cwd: '/work', additionalDirectories: [] });
    const fork = await a.fromClient.next();
    assert.equal(fork.method, 'session/fork');
    assert.deepEqual(fork.params, { sessionId: 's1', cwd: '/work' });
    a.send({ id: fork.id as number, result: { sessionId: 's2', configOptions: [] } });
    assert.deepEqual(await forking, { sessionId: 's2', configOptions: [] });

    for (const archived of [true, false]) {
      const archiving = conn.setSessionArchived('s1', archived);
      const req = await a.fromClient.next();
      assert.equal(req.method, archived ? 'session/archive' : 'session/unarchive');
      assert.deepEqual(req.params, { sessionId: 's1' });
      a.send({ id: req.id as number, result: {} });
      await archiving;
    }

    const titling = conn.setSessionTitle('s1', 'Release notes');
    const title = await a.fromClient.next();
    assert.deepEqual([title.method, title.params], ['session/set_title', { sessionId: 's1', title: 'Release notes' }]);
    a.send({ id: title.id as number, result: { title: 'Release notes (normalized)' } });
    assert.equal(await titling, 'Release notes (normalized)', 'the title the agent stored');

    const asking = conn.sessionStatus('s1');
    const status = await a.fromClient.next();
    assert.deepEqual([status.method, status.params], ['session/status', { sessionId: 's1' }]);
    a.send({ id: status.id as number, result: { status: 'open', state: { state: 'running' } } });
    assert.deepEqual(await asking, { status: 'open', state: 'running' });
    const asking2 = conn.sessionStatus('s1');
    const status2 = await a.fromClient.next();
    a.send({ id: status2.id as number, result: { status: 'hibernating', state: 'not an object' } });
    assert.deepEqual(await asking2, { status: 'hibernating' }, 'an unknown status is kept; a malformed state is none');

    const listing = conn.listSessions({ cwd: '/work', archived: 'include' });
    const list = await a.fromClient.next();
    assert.deepEqual(list.params, { cwd: '/work', archived: 'include' });
    a.send({
      id: list.id as number,
      result: {
        sessions: [
          { sessionId: 's1', cwd: '/work', archived: true },
          { sessionId: 's2', cwd: '/work', archived: 'x' },
        ],
      },
    });
    assert.deepEqual((await listing).sessions, [
      { sessionId: 's1', cwd: '/work', archived: true },
      { sessionId: 's2', cwd: '/work' },
    ]);

    const ours = a.sent.filter((m) => typeof m.method === 'string' && m.method.startsWith('session/'));
    assert.equal(ours.length, 7);
    ours.forEach(valid);
  });

  it('v2: an agent that advertises none of them is sent none of them', async () => {
    const a = await open(2, {});
    conn = a.conn;
    assert.deepEqual([conn.capabilities.fork, conn.capabilities.archive, conn.capabilities.title, conn.capabilities.status], [false, false, false, false]);
    await assert.rejects(conn.forkSession({ sessionId: 's1', cwd: '/work' }), /fork/);
    await assert.rejects(conn.setSessionArchived('s1', true), /archive/);
    await assert.rejects(conn.setSessionTitle('s1', 'x'), /title/);
    await assert.rejects(conn.sessionStatus('s1'), /status/);
    assert.deepEqual(
      a.sent.filter((m) => m.method !== 'initialize'),
      [],
    );
  });

  it('v1: none of them, even where the v1 draft advertises a fork; list sends no archive filter', async () => {
    const a = await open(1, {});
    conn = a.conn;
    assert.equal(!!conn.capabilities.fork, false);
    await assert.rejects(conn.forkSession({ sessionId: 's1', cwd: '/work' }));
    await assert.rejects(conn.setSessionTitle('s1', 'x'));
    const listing = conn.listSessions({ cwd: '/work', archived: 'include' });
    const list = await a.fromClient.next();
    assert.deepEqual(list.params, { cwd: '/work' });
    a.send({ id: list.id as number, result: { sessions: [] } });
    await listing;
  });
});
