// AgentSupervisor against a fake endpoint (support/fakeEndpoint.ts: an in-process v2 agent over
// memoryStreamPair, no process): the lifecycle holds whatever carries the agent. Covers the crash
// (the endpoint ends on its own) → backoff restart → sessions resumed and the unanswered prompt
// sent again; a graceful stop (no restart, no report); giving up after RESTART_LIMIT restarts in
// the window; an endpoint that never opens. Messages use the endpoint's own description.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import type { AgentDefinition } from '../../../src/agents/agentConfig';
import { AgentSupervisor, RESTART_LIMIT } from '../../../src/agents/supervisor';
import type { SessionEvent } from '../../../src/protocol/domain';
import { FakeEndpointHost } from './support/fakeEndpoint';

const NAME = 'Fake Agent';
const def: AgentDefinition = { id: 'agent:fake', name: NAME, command: 'not-run', args: [], env: {}, protocol: 'auto', builtIn: false };
const cwd = os.tmpdir();
const text = (t: string) => [{ type: 'text' as const, text: t }];
const isTurnEnd =
  (sessionId: string, stopReason: string) =>
  (e: SessionEvent): boolean =>
    e.sessionId === sessionId && e.kind === 'state' && e.state === 'idle' && e.stopReason === stopReason;

describe('AgentSupervisor over an agent endpoint (fake endpoint, fake time)', () => {
  let host: FakeEndpointHost;
  let sup: AgentSupervisor;

  beforeEach(() => {
    host = new FakeEndpointHost();
    sup = new AgentSupervisor(def, host);
  });
  afterEach(async () => {
    sup.dispose();
    const violations = await host.cleanup();
    if (violations.length) throw new Error(`sent messages that do not match the schema:\n${violations.join('\n')}`);
  });

  /** Ends the current endpoint on its own and waits until the supervisor has handled it. */
  async function drop(): Promise<void> {
    const from = host.mark();
    host.endpoint.drop();
    await host.waitFor((x) => x.type === 'lifecycle' && x.e.kind === 'status' && (x.e.status === 'restarting' || x.e.status === 'crashed'), from);
  }

  /** Runs the newest scheduled restart, as its timer would, and waits until the agent runs again. */
  async function runRestart(): Promise<void> {
    const s = host.scheduled[host.scheduled.length - 1];
    assert.ok(s && !s.disposed, 'a restart is scheduled');
    const from = host.mark();
    s.fn();
    await host.waitStatus('running', from);
  }

  it('the endpoint drops during a turn → the turn ends, a restart after 250 ms, the session resumed and the prompt sent again with its key', async () => {
    await sup.start();
    assert.equal(sup.status, 'running');
    assert.equal(sup.version, 2);
    const a = await sup.newSession(cwd);
    assert.equal(a, 'fake-1');
    host.endpoint.agent.hold = true;
    void sup.prompt(a, text('hold on'));
    const held = await host.endpoint.agent.waitFor('session/prompt');
    const key = (held.params as Record<string, unknown>).idempotencyKey;
    assert.ok(typeof key === 'string' && key.length > 0);
    assert.ok(sup.busy(a));

    const from = host.mark();
    await drop();
    assert.equal(sup.status, 'restarting');
    assert.equal(sup.lastError, `${NAME} lost its connection during a turn. (the fake agent went away)`);
    assert.deepEqual(host.notices(a, from), [`${NAME} lost its connection; the turn was interrupted.`]);
    assert.ok(host.events(from).some(isTurnEnd(a, 'agent_exited')));
    assert.deepEqual(host.reports(from), [{ message: `${sup.lastError} Restarting…`, severity: 'warning' }]);
    assert.ok(host.lifecycles(from).some((e) => e.kind === 'session_detached' && e.sessionId === a && e.ended === undefined));
    assert.equal(sup.willResume(a), true);
    assert.deepEqual(
      host.scheduled.map((s) => s.ms),
      [250],
    );
    assert.equal(host.endpoints.length, 1, 'nothing is opened before the scheduled restart runs');

    const back = host.mark();
    await runRestart();
    assert.equal(host.endpoints.length, 2);
    await host.waitEvent((e) => e.kind === 'notice' && e.sessionId === a && e.title === 'Session resumed after the agent restarted.', back);
    await host.waitEvent(isTurnEnd(a, 'end_turn'), back);
    const agent = host.endpoint.agent;
    assert.deepEqual(
      agent.got('session/resume').map((m) => (m.params as Record<string, unknown>).sessionId),
      [a],
    );
    assert.deepEqual(
      agent.got('session/prompt').map((m) => (m.params as Record<string, unknown>).idempotencyKey),
      [key],
      'the unanswered prompt, once, with the same key',
    );
    assert.ok(host.lifecycles(back).some((e) => e.kind === 'session_attached' && e.sessionId === a && e.cwd === cwd));
    assert.ok(sup.isAttached(a));
    assert.equal(sup.busy(a), false);
  });

  it('an endpoint that ends right after a burst: every line it wrote is handled before its end is', async () => {
    await sup.start();
    const sessionId = await sup.newSession(cwd);
    const N = 5000;
    // Enough that the reader hands part of it to later turns of the event loop (8 ms slices).
    for (let i = 0; i < N; i++)
      host.endpoint.agent.update(sessionId, {
        sessionUpdate: 'agent_message_chunk',
        messageId: 'm1',
        content: { type: 'text', text: `chunk ${i} ${'x'.repeat(200)}` },
      });
    await drop();
    const chunks = host.log.flatMap((x, at) => (x.type === 'event' && x.e.sessionId === sessionId && x.e.kind === 'message_chunk' ? [{ x, at }] : []));
    assert.equal(chunks.length, N, 'every chunk written before the end arrives');
    const ended = host.log.findIndex((x) => x.type === 'lifecycle' && x.e.kind === 'status' && x.e.status === 'restarting');
    assert.ok(chunks[N - 1]!.at < ended, 'the last chunk is handled before the end');
  });

  it('stop(): the endpoint is stopped gracefully; no report, no restart, the session detached', async () => {
    await sup.start();
    const a = await sup.newSession(cwd);
    const endpoint = host.endpoint;
    const from = host.mark();
    await sup.stop();
    assert.equal(sup.status, 'stopped');
    assert.equal(endpoint.endedBy, 'stop');
    assert.deepEqual(await endpoint.closed, { description: 'was stopped', detail: '' });
    assert.deepEqual(host.reports(from), []);
    assert.deepEqual(host.scheduled, []);
    assert.equal(sup.lastError, undefined);
    assert.ok(host.lifecycles(from).some((e) => e.kind === 'session_detached' && e.sessionId === a));
    assert.deepEqual(
      host.lifecycles(from).flatMap((e) => (e.kind === 'status' ? [e.status] : [])),
      ['stopping', 'stopped'],
    );
    assert.throws(() => sup.prompt(a, text('hello')), /is not running \(stopped\)/);
    assert.equal(host.endpoints.length, 1);
  });

  it(`gives up at the ${RESTART_LIMIT + 1}th drop within 3 minutes: crashed, one error report, nothing more scheduled`, async () => {
    await sup.start();
    for (let i = 0; i < RESTART_LIMIT; i++) {
      host.clock += 20_000;
      await drop();
      assert.equal(sup.status, 'restarting');
      await runRestart();
    }
    assert.deepEqual(
      host.scheduled.map((s) => s.ms),
      [250, 500, 1000, 2000],
    );
    host.clock += 20_000;
    const from = host.mark();
    await drop();
    assert.equal(sup.status, 'crashed');
    assert.equal(host.scheduled.length, RESTART_LIMIT, 'no further restart is scheduled');
    assert.equal(host.endpoints.length, RESTART_LIMIT + 1);
    const reports = host.reports(from);
    assert.equal(reports.length, 1);
    assert.equal(reports[0].severity, 'error');
    assert.equal(
      reports[0].message,
      `${NAME} lost its connection while idle. (the fake agent went away) It stopped 5 times in 3 minutes, so it is not restarted again. Show Log has its output; Restart tries again.`,
    );
    assert.ok(host.lifecycles(from).some((e) => e.kind === 'status' && e.status === 'crashed' && e.detail === sup.lastError));
  });

  it('an endpoint that never opens: start() rejects with its description (no "during initialize"), status failed', async () => {
    host.onOpen = (e) => e.drop({ description: 'could not connect (connection refused)', detail: '', failedToOpen: true });
    await assert.rejects(sup.start(), { message: `${NAME} could not connect (connection refused).` });
    assert.equal(sup.status, 'failed');
    assert.equal(sup.lastError, `${NAME} could not connect (connection refused).`);
    assert.deepEqual(host.scheduled, [], 'a failed start is not restarted');
  });
  it('initialize answered with a JSON-RPC error that echoes a secret: the failure says the error with the secret masked', async () => {
    const key = 'sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz';
    host.onOpen = (e) => (e.agent.initializeError = { code: -32000, message: `invalid x-api-key ${key} (Authorization: Bearer ${key})` });
    const failed = await sup.start().then(
      () => assert.fail('start() resolved'),
      (err: Error) => err.message,
    );
    assert.equal(sup.status, 'failed');
    for (const said of [failed, sup.lastError ?? '', ...host.lifecycles().map((e) => (e.kind === 'status' ? (e.detail ?? '') : ''))]) {
      assert.ok(!said.includes(key) && !said.includes('Zx9Qw8Er7Ty6'), `unmasked: ${said}`);
    }
    assert.match(failed, /invalid x-api-key \S*\*\*\*/);
  });

  it('a restart whose endpoint does not open (a remote server not back yet) is tried again within the budget; the session then resumes', async () => {
    await sup.start();
    const a = await sup.newSession(cwd);
    await drop();
    host.onOpen = (e) => e.drop({ description: 'could not connect to ws://127.0.0.1:9: the connection was refused', detail: '', failedToOpen: true });
    const from = host.mark();
    host.scheduled[0]!.fn();
    await host.waitFor((x) => x.type === 'lifecycle' && x.e.kind === 'status' && x.e.status === 'restarting', from);
    assert.equal(sup.status, 'restarting', 'not failed: tried again');
    assert.deepEqual(
      host.scheduled.map((x) => x.ms),
      [250, 500],
    );
    assert.deepEqual(
      host.reports(from).map((r) => r.severity),
      ['warning'],
    );
    assert.equal(sup.willResume(a), true);
    host.onOpen = undefined;
    await new Promise((r) => setImmediate(r)); // the failed start settles (its timer is ≥ 250 ms in production)
    const back = host.mark();
    await runRestart();
    await host.waitEvent((e) => e.kind === 'notice' && e.sessionId === a && e.title === 'Session resumed after the agent restarted.', back);
    assert.ok(sup.isAttached(a));
  });
});
