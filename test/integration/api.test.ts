// The public API as another extension sees it: test/fixtures/api-consumer is loaded beside ours
// (a second extension development path), gets the API through getExtension().activate(), and
// reports the typed snapshots and change payloads it received, and every name it can reach.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { AcpPlansChange, AgentSnapshot, PlanSnapshot, SessionSnapshot, SessionKey } from '../../src/api/types';
import { nextPermission, prompt, startDemo, turnEnd } from './support/demo';

interface Report {
  apiVersion: number;
  agents: AgentSnapshot[];
  sessions: SessionSnapshot[];
  activeSession?: SessionKey;
  plans: PlanSnapshot[];
  events: AcpPlansChange[];
  frozen: boolean;
  reachableNames: string[];
}

describe('Public API, used by another extension', function () {
  this.timeout(60_000);

  it('sees typed snapshots and change payloads, and cannot reach permissions or agents', async () => {
    assert.ok(vscode.extensions.getExtension('acp-plans-tests.api-consumer'), 'the consumer extension is loaded');
    const started = await vscode.commands.executeCommand<{ apiVersion: number; keys: string[] }>('apiConsumer.start');
    assert.equal(started.apiVersion, 2);
    assert.deepEqual(started.keys, ['activeSession', 'agents', 'apiVersion', 'archivedPlans', 'onDidChange', 'plans', 'sessions']);

    const { ref, a, restore } = await startDemo('2');
    try {
      await prompt(ref, 'Plan the work');
      await a.internals.broker.respond((await nextPermission(a, ref)).id, 'allow_once');
      await turnEnd(a, ref, 30_000);
      const r = (await vscode.commands.executeCommand<Report>('apiConsumer.report'))!;
      assert.equal(r.frozen, true, 'the API object cannot be patched by its users');
      const demo = r.agents.find((x) => x.id === 'demo');
      assert.deepEqual(demo && { name: demo.name, status: demo.status, protocolVersion: demo.protocolVersion }, {
        name: 'Demo Agent',
        status: 'running',
        protocolVersion: 2,
      });
      const s = r.sessions.find((x) => x.sessionId === ref.sessionId);
      assert.ok(s, 'the session is listed');
      assert.equal(s.live, true);
      assert.equal(s.turnState, 'idle');
      assert.equal(typeof s.pendingPermissions, 'number', 'counts, not the requests themselves');
      assert.deepEqual(r.activeSession, ref);
      const plan = r.plans.find((p) => p.sessionId === ref.sessionId);
      assert.ok(plan, 'a plan of the session');
      assert.ok(plan.summary.total > 0 && typeof plan.summary.header === 'string');
      assert.ok(plan.content && typeof plan.content === 'object', 'the plan content as sent');

      // Change payloads name what changed and carry the state after it.
      const kinds = new Set(r.events.map((e) => e.kind));
      for (const k of ['agent', 'session', 'activeSession', 'plan']) assert.ok(kinds.has(k as AcpPlansChange['kind']), `a ${k} change was seen`);
      const agentRunning = r.events.find((e) => e.kind === 'agent' && e.agent?.status === 'running');
      assert.ok(agentRunning, 'an agent change carries the agent snapshot');
      const planAdded = r.events.find((e) => e.kind === 'plan' && e.change === 'added' && e.sessionId === ref.sessionId);
      assert.ok(planAdded && planAdded.kind === 'plan' && planAdded.plan?.planId === planAdded.planId, 'a plan change carries the plan snapshot');
      const sessionAdded = r.events.find((e) => e.kind === 'session' && e.change === 'added' && e.sessionId === ref.sessionId);
      assert.ok(sessionAdded, 'the new session was announced');

      // Nothing reachable from the API answers permissions, drives agents or exposes our internals.
      const forbidden = [
        'internals',
        'broker',
        'respond',
        'cancelSession',
        'addRule',
        'prompt',
        'newSession',
        'start',
        'stop',
        'connection',
        'transcript',
        'agentsManager',
        'supervisor',
      ];
      const reached = forbidden.filter((n) => r.reachableNames.includes(n));
      assert.deepEqual(reached, [], `reachable from the API: ${reached.join(', ')}`);
    } finally {
      await restore();
    }
  });
});
