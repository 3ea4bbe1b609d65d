// The v1 adapter, requests and turns: initialize, the methods and requests it sends (and that they
// pass our v1 outgoing schemas), and the synthesized turn states and message ids of a prompt turn.
// Session updates, permission requests and client services: v1AdapterUpdates.test.ts.
import * as assert from 'node:assert/strict';
import { createAdapter, ProtocolShapeError, type VersionAdapter } from '../../../src/protocol/adapter';
import { V1_MODE_CONFIG_ID } from '../../../src/protocol/domain';
import { V1_NOTIFICATION_PARAMS } from '../../../src/protocol/v1/outgoing';
import { one, S, sends, text } from './support/v1Adapter';

describe('v1 adapter', () => {
  let a: VersionAdapter;
  beforeEach(() => {
    a = createAdapter(1);
  });

  describe('initialize', () => {
    it('sends v1 params with the plan opt-in and client services', () => {
      const p = a.initializeParams({
        clientInfo: { name: 'acp-plans', version: '0.1.0' },
        unstablePlans: true,
        fs: { readTextFile: true, writeTextFile: false },
        terminal: true,
      });
      assert.deepEqual(p, {
        protocolVersion: 1,
        clientCapabilities: {
          fs: { readTextFile: true, writeTextFile: false },
          terminal: true,
          session: { configOptions: { boolean: {} }, compaction: {} },
          plan: {},
          subagents: {},
          auth: { terminal: true },
        },
        clientInfo: { name: 'acp-plans', version: '0.1.0' },
      });
      sends(a.methods.initialize, p);
      const q = a.initializeParams({ clientInfo: { name: 'c', version: '1' }, unstablePlans: false });
      assert.equal((q.clientCapabilities as Record<string, unknown>).plan, undefined);
    });

    it('maps capabilities, agent info and auth methods (no type = agent, terminal env map)', () => {
      const info = a.parseInitializeResult({
        protocolVersion: 1,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, embeddedContext: true },
          mcpCapabilities: { http: true },
          sessionCapabilities: { list: {}, resume: {}, close: null },
          auth: { logout: {} },
        },
        agentInfo: { name: 'agent', title: 'Agent', version: '2.0' },
        authMethods: [
          { id: 'login', name: 'Log in', description: 'opens a browser' },
          { type: 'terminal', id: 'tty', name: 'Terminal', args: ['--login'], env: { TOKEN_DIR: '/tmp', BAD: 3 } },
          { name: 'no id' },
        ],
      });
      assert.equal(info.protocolVersion, 1);
      assert.deepEqual(info.agentInfo, { name: 'agent', title: 'Agent', version: '2.0' });
      assert.deepEqual(info.capabilities, {
        loadSession: true,
        resume: true,
        list: true,
        close: false,
        delete: false,
        additionalDirectories: false,
        logout: true,
        prompt: { image: true, audio: false, embeddedContext: true },
        mcp: { stdio: true, http: true, sse: false },
      });
      assert.equal(info.authMethods.length, 2, 'the invalid method is skipped');
      assert.deepEqual(
        { ...info.authMethods[0], raw: undefined },
        { id: 'login', name: 'Log in', description: 'opens a browser', type: 'agent', raw: undefined },
      );
      const t = info.authMethods[1];
      assert.equal(t.type, 'terminal');
      assert.deepEqual(t.args, ['--login']);
      assert.deepEqual(t.env, [{ name: 'TOKEN_DIR', value: '/tmp' }]);
      assert.equal(t.raw.id, 'tty');
    });

    it('throws a ProtocolShapeError on a malformed result and tolerates malformed optional parts', () => {
      assert.throws(() => a.parseInitializeResult({ agentCapabilities: {} }), ProtocolShapeError);
      assert.throws(() => a.parseInitializeResult({ protocolVersion: '1' }), ProtocolShapeError);
      const info = a.parseInitializeResult({ protocolVersion: 1, agentCapabilities: 'bad', agentInfo: 7 });
      assert.equal(info.capabilities.loadSession, false);
      assert.equal(info.agentInfo, undefined);
      assert.deepEqual(info.authMethods, []);
    });
  });

  describe('methods and requests', () => {
    it('uses v1 names for auth and maps resume with replay to session/load', () => {
      assert.equal(a.authenticate('m').method, 'authenticate');
      assert.deepEqual(a.authenticate('m').params, { methodId: 'm' });
      assert.equal(a.logout().method, 'logout');
      const load = a.resumeSession({ sessionId: S, cwd: '/w', replay: true });
      assert.equal(load.method, 'session/load');
      assert.deepEqual(load.params, { sessionId: S, cwd: '/w', mcpServers: [] });
      sends(load.method, load.params);
      const resume = a.resumeSession({ sessionId: S, cwd: '/w', replay: false });
      assert.equal(resume.method, 'session/resume');
      sends(resume.method, resume.params);
    });

    it('encodes MCP servers the v1 way (stdio without type, args and env required)', () => {
      const c = a.newSession({
        cwd: '/w',
        additionalDirectories: ['/x'],
        mcpServers: [
          { type: 'stdio', name: 'fs', command: '/bin/fs' },
          { type: 'http', name: 'web', url: 'https://x' },
        ],
      });
      assert.equal(c.method, 'session/new');
      assert.deepEqual(c.params, {
        cwd: '/w',
        additionalDirectories: ['/x'],
        mcpServers: [
          { name: 'fs', command: '/bin/fs', args: [], env: [] },
          { type: 'http', name: 'web', url: 'https://x', headers: [] },
        ],
      });
      sends(c.method, c.params);
    });

    it('decodes session/new with modes as a select option (category mode) plus the config options', () => {
      const c = a.newSession({ cwd: '/w' });
      const { value } = c.decode({
        sessionId: S,
        modes: {
          currentModeId: 'ask',
          availableModes: [
            { id: 'ask', name: 'Ask' },
            { id: 'code', name: 'Code', description: 'writes' },
          ],
        },
        configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] }],
      });
      assert.deepEqual(value, {
        sessionId: S,
        configOptions: [
          {
            kind: 'select',
            id: V1_MODE_CONFIG_ID,
            name: 'Mode',
            category: 'mode',
            currentValue: 'ask',
            options: [
              { value: 'ask', name: 'Ask' },
              { value: 'code', name: 'Code', description: 'writes' },
            ],
          },
          { kind: 'select', id: 'model', name: 'Model', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
        ],
      });
    });

    it('maps the mode option to session/set_mode and others to session/set_config_option', () => {
      a.newSession({ cwd: '/w' }).decode({
        sessionId: S,
        modes: {
          currentModeId: 'ask',
          availableModes: [
            { id: 'ask', name: 'Ask' },
            { id: 'code', name: 'Code' },
          ],
        },
      });
      const m = a.setConfigOption(S, V1_MODE_CONFIG_ID, 'code');
      assert.equal(m.method, 'session/set_mode');
      assert.deepEqual(m.params, { sessionId: S, modeId: 'code' });
      sends(m.method, m.params);
      const r = m.decode({});
      assert.equal(r.value[0].kind === 'select' && r.value[0].currentValue, 'code');
      assert.deepEqual(r.events, [{ sessionId: S, kind: 'config_options', options: r.value }]);

      const b = a.setConfigOption(S, 'fast', true);
      assert.deepEqual(
        { method: b.method, params: b.params },
        { method: 'session/set_config_option', params: { sessionId: S, configId: 'fast', type: 'boolean', value: true } },
      );
      sends(b.method, b.params);
      const s = a.setConfigOption(S, 'model', 'x');
      assert.deepEqual(s.params, { sessionId: S, configId: 'model', value: 'x' });
      sends(s.method, s.params);
      const after = s.decode({
        configOptions: [
          {
            id: 'model',
            name: 'Model',
            type: 'select',
            currentValue: 'x',
            options: [{ group: 'g1', name: 'Fast ones', options: [{ value: 'x', name: 'X' }] }],
          },
        ],
      });
      assert.equal(after.value.length, 2, 'mode option + the new list');
      assert.deepEqual(after.value[1], {
        kind: 'select',
        id: 'model',
        name: 'Model',
        currentValue: 'x',
        options: [{ value: 'x', name: 'X', group: 'Fast ones' }],
      });
    });

    it('lists, closes and deletes sessions', () => {
      const l = a.listSessions({ cwd: '/w' });
      assert.deepEqual(l.params, { cwd: '/w' });
      sends(l.method, l.params);
      const r = l.decode({ sessions: [{ sessionId: 'a', cwd: '/w', title: 'T' }, { cwd: 'no id' }], nextCursor: 'n' });
      assert.deepEqual(r.value, { sessions: [{ sessionId: 'a', cwd: '/w', title: 'T' }], nextCursor: 'n' });
      assert.equal(a.closeSession(S).method, 'session/close');
      assert.equal(a.deleteSession(S).method, 'session/delete');
      assert.throws(() => a.closeSession(S).decode(5), ProtocolShapeError);
    });

    it('cancels with the session/cancel notification', () => {
      const n = a.cancel(S);
      assert.deepEqual(n, { method: 'session/cancel', params: { sessionId: S } });
      assert.ok(V1_NOTIFICATION_PARAMS[n.method].safeParse(n.params).success);
    });
  });

  describe('prompt turns (synthesized states and message ids)', () => {
    it('emits the user message and running before, idle with stopReason and usage after', () => {
      const c = a.prompt(S, [{ type: 'text', text: 'hi' }]);
      assert.equal(c.method, 'session/prompt');
      sends(c.method, c.params);
      assert.deepEqual(c.eventsBefore, [
        { sessionId: S, kind: 'message', role: 'user', messageId: 'v1:1:user:0', content: [{ type: 'text', text: 'hi' }] },
        { sessionId: S, kind: 'state', state: 'running' },
      ]);
      const usage = { totalTokens: 3, inputTokens: 1, outputTokens: 2 };
      const r = c.decode({ stopReason: 'end_turn', usage });
      assert.deepEqual(r.value, { messageId: 'v1:1:user:0', stopReason: 'end_turn' });
      assert.deepEqual(r.events, [{ sessionId: S, kind: 'state', state: 'idle', stopReason: 'end_turn', usage }]);
    });

    it('ends the turn on an error response (cancelled for -32800)', () => {
      const c = a.prompt(S, []);
      assert.deepEqual(c.fail?.({ code: -32603, message: 'boom' }), [
        { sessionId: S, kind: 'state', state: 'idle', stopReason: 'error', error: { code: -32603, message: 'boom' } },
      ]);
      const ev = c.fail?.({ code: -32800, message: 'x' })[0];
      assert.ok(ev?.kind === 'state' && ev.stopReason === 'cancelled');
      assert.throws(() => c.decode({}), ProtocolShapeError, 'a v1 prompt result needs a stopReason');
    });

    it('gives chunks a stable id per turn and role, new ids on role change and after a tool call', () => {
      const ids = (u: Record<string, unknown>) => {
        const e = one(a, u);
        assert.equal(e.kind, 'message_chunk');
        return e.kind === 'message_chunk' ? e.messageId : '';
      };
      const c = a.prompt(S, [{ type: 'text', text: 'q' }]);
      assert.equal(c.eventsBefore[0].kind === 'message' && c.eventsBefore[0].messageId, 'v1:1:user:0');
      assert.equal(ids({ sessionUpdate: 'agent_thought_chunk', content: text('hmm') }), 'v1:1:thought:1');
      assert.equal(ids({ sessionUpdate: 'agent_message_chunk', content: text('a') }), 'v1:1:agent:2');
      assert.equal(ids({ sessionUpdate: 'agent_message_chunk', content: text('b') }), 'v1:1:agent:2');
      one(a, { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read' });
      one(a, { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
      assert.equal(ids({ sessionUpdate: 'agent_message_chunk', content: text('c') }), 'v1:1:agent:3');
      c.decode({ stopReason: 'end_turn' });
      a.prompt(S, []);
      assert.equal(ids({ sessionUpdate: 'agent_message_chunk', content: text('d') }), 'v1:2:agent:1');
      assert.equal(ids({ sessionUpdate: 'agent_message_chunk', content: text('e'), messageId: 'm-own' }), 'm-own', 'a v1 messageId, when sent, is used');
    });

    it('replays (session/load) with the same ids the live session had', () => {
      const live: string[] = [];
      const turn = (adapter: VersionAdapter, prompt: boolean) => {
        if (prompt) live.push((adapter.prompt(S, []).eventsBefore[0] as { messageId: string }).messageId);
        else live.push((one(adapter, { sessionUpdate: 'user_message_chunk', content: text('q') }) as { messageId: string }).messageId);
        live.push((one(adapter, { sessionUpdate: 'agent_message_chunk', content: text('a') }) as { messageId: string }).messageId);
        one(adapter, { sessionUpdate: 'tool_call', toolCallId: 't', title: 'x' });
        live.push((one(adapter, { sessionUpdate: 'agent_message_chunk', content: text('b') }) as { messageId: string }).messageId);
      };
      turn(a, true);
      turn(a, true);
      const liveIds = live.splice(0);
      a.resumeSession({ sessionId: S, cwd: '/w', replay: true });
      turn(a, false);
      turn(a, false);
      assert.deepEqual(live, liveIds);
      assert.deepEqual(liveIds, ['v1:1:user:0', 'v1:1:agent:1', 'v1:1:agent:2', 'v1:2:user:0', 'v1:2:agent:1', 'v1:2:agent:2']);
      const fresh = createAdapter(1);
      fresh.resumeSession({ sessionId: S, cwd: '/w', replay: true });
      live.length = 0;
      turn(fresh, false);
      turn(fresh, false);
      assert.deepEqual(live, liveIds, 'a new connection replays to the same ids');
    });
  });
});
