// The v2 adapter, requests, plans and turn states: initialize, the requests it sends (and that they
// pass our v2 outgoing schemas), plan updates and state_update (alpha.3 and the later draft where
// they differ). Messages, tool calls, terminals, permissions, config and the rest: v2AdapterUpdates.test.ts.
import * as assert from 'node:assert/strict';
import { createAdapter, ProtocolShapeError, type VersionAdapter } from '../../../src/protocol/adapter';
import type { SessionEvent } from '../../../src/protocol/domain';
import { V2_NOTIFICATION_PARAMS } from '../../../src/protocol/v2/outgoing';
import { decodeOne, decodeRejects, S, sends } from './support/v2Adapter';

describe('v2 adapter', () => {
  let a: VersionAdapter;
  const one = (u: Record<string, unknown>): SessionEvent => decodeOne(a, u);
  const rejects = (u: Record<string, unknown>) => decodeRejects(a, u);
  beforeEach(() => {
    a = createAdapter(2);
  });

  describe('initialize', () => {
    it('sends info and capabilities, no v1 fields', () => {
      const p = a.initializeParams({
        clientInfo: { name: 'acp-plans', title: 'ACP Plans', version: '0.1.0' },
        unstablePlans: true,
        fs: { readTextFile: true, writeTextFile: true },
        terminal: true,
      });
      assert.deepEqual(p, { protocolVersion: 2, info: { name: 'acp-plans', title: 'ACP Plans', version: '0.1.0' }, capabilities: { auth: { terminal: {} } } });
      sends(a.methods.initialize, p);
      const off = a.initializeParams({ clientInfo: { name: 'acp-plans', version: '0.1.0' }, unstablePlans: false, terminalAuth: false });
      assert.deepEqual(off.capabilities, {}, 'terminal auth is advertised only when offered');
    });

    it('requires info, maps marker capabilities and the three kinds of auth methods', () => {
      assert.throws(() => a.parseInitializeResult({ protocolVersion: 2, agentCapabilities: {} }), ProtocolShapeError, 'a v1-shaped body is not v2');
      const info = a.parseInitializeResult({
        protocolVersion: 2,
        info: { name: 'agent', version: '1' },
        capabilities: { session: { prompt: { image: {}, audio: null }, mcp: { http: {} }, delete: {} } },
        authMethods: [
          { type: 'agent', methodId: 'a', name: 'Agent' },
          { type: 'terminal', methodId: 't', name: 'Terminal', env: [{ name: 'X', value: '1' }] },
          { type: 'env_var', methodId: 'e', name: 'API key', vars: ['KEY'] },
          { type: 'env_var', name: 'no methodId' },
          { type: 'agent', id: 'v1-shaped' },
        ],
      });
      assert.deepEqual(info.agentInfo, { name: 'agent', version: '1' });
      assert.deepEqual(info.capabilities, {
        loadSession: true,
        resume: true,
        list: true,
        close: true,
        delete: true,
        additionalDirectories: false,
        logout: true,
        prompt: { image: true, audio: false, embeddedContext: false },
        mcp: { stdio: false, http: true, sse: false },
        fork: false,
        archive: false,
        title: false,
        status: false,
      });
      assert.deepEqual(
        info.authMethods.map((m) => [m.id, m.type]),
        [
          ['a', 'agent'],
          ['t', 'terminal'],
          ['e', 'env_var'],
        ],
      );
      assert.deepEqual(info.authMethods[1].env, [{ name: 'X', value: '1' }]);
      assert.deepEqual(info.authMethods[2].raw.vars, ['KEY'], 'unknown auth types keep their payload');
      const bare = a.parseInitializeResult({ protocolVersion: 2, info: { name: 'n', version: 'v' } });
      assert.equal(bare.capabilities.resume, false);
      assert.equal(bare.capabilities.logout, false);
    });
  });

  describe('requests', () => {
    it('uses auth/login and auth/logout', () => {
      const l = a.authenticate('m');
      assert.deepEqual({ method: l.method, params: l.params }, { method: 'auth/login', params: { methodId: 'm' } });
      assert.equal(a.logout().method, 'auth/logout');
      assert.equal(a.methods.sessionLoad, undefined);
      assert.equal(a.clientServices, undefined);
    });

    it('creates and resumes sessions (replayFrom start), reading config options and commands', () => {
      const n = a.newSession({ cwd: '/w', mcpServers: [{ type: 'stdio', name: 'fs', command: '/bin/fs' }] });
      assert.deepEqual(n.params, { cwd: '/w', mcpServers: [{ type: 'stdio', name: 'fs', command: '/bin/fs' }] });
      sends(n.method, n.params);
      const r = a.resumeSession({ sessionId: S, cwd: '/w', replay: true });
      assert.deepEqual(
        { method: r.method, params: r.params },
        { method: 'session/resume', params: { sessionId: S, cwd: '/w', replayFrom: { type: 'start' } } },
      );
      sends(r.method, r.params);
      assert.equal(a.resumeSession({ sessionId: S, cwd: '/w', replay: false }).params.replayFrom, undefined);
      const v = n.decode({
        sessionId: S,
        configOptions: [{ configId: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask', options: [{ value: 'ask', name: 'Ask' }] }],
        availableCommands: [{ type: 'command', name: 'plan', description: 'Plan', input: { type: 'text', hint: 'goal' } }],
      }).value;
      assert.deepEqual(v, {
        sessionId: S,
        configOptions: [{ kind: 'select', id: 'mode', name: 'Mode', category: 'mode', currentValue: 'ask', options: [{ value: 'ask', name: 'Ask' }] }],
        commands: [{ name: 'plan', description: 'Plan', hint: 'goal' }],
      });
    });

    it('accepts the alpha.3 prompt ack {} and the later {messageId}', () => {
      const c = a.prompt(S, [{ type: 'text', text: 'hi' }]);
      sends(c.method, c.params);
      assert.deepEqual(c.eventsBefore, []);
      assert.deepEqual(c.decode({}), { value: {}, events: [] });
      assert.deepEqual(c.decode({ messageId: 'm1' }).value, { messageId: 'm1' });
      assert.throws(() => c.decode(null), ProtocolShapeError);
    });

    it('sets config options with type "id" or "boolean"', () => {
      const s = a.setConfigOption(S, 'model', 'x');
      assert.deepEqual(s.params, { sessionId: S, configId: 'model', type: 'id', value: 'x' });
      sends(s.method, s.params);
      const b = a.setConfigOption(S, 'fast', true);
      assert.deepEqual(b.params, { sessionId: S, configId: 'fast', type: 'boolean', value: true });
      sends(b.method, b.params);
      const r = b.decode({ configOptions: [{ configId: 'fast', name: 'Fast', type: 'boolean', currentValue: true }] });
      assert.deepEqual(r.value, [{ kind: 'boolean', id: 'fast', name: 'Fast', currentValue: true }]);
      assert.deepEqual(r.events, [{ sessionId: S, kind: 'config_options', options: r.value }]);
    });

    it('lists sessions, cancels', () => {
      const l = a.listSessions();
      sends(l.method, l.params);
      assert.deepEqual(l.decode({ sessions: [{ sessionId: 'a', cwd: '/w', updatedAt: '2026-01-01T00:00:00Z' }] }).value, {
        sessions: [{ sessionId: 'a', cwd: '/w', updatedAt: '2026-01-01T00:00:00Z' }],
      });
      const n = a.cancel(S);
      assert.deepEqual(n, { method: 'session/cancel', params: { sessionId: S } });
      assert.ok(V2_NOTIFICATION_PARAMS[n.method].safeParse(n.params).success);
    });
  });

  describe('plans', () => {
    it('decodes items, markdown and file plans and plan_removed', () => {
      assert.deepEqual(
        one({
          sessionUpdate: 'plan_update',
          plan: { type: 'items', planId: 'p1', entries: [{ content: 'a', priority: 'high', status: 'cancelled' }, { content: 'bad' }] },
        }),
        { sessionId: S, kind: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [{ content: 'a', priority: 'high', status: 'cancelled' }] } },
      );
      assert.deepEqual(one({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p2', content: '## Steps' } }), {
        sessionId: S,
        kind: 'plan_update',
        plan: { type: 'markdown', planId: 'p2', content: '## Steps' },
      });
      assert.deepEqual(one({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'p3', uri: 'file:///plan.md' } }), {
        sessionId: S,
        kind: 'plan_update',
        plan: { type: 'file', planId: 'p3', uri: 'file:///plan.md' },
      });
      assert.deepEqual(one({ sessionUpdate: 'plan_removed', planId: 'p1' }), { sessionId: S, kind: 'plan_removed', planId: 'p1' });
    });

    it('keeps other plan types whole, but requires planId', () => {
      const plan = { type: '_intent', planId: 'i1', token: 'eyJ…', steps: [{ call: 'x' }] };
      assert.deepEqual(one({ sessionUpdate: 'plan_update', plan }), {
        sessionId: S,
        kind: 'plan_update',
        plan: { type: 'unknown', planId: 'i1', rawType: '_intent', raw: plan },
      });
      rejects({ sessionUpdate: 'plan_update', plan: { type: '_intent', id: 'i1' } });
      rejects({ sessionUpdate: 'plan_update', plan: { type: 'items', id: 'p1', entries: [] } });
      rejects({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p' } });
      rejects({ sessionUpdate: 'plan_removed', id: 'p1' });
    });
  });

  describe('state_update', () => {
    it('reads running, requires_action and idle with a plain stopReason (alpha.3) and usage', () => {
      const running = { sessionUpdate: 'state_update', state: 'running' };
      assert.deepEqual(one(running), { sessionId: S, kind: 'state', state: 'running', raw: running });
      assert.ok((one({ sessionUpdate: 'state_update', state: 'requires_action' }) as { state: string }).state === 'requires_action');
      const usage = { totalTokens: 5, inputTokens: 2, outputTokens: 3, thoughtTokens: 1 };
      const idle = { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn', usage };
      assert.deepEqual(one(idle), { sessionId: S, kind: 'state', state: 'idle', stopReason: 'end_turn', usage, raw: idle });
      const bare = one({ sessionUpdate: 'state_update', state: 'idle' });
      assert.ok(bare.kind === 'state' && bare.stopReason === undefined, 'idle without stopReason is not a completion');
      const custom = one({ sessionUpdate: 'state_update', state: 'idle', stopReason: '_budget' });
      assert.ok(custom.kind === 'state' && custom.stopReason === '_budget');
    });

    it('reads the later draft: tagged error stopReason, state "unknown", background', () => {
      const err = { sessionUpdate: 'state_update', state: 'idle', stopReason: 'error', error: { code: -32603, message: 'model down', data: { retry: true } } };
      assert.deepEqual(one(err), {
        sessionId: S,
        kind: 'state',
        state: 'idle',
        stopReason: 'error',
        error: { code: -32603, message: 'model down', data: { retry: true } },
        raw: err,
      });
      const unk = { sessionUpdate: 'state_update', state: 'unknown', background: [{ type: 'terminal', terminalId: 't' }] };
      assert.deepEqual(one(unk), { sessionId: S, kind: 'state', state: 'unknown', background: [{ type: 'terminal', terminalId: 't' }], raw: unk });
      rejects({ sessionUpdate: 'state_update' });
    });
  });
});
