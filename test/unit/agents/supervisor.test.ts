// AgentSupervisor in plain Node against real agent processes (the scripted agent over real pipes,
// the real AgentProcess and connect()); only time is fake (TestHost: `now()` and `schedule`).
// Covers: restart backoff, giving up after RESTART_LIMIT restarts in RESTART_WINDOW_MS, resuming
// sessions after a restart (v2 session/resume, v1 session/load with its replay muted, an agent
// that cannot resume, the prompt sent again before any other), a start during the restart delay,
// the messages people read, and the turn bookkeeping the queue relies on (busy, cancel, prompts
// on sessions that are not served).
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentSupervisor, type LifecycleEvent } from '../../../src/agents/supervisor';
import { isAuthRequired } from '../../../src/protocol/connect';
import type { SessionEvent } from '../../../src/protocol/domain';
import { SessionStore } from '../../../src/state/sessionStore';
import { AGENT_NAME, TestHost, commandAgent, scriptedAgent } from './support/supervisorHost';

const text = (t: string) => [{ type: 'text' as const, text: t }];
const cwd = os.tmpdir();
const SECOND = 1000;

const isTurnEnd =
  (sessionId: string, stopReason: string) =>
  (e: SessionEvent): boolean =>
    e.sessionId === sessionId && e.kind === 'state' && e.state === 'idle' && e.stopReason === stopReason;

/** A host that also feeds a SessionStore, as the extension does (events; sessions attached and detached). */
class StoreHost extends TestHost {
  readonly store = new SessionStore();
  override onEvent(agentId: string, e: SessionEvent): void {
    super.onEvent(agentId, e);
    this.store.applyEvent(agentId, e);
  }
  override lifecycle(agentId: string, e: LifecycleEvent): void {
    super.lifecycle(agentId, e);
    if (e.kind === 'session_attached') this.store.attachSession(agentId, e.sessionId, { cwd: e.cwd });
    else if (e.kind === 'session_detached') this.store.detachSession(agentId, e.sessionId);
  }
  override cleanup(): Promise<string[]> {
    this.store.dispose();
    return super.cleanup();
  }
}

describe('AgentSupervisor (real agent processes, fake time)', () => {
  let host: TestHost;
  let sup: AgentSupervisor | undefined;

  beforeEach(() => {
    host = new TestHost();
    sup = undefined;
  });
  afterEach(async () => {
    sup?.dispose();
    const violations = await host.cleanup();
    if (violations.length) throw new Error(`sent messages that do not match the schema:\n${violations.join('\n')}`);
  });

  function supervise(def = scriptedAgent('v2')): AgentSupervisor {
    sup = new AgentSupervisor(def, host);
    return sup;
  }

  /** SIGKILLs the running agent and waits until the supervisor has handled the exit. */
  async function crash(s: AgentSupervisor): Promise<void> {
    const from = host.mark();
    host.current.kill();
    await host.waitFor((x) => x.type === 'lifecycle' && x.e.kind === 'status' && (x.e.status === 'restarting' || x.e.status === 'crashed'), from);
    assert.ok(s.status === 'restarting' || s.status === 'crashed');
  }

  /** Runs the newest scheduled restart, as its timer would, and waits until the agent runs again. */
  async function runRestart(): Promise<void> {
    const s = host.scheduled[host.scheduled.length - 1];
    assert.ok(s && !s.disposed, 'a restart is scheduled');
    const from = host.mark();
    s.fn();
    await host.waitStatus('running', from);
  }

  describe('restart backoff and giving up', () => {
    it('restarts after each crash with delays of 250, 500, 1000 and 2000 ms', async () => {
      const s = supervise();
      await s.start();
      for (let i = 0; i < 4; i++) {
        host.clock += 10 * SECOND;
        await crash(s);
        assert.equal(s.status, 'restarting');
        assert.equal(host.scheduled.length, i + 1, 'one restart scheduled per crash');
        assert.equal(host.procs.length, i + 1, 'nothing is spawned before the scheduled restart runs');
        await runRestart();
        assert.equal(host.procs.length, i + 2);
        assert.equal(s.status, 'running');
      }
      assert.deepEqual(
        host.scheduled.map((x) => x.ms),
        [250, 500, 1000, 2000],
      );
      const reports = host.reports();
      assert.equal(reports.length, 4);
      for (const r of reports) {
        assert.equal(r.severity, 'warning');
        assert.match(r.message, /^Scripted Agent was killed \(SIGKILL\) while idle\..* Restarting…$/);
      }
    });

    it('gives up at the 5th crash within 3 minutes: crashed, one error report, nothing scheduled; Restart starts it again', async () => {
      const s = supervise();
      await s.start();
      for (let i = 0; i < 4; i++) {
        host.clock += 30 * SECOND;
        await crash(s);
        await runRestart();
      }
      host.clock += 30 * SECOND; // 5th crash, 2 minutes after the first
      const from = host.mark();
      await crash(s);
      assert.equal(s.status, 'crashed');
      assert.equal(host.scheduled.length, 4, 'no 5th restart is scheduled');
      const errors = host.reports(from).filter((r) => r.severity === 'error');
      assert.equal(errors.length, 1);
      assert.deepEqual(host.reports(from), errors, 'no "Restarting…" warning on giving up');
      assert.match(errors[0].message, /^Scripted Agent was killed \(SIGKILL\) while idle\./);
      assert.ok(errors[0].message.includes('It stopped 5 times in 3 minutes, so it is not restarted again.'), errors[0].message);
      assert.equal(s.lastError, errors[0].message.slice(0, s.lastError!.length));
      assert.ok(host.lifecycles(from).some((e) => e.kind === 'status' && e.status === 'crashed' && e.detail === s.lastError));
      assert.equal(host.procs.length, 5);

      // "Restart tries again": a manual restart starts afresh (the crash count is reset).
      await s.restart();
      assert.equal(s.status, 'running');
      assert.equal(host.procs.length, 6);
      await crash(s);
      assert.equal(s.status, 'restarting');
      assert.equal(host.scheduled[host.scheduled.length - 1].ms, 250);
    });

    it('keeps restarting crashes spread beyond the window (only crashes within 3 minutes count)', async () => {
      const s = supervise();
      await s.start();
      const at = [0, 50, 100, 150, 200, 230].map((t) => 1_000_000 + t * SECOND);
      for (const t of at) {
        host.clock = t;
        await crash(s);
        assert.equal(s.status, 'restarting', `crash at ${(t - 1_000_000) / SECOND} s`);
        await runRestart();
      }
      // At 200 s the crash at 0 s has left the window; at 230 s the one at 50 s has (exactly 180 s ago).
      assert.deepEqual(
        host.scheduled.map((x) => x.ms),
        [250, 500, 1000, 2000, 2000, 2000],
      );
      host.clock = 1_000_000 + 231 * SECOND; // 100, 150, 200, 230 and now: 5 within 3 minutes
      await crash(s);
      assert.equal(s.status, 'crashed');
      assert.equal(host.reports().filter((r) => r.severity === 'error').length, 1);
    });
  });

  describe('resuming sessions after a restart', () => {
    it('v2: resumes every attached session with session/resume (no replay) and says so', async () => {
      const s = supervise(scriptedAgent('v2'));
      const a = await s.newSession(cwd);
      const b = await s.newSession(cwd);
      assert.deepEqual([a, b], ['sess-1', 'sess-2']);
      const beforeCrash = host.mark();
      await crash(s);
      assert.deepEqual(
        host
          .lifecycles(beforeCrash)
          .filter((e) => e.kind === 'session_detached')
          .map((e) => e.kind === 'session_detached' && e.sessionId)
          .sort(),
        [a, b],
      );
      assert.equal(s.isAttached(a), false);
      const from = host.mark();
      await runRestart();
      await Promise.all(
        [a, b].map((id) => host.waitEvent((e) => e.kind === 'notice' && e.sessionId === id && e.title === 'Session resumed after the agent restarted.', from)),
      );
      const attached = host.lifecycles(from).flatMap((e) => (e.kind === 'session_attached' ? [e] : []));
      assert.deepEqual(attached.map((e) => e.sessionId).sort(), [a, b]);
      assert.ok(attached.every((e) => e.cwd === cwd));
      const resumes = host.sent(1, 'session/resume').map((m) => m.params as Record<string, unknown>);
      assert.deepEqual(resumes.map((p) => p.sessionId).sort(), [a, b]);
      assert.ok(
        resumes.every((p) => p.cwd === cwd && !('replayFrom' in p)),
        JSON.stringify(resumes),
      );
      assert.ok(s.isAttached(a) && s.isAttached(b));
      // The resumed session takes prompts again.
      const turn = host.mark();
      void s.prompt(a, text('hello'));
      await host.waitEvent(isTurnEnd(a, 'end_turn'), turn);
    });

    it('v2: a prompt the agent never answered is sent again after the restart, with the same idempotencyKey', async () => {
      const s = supervise(scriptedAgent('v2'));
      const a = await s.newSession(cwd);
      void s.prompt(a, text('no-answer'));
      await s.newSession(cwd); // a round trip: the prompt is on the wire
      const first = host.sent(0, 'session/prompt').map((m) => (m.params as Record<string, unknown>).idempotencyKey);
      assert.equal(first.length, 1);
      assert.ok(typeof first[0] === 'string' && first[0].length > 0, 'v2 prompts carry a key');
      await crash(s);
      const from = host.mark();
      await runRestart();
      await host.waitEvent((e) => e.kind === 'notice' && e.sessionId === a && /sent again \(same idempotency key/.test(e.title), from);
      const again = host.sent(1, 'session/prompt').map((m) => m.params as Record<string, unknown>);
      assert.deepEqual(
        again.map((p) => [p.sessionId, p.idempotencyKey]),
        [[a, first[0]]],
        'sent once more, with the same key',
      );
      // A new prompt gets a new key.
      void s.prompt(a, text('hello'));
      await s.newSession(cwd); // a round trip: the prompt has been written before its answer
      const keys = host.sent(1, 'session/prompt').map((m) => (m.params as Record<string, unknown>).idempotencyKey);
      assert.equal(keys.length, 2, 'the resent prompt and the new one');
      assert.ok(typeof keys[1] === 'string' && keys[1] !== first[0], 'a new prompt gets a new key');
    });

    it('v2: the prompt sent again runs first; one the user sends as the session comes back waits for that turn to end', async () => {
      const storeHost = new StoreHost();
      host = storeHost;
      const { store } = storeHost;
      const s = supervise(scriptedAgent('v2'));
      const a = await s.newSession(cwd);
      void s.prompt(a, text('no-answer'));
      store.turnStarted(s.id, a);
      await s.newSession(cwd); // a round trip: the prompt is on the wire
      const key = (host.sent(0, 'session/prompt')[0].params as Record<string, unknown>).idempotencyKey;
      await crash(s);
      assert.ok(s.willResume(a), 'after the crash the session is to be resumed: prompts for it wait (SessionActions queues them)');
      // As SessionActions does: the user's next prompt goes out once the session is live and idle, and starts its turn.
      let sentAt = -1;
      store.onDidChange((c) => {
        const x = store.session(s.id, a);
        if (c.scope !== 'session' || sentAt >= 0 || !x?.live || x.turnState !== 'idle' || s.status !== 'running') return;
        sentAt = host.mark();
        void s.prompt(a, text('after'));
        store.turnStarted(s.id, a);
      });
      s.redefine(scriptedAgent('v2', { answerAll: true })); // the restarted agent runs the prompt sent again
      const from = host.mark();
      await runRestart();
      const firstEnd = host.log.indexOf(await host.waitFor((x) => x.type === 'event' && isTurnEnd(a, 'end_turn')(x.e), from));
      await host.waitFor((x) => x.type === 'event' && isTurnEnd(a, 'end_turn')(x.e), firstEnd + 1);
      const prompts = host.sent(1, 'session/prompt').map((m) => m.params as { prompt: { text: string }[]; idempotencyKey: string });
      assert.deepEqual(
        prompts.map((p) => p.prompt[0].text),
        ['no-answer', 'after'],
        'the prompt sent again first, each once',
      );
      assert.equal(prompts[0].idempotencyKey, key);
      assert.ok(firstEnd < sentAt, `the user's prompt went out after the turn of the prompt sent again ended (turn end at ${firstEnd}, sent at ${sentAt})`);
      assert.ok(!s.willResume(a), 'resumed');
    });

    it('session/new refused with auth_required rejects with that error (the caller offers sign-in)', async () => {
      const marker = path.join(os.tmpdir(), `acp-signin-${process.pid}-${Date.now()}`, 'signed-in');
      const s = supervise(commandAgent(process.execPath, [path.join(__dirname, '../../../../dist/demo-agent.js'), `--signin=${marker}`, '--delay=0']));
      const err = await s.newSession(cwd).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(isAuthRequired(err), String(err));
      assert.equal(s.connection!.authMethods[0].type, 'terminal');
    });

    it('v1: a prompt in flight at a crash is not sent again (no key: it could run twice)', async () => {
      const s = supervise(scriptedAgent('v1'));
      const a = await s.newSession(cwd);
      void s.prompt(a, text('no-answer'));
      await s.newSession(cwd);
      assert.ok(!('idempotencyKey' in (host.sent(0, 'session/prompt')[0].params as Record<string, unknown>)), 'v1 has no idempotencyKey');
      await crash(s);
      const from = host.mark();
      await runRestart();
      await host.waitEvent((e) => e.kind === 'notice' && e.sessionId === a && e.title === 'Session resumed after the agent restarted.', from);
      assert.equal(host.sent(1, 'session/prompt').length, 0);
    });

    it('v1: loads each session with session/load; its replayed messages are muted, the rest passes', async () => {
      const s = supervise(scriptedAgent('v1'));
      const a = await s.newSession(cwd);
      await crash(s);
      const from = host.mark();
      await runRestart();
      await host.waitEvent((e) => e.kind === 'notice' && e.sessionId === a && e.title === 'Session resumed after the agent restarted.', from);
      assert.deepEqual(
        host.sent(1, 'session/load').map((m) => (m.params as { sessionId: string }).sessionId),
        [a],
      );
      assert.deepEqual(host.sent(1, 'session/resume'), []);
      const after = host.events(from);
      // The agent did replay (its plan comes through: an identical plan is no new version) …
      assert.ok(
        after.some((e) => e.kind === 'plan_update' && e.sessionId === a),
        'the replayed plan passes',
      );
      // … but the transcript already has the messages.
      assert.deepEqual(
        after.filter((e) => e.kind === 'message_chunk' || e.kind === 'message'),
        [],
      );
      assert.ok(host.lifecycles(from).some((e) => e.kind === 'session_attached' && e.sessionId === a));
      // Muting ends with the load: the next turn's messages are shown.
      const turn = host.mark();
      void s.prompt(a, text('hello'));
      await host.waitEvent(isTurnEnd(a, 'end_turn'), turn);
      assert.ok(host.events(turn).some((e) => e.kind === 'message_chunk' && e.role === 'agent' && e.content.type === 'text' && e.content.text === 'Hello'));
    });

    it('an agent that cannot resume leaves the session detached, with a notice; a prompt there says it ended', async () => {
      const s = supervise(scriptedAgent('v1', { noLoad: true }));
      const a = await s.newSession(cwd);
      await crash(s);
      const from = host.mark();
      await runRestart();
      const notice = await host.waitEvent((e) => e.kind === 'notice' && e.sessionId === a, from);
      assert.ok(notice.kind === 'notice');
      assert.equal(notice.severity, 'warning');
      assert.equal(notice.title, 'Scripted Agent cannot resume sessions; this conversation is kept read-only. Start a new session to continue.');
      assert.deepEqual(
        host.lifecycles(from).filter((e) => e.kind === 'session_attached'),
        [],
      );
      assert.deepEqual(
        host.lifecycles(from).filter((e) => e.kind === 'session_detached'),
        [{ kind: 'session_detached', sessionId: a, ended: 'Scripted Agent cannot resume sessions' }],
        'it will not come back: its queue goes (SessionActions)',
      );
      assert.deepEqual(host.sent(1, 'session/load'), []);
      assert.deepEqual(host.sent(1, 'session/resume'), []);
      assert.equal(s.isAttached(a), false);
      assert.deepEqual(s.sessionIds, []);
      assert.throws(() => s.prompt(a, text('hello')), { message: 'This session ended when the agent stopped and could not be resumed. Start a new session.' });
    });

    it('a start during the restart delay resumes the sessions; the stale scheduled restart then does nothing', async () => {
      const s = supervise(scriptedAgent('v2'));
      const a = await s.newSession(cwd);
      await crash(s);
      assert.equal(s.status, 'restarting');
      const from = host.mark();
      await s.start(); // e.g. a new prompt or "Start Agent" before the timer fires
      assert.equal(s.status, 'running');
      assert.ok(s.isAttached(a), 'resumed by the start');
      assert.deepEqual(
        host.sent(1, 'session/resume').map((m) => (m.params as { sessionId: string }).sessionId),
        [a],
      );
      assert.deepEqual(host.notices(a, from), ['Session resumed after the agent restarted.']);
      assert.ok(host.lifecycles(from).some((e) => e.kind === 'session_attached' && e.sessionId === a));
      assert.equal(host.procs.length, 2);

      const quiet = host.mark();
      const stale = host.scheduled[0];
      if (!stale.disposed) stale.fn(); // its timer would still fire unless the supervisor cancelled it
      await s.start();
      assert.equal(host.procs.length, 2, 'no second process');
      assert.equal(s.status, 'running');
      assert.ok(s.isAttached(a));
      assert.deepEqual(host.log.slice(quiet), [], 'nothing happens');
      const turn = host.mark();
      void s.prompt(a, text('hello'));
      await host.waitEvent(isTurnEnd(a, 'end_turn'), turn);
    });
  });

  describe('messages read as sentences and tell the truth', () => {
    it('a missing command: "<Name> could not start: the command "<cmd>" was not found …"', async () => {
      const s = supervise(commandAgent('acp-plans-test-no-such-command'));
      await assert.rejects(s.start(), (err: Error) => err.message === s.lastError);
      assert.equal(s.status, 'failed');
      assert.equal(
        s.lastError,
        'Scripted Agent could not start: the command "acp-plans-test-no-such-command" was not found (check the command in acp.agents; an absolute path avoids PATH differences).',
      );
      assert.ok(host.lifecycles().some((e) => e.kind === 'status' && e.status === 'failed' && e.detail === s.lastError));
    });

    it('an agent that exits before answering initialize: "<Name> exited with code 3 during initialize." with its last output', async () => {
      const s = supervise(commandAgent(process.execPath, ['-e', 'console.error("no API key set"); process.exit(3)']));
      await assert.rejects(s.start());
      assert.equal(s.status, 'failed');
      assert.equal(s.lastError, 'Scripted Agent exited with code 3 during initialize. Last output: no API key set');
    });

    it('v2: killed (SIGKILL) during a turn → "… during a turn.", the turn ends idle/agent_exited', async () => {
      const s = supervise(scriptedAgent('v2'));
      const a = await s.newSession(cwd);
      const turn = host.mark();
      void s.prompt(a, text('stall'));
      await host.waitEvent((e) => e.kind === 'plan_update' && e.sessionId === a, turn); // accepted, the turn runs
      await s.newSession(cwd); // a round trip: the acceptance has been handled
      assert.equal(s.busy(a), true, 'a v2 turn runs until idle with a stopReason, not until the prompt is accepted');
      const from = host.mark();
      await crash(s);
      assert.match(s.lastError!, /^Scripted Agent was killed \(SIGKILL\) during a turn\./);
      const after = host.events(from).filter((e) => e.sessionId === a);
      assert.deepEqual(
        after.map((e) => e.kind),
        ['notice', 'state'],
      );
      assert.ok(after[0].kind === 'notice' && after[0].severity === 'error');
      assert.equal(after[0].kind === 'notice' && after[0].title, 'Scripted Agent was killed (SIGKILL); the turn was interrupted.');
      assert.ok(isTurnEnd(a, 'agent_exited')(after[1]));
      assert.match(host.reports(from)[0].message, /^Scripted Agent was killed \(SIGKILL\) during a turn\..* Restarting…$/);
      assert.equal(s.busy(a), false);
    });

    it('v1: exits with code 137 during a turn → "… exited with code 137 during a turn."', async () => {
      const s = supervise(scriptedAgent('v1'));
      const a = await s.newSession(cwd);
      const from = host.mark();
      void s.prompt(a, text('crash'));
      await host.waitStatus('restarting', from);
      assert.match(s.lastError!, /^Scripted Agent exited with code 137 during a turn\./);
      assert.deepEqual(host.notices(a, from), ['Scripted Agent exited with code 137; the turn was interrupted.']);
      assert.ok(host.events(from).some(isTurnEnd(a, 'agent_exited')));
    });

    it('killed while no turn runs → "… while idle.", no turn is ended', async () => {
      const s = supervise(scriptedAgent('v2'));
      const a = await s.newSession(cwd);
      const turn = host.mark();
      void s.prompt(a, text('hello'));
      await host.waitEvent(isTurnEnd(a, 'end_turn'), turn);
      const from = host.mark();
      await crash(s);
      assert.match(s.lastError!, /^Scripted Agent was killed \(SIGKILL\) while idle\./);
      assert.deepEqual(
        host.events(from).filter((e) => e.kind === 'state' || e.kind === 'notice'),
        [],
      );
    });
  });

  describe('turn bookkeeping for the queue', () => {
    it('prompt() on a session that is not served says why: restarting (resumed soon) or not running', async () => {
      const s = supervise(scriptedAgent('v2'));
      const a = await s.newSession(cwd);
      await crash(s);
      assert.throws(() => s.prompt(a, text('hello')), {
        message: `${AGENT_NAME} is restarting; the session is resumed in a moment. Send the prompt again then.`,
      });
      await s.stop();
      assert.throws(() => s.prompt(a, text('hello')), { message: `${AGENT_NAME} is not running (stopped). Start it first.` });
    });

    it('busy() from prompt() until the turn ends (v2: the idle state, not the acceptance)', async () => {
      const s = supervise(scriptedAgent('v2'));
      const a = await s.newSession(cwd);
      assert.equal(s.busy(a), false);
      const turn = host.mark();
      void s.prompt(a, text('hello'));
      assert.equal(s.busy(a), true);
      await host.waitEvent(isTurnEnd(a, 'end_turn'), turn);
      assert.equal(s.busy(a), false);
    });

    it('cancel() during a running v2 turn sends session/cancel (after the prompt was accepted)', async () => {
      const s = supervise(scriptedAgent('v2'));
      const a = await s.newSession(cwd);
      const turn = host.mark();
      void s.prompt(a, text('stall'));
      await host.waitEvent((e) => e.kind === 'plan_update' && e.sessionId === a, turn);
      await s.newSession(cwd); // a round trip: the acceptance has been handled
      s.cancel(a);
      await s.newSession(cwd); // the notification is written before this request
      assert.deepEqual(
        host.recorders[0].sent.filter((m) => m.method === 'session/cancel').map((m) => m.params),
        [{ sessionId: a }],
      );
    });

    it('two overlapping prompts on one session: the first to end does not clear the other', async () => {
      const s = supervise(scriptedAgent('v1'));
      const a = await s.newSession(cwd);
      const turn = host.mark();
      void s.prompt(a, text('stall')); // never answered
      void s.prompt(a, text('hello')); // answered at once
      await host.waitEvent(isTurnEnd(a, 'end_turn'), turn);
      await s.newSession(cwd); // a round trip: the answer has been handled
      assert.equal(s.busy(a), true, 'the stalled prompt is still in flight');
      const from = host.mark();
      await crash(s);
      assert.match(s.lastError!, /during a turn\./);
      assert.ok(host.events(from).some(isTurnEnd(a, 'agent_exited')));
    });
  });
});
