// AgentSupervisor in plain Node against real agent processes (the scripted agent over real pipes,
// the real AgentProcess and connect()); only time is fake (TestHost: `now()` and `schedule`).
// Covers: restart backoff, giving up after RESTART_LIMIT restarts in RESTART_WINDOW_MS, the
// messages people read, and the turn bookkeeping the queue relies on (busy, cancel, prompts on
// sessions that are not served). Resuming sessions after a restart: supervisorResume.test.ts; the
// fixture both use: support/supervisorFixture.ts.
import * as assert from 'node:assert/strict';
import { AGENT_NAME, TestHost, commandAgent, scriptedAgent } from './support/supervisorHost';
import { cwd, isTurnEnd, text, useSupervisor } from './support/supervisorFixture';

const SECOND = 1000;

describe('AgentSupervisor (real agent processes, fake time)', () => {
  let host: TestHost;
  beforeEach(() => {
    host = new TestHost();
  });
  const { supervise, crash, runRestart } = useSupervisor(() => host);

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
