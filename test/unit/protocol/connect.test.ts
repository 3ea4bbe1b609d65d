// connect() against scripted agents as real child processes: the prompt turn on v1 and v2,
// permissions (answer, cancel, withdraw), v1 client services, unknown methods, closing.
// Every test also checks that everything the client sent matches the official schema.
import * as assert from 'node:assert/strict';
import type { CancelToken, ClientHandlers } from '../../../src/protocol/api';
import { ConnectionClosedError } from '../../../src/protocol/connect';
import type { PermissionOutcome, PermissionRequest, SessionEvent } from '../../../src/protocol/domain';
import { killAgents, start } from './outboundHarness';

const text = (t: string) => [{ type: 'text' as const, text: t }];

/** A permission handler that parks each request until the test answers it. */
function parkedPermissions() {
  const asked: { req: PermissionRequest; token: CancelToken; answer: (o: PermissionOutcome) => void }[] = [];
  let notify: (() => void) | undefined;
  const handler: ClientHandlers['requestPermission'] = (req, token) =>
    new Promise((resolve) => {
      asked.push({ req, token, answer: resolve });
      notify?.();
    });
  const next = (): Promise<(typeof asked)[number]> => {
    if (asked.length) return Promise.resolve(asked[0]);
    return new Promise((resolve) => {
      notify = () => resolve(asked[0]);
    });
  };
  return { asked, handler, next };
}

function tokenCancelled(token: CancelToken): Promise<void> {
  if (token.isCancellationRequested) return Promise.resolve();
  return new Promise((resolve) => {
    token.onCancellationRequested(() => resolve());
  });
}

function kinds(events: SessionEvent[]): string[] {
  return events.map((e) => (e.kind === 'state' ? `state:${e.state}` : e.kind));
}

describe('connect() (real agent processes)', () => {
  afterEach(killAgents);

  describe('v1', () => {
    it('runs a turn: running on send, updates in order, idle + stopReason from the response', async () => {
      const h = start('v1');
      const conn = await h.connecting;
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      assert.equal(sessionId, 'sess-1');
      const res = await conn.prompt(sessionId, text('hello'));
      assert.equal(res.stopReason, 'end_turn');
      const ks = kinds(h.log.events);
      const running = ks.indexOf('state:running');
      assert.ok(running >= 0 && running < ks.indexOf('plan_update'), ks.join(','));
      assert.equal(ks[ks.length - 1], 'state:idle');
      const last = h.log.events[h.log.events.length - 1];
      assert.ok(last.kind === 'state' && last.stopReason === 'end_turn');
      assert.ok(h.log.events.every((e) => e.sessionId === sessionId));
      h.recorder.assertAllValid(1);
      conn.dispose();
    });

    it('routes a permission request to the handler and sends the chosen outcome', async () => {
      const seen: PermissionRequest[] = [];
      const h = start('v1', {
        handlers: {
          requestPermission: (req) => {
            seen.push(req);
            return Promise.resolve({ outcome: 'selected', optionId: 'reject' });
          },
        },
      });
      const conn = await h.connecting;
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      await conn.prompt(sessionId, text('permission'));
      assert.equal(seen.length, 1);
      assert.equal(seen[0].title, 'Run tests');
      assert.deepEqual(
        seen[0].options.map((o) => o.optionId),
        ['allow', 'reject'],
      );
      assert.ok(
        h.log.events.some((e) => e.kind === 'tool_call' && e.toolCallId === 'call-1'),
        'the subject is applied as a tool call',
      );
      assert.ok(h.log.agentTexts().includes('permission: {"outcome":"selected","optionId":"reject"}'));
      h.recorder.assertAllValid(1);
      conn.dispose();
    });

    it('cancel(sessionId) sends session/cancel and answers pending permissions "cancelled"', async () => {
      const perms = parkedPermissions();
      const h = start('v1', { handlers: { requestPermission: perms.handler } });
      const conn = await h.connecting;
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      const turn = conn.prompt(sessionId, text('permission'));
      const asked = await perms.next();
      conn.cancel(sessionId);
      await tokenCancelled(asked.token); // the UI is told to close its prompt
      const res = await turn;
      assert.equal(res.stopReason, 'cancelled');
      assert.ok(h.log.agentTexts().includes('permission: {"outcome":"cancelled"}'));
      const last = h.log.events[h.log.events.length - 1];
      assert.ok(last.kind === 'state' && last.state === 'idle' && last.stopReason === 'cancelled');
      const cancelAt = h.recorder.sent.findIndex((m) => m.method === 'session/cancel');
      const answerAt = h.recorder.sent.findIndex((m) => m.method === undefined && (m.result as { outcome?: unknown } | undefined)?.outcome !== undefined);
      assert.ok(cancelAt >= 0 && cancelAt < answerAt, 'session/cancel goes out before the permission answer');
      asked.answer({ outcome: 'selected', optionId: 'allow' }); // too late: ignored
      h.recorder.assertAllValid(1);
      conn.dispose();
    });

    it('answers -32800 and cancels the UI token when the agent withdraws a permission request', async () => {
      const perms = parkedPermissions();
      const h = start('v1', { handlers: { requestPermission: perms.handler } });
      const conn = await h.connecting;
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      const turn = conn.prompt(sessionId, text('withdraw'));
      const asked = await perms.next();
      assert.equal(asked.token.isCancellationRequested, false);
      conn.cancel('trigger-withdraw'); // the scripted agent's cue to withdraw (another session id)
      await tokenCancelled(asked.token);
      await turn;
      assert.ok(h.log.agentTexts().includes('withdraw: error -32800'), h.log.agentTexts().join('|'));
      h.recorder.assertAllValid(1);
      conn.dispose();
    });

    it('answers -32800 without asking the user when the request is withdrawn before it is handled', async () => {
      const perms = parkedPermissions();
      const h = start('v1', { handlers: { requestPermission: perms.handler } });
      const conn = await h.connecting;
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      await conn.prompt(sessionId, text('early-withdraw'));
      assert.ok(h.log.agentTexts().includes('early-withdraw: error -32800'), h.log.agentTexts().join('|'));
      assert.equal(perms.asked.length, 0);
      h.recorder.assertAllValid(1);
      conn.dispose();
    });

    it('serves fs/* through the handlers and answers -32601 for a missing handler or elicitation', async () => {
      const reads: unknown[] = [];
      const h = start('v1', {
        agent: { ignoreCaps: true },
        handlers: {
          readTextFile: (p) => {
            reads.push(p);
            return Promise.resolve({ content: 'line 1\nline 2' });
          },
        },
      });
      const conn = await h.connecting;
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      await conn.prompt(sessionId, text('fs terminal elicit'));
      assert.deepEqual(reads, [{ sessionId, path: '/work/README.md', line: 1, limit: 2 }]);
      assert.deepEqual(
        h.log.agentTexts().filter((t) => /^(fs|terminal|elicit):/.test(t)),
        ['fs: {"content":"line 1\\nline 2"}', 'terminal: error -32601', 'elicit: error -32601'],
      );
      h.recorder.assertAllValid(1);
      conn.dispose();
    });

    it('keeps a malformed or unknown update as an unknown event with its raw payload', async () => {
      const h = start('v1');
      const conn = await h.connecting;
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      await conn.prompt(sessionId, text('malformed'));
      const unknown = h.log.events.filter((e) => e.kind === 'unknown');
      assert.deepEqual(
        unknown.map((e) => (e.kind === 'unknown' ? [e.updateType, e.raw] : [])),
        [
          ['plan', { sessionUpdate: 'plan', entries: 'not a list' }],
          ['_custom_thing', { sessionUpdate: '_custom_thing', value: 42 }],
        ],
      );
      conn.dispose();
    });
  });

  describe('v2', () => {
    it("resolves prompt on the acknowledgment; the turn ends with the agent's idle state", async () => {
      const h = start('v2', { agent: { promptMessageId: true } });
      const conn = await h.connecting;
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      const res = await conn.prompt(sessionId, text('permission'));
      assert.equal(res.messageId, 'user-msg-1');
      const idle = await h.log.waitFor((e) => e.kind === 'state' && e.state === 'idle');
      assert.ok(idle.kind === 'state' && idle.stopReason === 'end_turn');
      assert.deepEqual(
        kinds(h.log.events).filter((k) => k.startsWith('state:')),
        ['state:running', 'state:idle'],
        'no synthesized states on v2',
      );
      assert.ok(h.log.events.some((e) => e.kind === 'plan_update' && e.plan.planId === 'plan-1'));
      assert.ok(h.log.agentTexts().includes('permission: {"outcome":"selected","optionId":"allow"}'));
      h.recorder.assertAllValid(2);
      conn.dispose();
    });

    it('delivers a batch of updates in order, one event per entry', async () => {
      const h = start('v2', { agent: { batch: true } });
      const conn = await h.connecting;
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      await conn.prompt(sessionId, text('hi'));
      await h.log.waitFor((e) => e.kind === 'state' && e.state === 'idle');
      assert.deepEqual(kinds(h.log.events), ['message', 'state:running', 'message_chunk', 'plan_update', 'state:idle']);
      h.recorder.assertAllValid(2);
      conn.dispose();
    });

    it('answers -32601 to v1 client-service requests on a v2 connection', async () => {
      const h = start('v2', { handlers: { readTextFile: () => Promise.resolve({ content: 'x' }) } });
      const conn = await h.connecting;
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      await conn.prompt(sessionId, text('fs'));
      assert.equal(await h.log.waitForAgentText('fs:'), 'fs: error -32601');
      h.recorder.assertAllValid(2);
      conn.dispose();
    });
  });

  describe('closing', () => {
    it('rejects pending requests, cancels open permission prompts and fires onClose once when the agent dies', async () => {
      const perms = parkedPermissions();
      const h = start('v1', { handlers: { requestPermission: perms.handler } });
      const conn = await h.connecting;
      let closes = 0;
      const closed = new Promise<{ error?: Error }>((resolve) =>
        conn.onClose((e) => {
          closes++;
          resolve(e);
        }),
      );
      const { sessionId } = await conn.newSession({ cwd: '/tmp' });
      const turn = conn.prompt(sessionId, text('permission'));
      const asked = await perms.next();
      h.agent.kill();
      await assert.rejects(turn, ConnectionClosedError);
      await tokenCancelled(asked.token);
      await closed;
      const last = h.log.events[h.log.events.length - 1];
      assert.ok(last.kind === 'state' && last.state === 'idle', 'the v1 turn is closed for the UI');
      await assert.rejects(conn.newSession({ cwd: '/tmp' }), ConnectionClosedError);
      conn.dispose();
      const late = await new Promise<{ error?: Error }>((resolve) => conn.onClose(resolve));
      assert.deepEqual(late, {});
      assert.equal(closes, 1);
    });

    it('dispose() closes stdin (the agent exits) and fires onClose', async () => {
      const h = start('v2');
      const conn = await h.connecting;
      const closed = new Promise((resolve) => conn.onClose(resolve));
      conn.dispose();
      await closed;
      assert.equal(await h.agent.exited, 0);
    });
  });
});
