// AgentSupervisor in plain Node against real agent processes (the scripted agent over real pipes,
// the real AgentProcess and connect()); only time is fake (TestHost: `now()` and `schedule`).
// Covers resuming sessions after a restart: v2 session/resume, v1 session/load with its replay
// muted, an agent that cannot resume, the prompt sent again before any other (v2, same
// idempotencyKey; never in v1), a start during the restart delay; and session/new refused with
// auth_required. Backoff, messages and turn bookkeeping: supervisor.test.ts; the fixture both
// use: support/supervisorFixture.ts.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LifecycleEvent } from '../../../src/agents/supervisor';
import { isAuthRequired } from '../../../src/protocol/connect';
import type { SessionEvent } from '../../../src/protocol/domain';
import { SessionStore } from '../../../src/state/sessionStore';
import { TestHost, commandAgent, scriptedAgent } from './support/supervisorHost';
import { cwd, isTurnEnd, text, useSupervisor } from './support/supervisorFixture';
import { resumeDetached, type ResumeHost } from '../../../src/agents/supervisorResume';
import type { AcpConnection } from '../../../src/protocol/api';
import { german } from '../l10n/german';

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
  beforeEach(() => {
    host = new TestHost();
  });
  const { supervise, crash, runRestart } = useSupervisor(() => host);

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
        [{ kind: 'session_detached', sessionId: a, ended: 'Scripted Agent cannot resume sessions', endedBy: 'cannot_resume' }],
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
});

describe('resumeDetached in the user language', () => {
  it("says an agent cannot resume in the host's words (L10n)", async () => {
    const events: SessionEvent[] = [];
    const detached = new Map([['s1', { sessionId: 's1' }]]);
    const host = {
      agentName: () => 'Agent A',
      sessions: { detached },
      isCurrent: () => true,
      lifecycle: () => undefined,
      emit: (e: SessionEvent) => void events.push(e),
      prompt: () => Promise.resolve(),
      words: () => german,
    } as unknown as ResumeHost;
    await resumeDetached({ capabilities: { resume: false, loadSession: false } } as unknown as AcpConnection, host);
    const notice = events.find((e) => e.kind === 'notice');
    assert.ok(notice?.kind === 'notice');
    assert.match(notice.title, /^Agent A kann Sitzungen nicht fortsetzen/);
  });
});
