// The fixture the AgentSupervisor tests share (supervisor.test.ts, supervisorResume.test.ts):
// useSupervisor() registers the hooks in the calling describe (after each test the supervisor under
// test is disposed and the host's schema check of what was sent must pass) and gives `supervise`
// (the supervisor under test), `crash` (SIGKILL its agent, wait until the exit is handled) and
// `runRestart` (run the scheduled restart as its timer would). With the small helpers both use.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import type { AgentDefinition } from '../../../../src/agents/agentConfig';
import { AgentSupervisor } from '../../../../src/agents/supervisor';
import type { SessionEvent } from '../../../../src/protocol/domain';
import { scriptedAgent, type TestHost } from './supervisorHost';

export const text = (t: string) => [{ type: 'text' as const, text: t }];
export const cwd = os.tmpdir();

export const isTurnEnd =
  (sessionId: string, stopReason: string) =>
  (e: SessionEvent): boolean =>
    e.sessionId === sessionId && e.kind === 'state' && e.state === 'idle' && e.stopReason === stopReason;

export interface SupervisorFixture {
  supervise(def?: AgentDefinition): AgentSupervisor;
  /** SIGKILLs the running agent and waits until the supervisor has handled the exit. */
  crash(s: AgentSupervisor): Promise<void>;
  /** Runs the newest scheduled restart, as its timer would, and waits until the agent runs again. */
  runRestart(): Promise<void>;
}

/** `hostOf` reads the test's current host (set in the caller's beforeEach; a test may replace it before `supervise`). */
export function useSupervisor(hostOf: () => TestHost): SupervisorFixture {
  let sup: AgentSupervisor | undefined;

  beforeEach(() => {
    sup = undefined;
  });
  afterEach(async () => {
    sup?.dispose();
    const violations = await hostOf().cleanup();
    if (violations.length) throw new Error(`sent messages that do not match the schema:\n${violations.join('\n')}`);
  });

  return {
    supervise(def = scriptedAgent('v2')): AgentSupervisor {
      sup = new AgentSupervisor(def, hostOf());
      return sup;
    },
    async crash(s: AgentSupervisor): Promise<void> {
      const host = hostOf();
      const from = host.mark();
      host.current.kill();
      await host.waitFor((x) => x.type === 'lifecycle' && x.e.kind === 'status' && (x.e.status === 'restarting' || x.e.status === 'crashed'), from);
      assert.ok(s.status === 'restarting' || s.status === 'crashed');
    },
    async runRestart(): Promise<void> {
      const host = hostOf();
      const s = host.scheduled[host.scheduled.length - 1];
      assert.ok(s && !s.disposed, 'a restart is scheduled');
      const from = host.mark();
      s.fn();
      await host.waitStatus('running', from);
    },
  };
}
