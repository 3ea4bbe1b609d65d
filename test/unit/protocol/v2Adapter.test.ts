// The v2 adapter: every v2 → model mapping (alpha.3 and the later draft where they differ),
// and that what it sends passes our v2 outgoing schemas.
import * as assert from 'node:assert/strict';
import { createAdapter, ProtocolShapeError, type VersionAdapter } from '../../../src/protocol/adapter';
import type { SessionEvent } from '../../../src/protocol/domain';
import { V2_CLIENT_RESULTS, V2_NOTIFICATION_PARAMS, V2_REQUEST_PARAMS } from '../../../src/protocol/v2/outgoing';

const S = 'sess_2';
const update = (u: Record<string, unknown>) => ({ sessionId: S, update: u });
const text = (t: string) => ({ type: 'text', text: t });
const sends = (method: string, params: unknown) => {
  const r = V2_REQUEST_PARAMS[method].safeParse(params);
  assert.ok(r.success, `${method} params fail the v2 schema: ${JSON.stringify(params)}`);
};

describe('v2 adapter', () => {
  let a: VersionAdapter;
  const one = (u: Record<string, unknown>): SessionEvent => {
    const evs = a.decodeUpdate(update(u));
    assert.equal(evs.length, 1);
    return evs[0];
  };
  const rejects = (u: Record<string, unknown>) => assert.throws(() => a.decodeUpdate(update(u)), ProtocolShapeError);
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

  describe('messages', () => {
    it('keeps omitted, null and a value apart in upserts', () => {
      assert.deepEqual(one({ sessionUpdate: 'agent_message', messageId: 'm' }), { sessionId: S, kind: 'message', role: 'agent', messageId: 'm' });
      assert.deepEqual(one({ sessionUpdate: 'user_message', messageId: 'u', content: null }), {
        sessionId: S,
        kind: 'message',
        role: 'user',
        messageId: 'u',
        content: null,
      });
      assert.deepEqual(one({ sessionUpdate: 'agent_thought', messageId: 't', content: [] }), {
        sessionId: S,
        kind: 'message',
        role: 'thought',
        messageId: 't',
        content: [],
      });
      assert.deepEqual(one({ sessionUpdate: 'agent_message', messageId: 'm', content: [text('a'), { type: 'image' }, text('b')] }), {
        sessionId: S,
        kind: 'message',
        role: 'agent',
        messageId: 'm',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      });
    });

    it('reads chunks (messageId required)', () => {
      assert.deepEqual(one({ sessionUpdate: 'agent_thought_chunk', messageId: 'm', content: text('x') }), {
        sessionId: S,
        kind: 'message_chunk',
        role: 'thought',
        messageId: 'm',
        content: { type: 'text', text: 'x' },
      });
      rejects({ sessionUpdate: 'agent_message_chunk', content: text('x') });
    });

    it('reads every content block type', () => {
      const blocks = [
        { type: 'text', text: 't', annotations: { audience: ['user'] } },
        { type: 'image', data: 'AA==', mimeType: 'image/png', uri: 'file:///i.png' },
        { type: 'audio', data: 'AA==', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a', name: 'a', size: 3, mimeType: null },
        { type: 'resource', resource: { uri: 'file:///b', text: 'b' } },
        { type: 'resource', resource: { uri: 'file:///c', blob: 'AA==', mimeType: 'x/y' } },
      ];
      const e = one({ sessionUpdate: 'user_message', messageId: 'u', content: blocks });
      assert.ok(e.kind === 'message');
      assert.deepEqual(e.content, blocks);
      rejects({ sessionUpdate: 'user_message_chunk', messageId: 'u', content: { type: 'resource', resource: { uri: 'x' } } });
    });
  });

  describe('tool calls and terminals', () => {
    it('reads tool_call_update as a patch with v2 diffs', () => {
      const e = one({
        sessionUpdate: 'tool_call_update',
        toolCallId: 't',
        title: 'Edit',
        kind: '_custom_kind',
        status: 'paused',
        rawOutput: null,
        content: [
          {
            type: 'diff',
            changes: [
              { operation: 'modify', path: '/a' },
              { operation: 'move', oldPath: '/b', path: '/c', fileType: 'text' },
              { operation: 'move', path: '/x' },
            ],
            patch: { format: 'git_patch', text: '@@' },
          },
        ],
      });
      assert.deepEqual(e, {
        sessionId: S,
        kind: 'tool_call',
        toolCallId: 't',
        fields: {
          title: 'Edit',
          kind: '_custom_kind',
          status: 'paused',
          rawOutput: null,
          content: [
            {
              type: 'diff',
              changes: [
                { operation: 'modify', path: '/a' },
                { operation: 'move', oldPath: '/b', path: '/c', fileType: 'text' },
              ],
              patch: { format: 'git_patch', text: '@@' },
            },
          ],
        },
      });
      assert.deepEqual(one({ sessionUpdate: 'tool_call_update', toolCallId: 't', content: null, locations: null }), {
        sessionId: S,
        kind: 'tool_call',
        toolCallId: 't',
        fields: { content: null, locations: null },
      });
    });

    it('reads tool_call_content_chunk', () => {
      assert.deepEqual(one({ sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: { type: 'terminal', terminalId: 'term' } }), {
        sessionId: S,
        kind: 'tool_call_content_chunk',
        toolCallId: 't',
        content: { type: 'terminal', terminalId: 'term' },
      });
      rejects({ sessionUpdate: 'tool_call_content_chunk', toolCallId: 't', content: { type: 'diff' } });
    });

    it('reads terminal_update snapshots and output chunks', () => {
      assert.deepEqual(
        one({
          sessionUpdate: 'terminal_update',
          terminalId: 'term',
          command: 'npm test',
          cwd: '/w',
          output: { data: 'aGk=' },
          exitStatus: { exitCode: 0, signal: null },
          size: { cols: 80, rows: 24 },
        }),
        {
          sessionId: S,
          kind: 'terminal_update',
          terminalId: 'term',
          command: 'npm test',
          cwd: '/w',
          output: 'aGk=',
          exitStatus: { exitCode: 0, signal: null },
        },
      );
      assert.deepEqual(one({ sessionUpdate: 'terminal_update', terminalId: 'term', output: null }), {
        sessionId: S,
        kind: 'terminal_update',
        terminalId: 'term',
        output: null,
      });
      assert.deepEqual(one({ sessionUpdate: 'terminal_output_chunk', terminalId: 'term', data: 'aGk=' }), {
        sessionId: S,
        kind: 'terminal_output_chunk',
        terminalId: 'term',
        data: 'aGk=',
      });
      rejects({ sessionUpdate: 'terminal_output_chunk', terminalId: 'term' });
    });
  });

  describe('permission requests', () => {
    const options = [
      { optionId: 'y', name: 'Allow', kind: 'allow_once' },
      { optionId: 'z', name: 'Custom', kind: '_later' },
    ];

    it('reads tool_call, command, unknown and absent subjects', () => {
      assert.deepEqual(
        a.decodePermissionRequest({ sessionId: S, title: 'Edit?', subject: { type: 'tool_call', toolCall: { toolCallId: 't', status: 'pending' } }, options }),
        { sessionId: S, title: 'Edit?', subject: { type: 'tool_call', toolCallId: 't', fields: { status: 'pending' } }, options },
      );
      assert.deepEqual(
        a.decodePermissionRequest({
          sessionId: S,
          title: 'Run?',
          description: 'rm',
          subject: { type: 'command', command: 'rm -rf x', cwd: '/w', terminalId: 'term' },
          options,
        }),
        { sessionId: S, title: 'Run?', description: 'rm', subject: { type: 'command', command: 'rm -rf x', cwd: '/w', terminalId: 'term' }, options },
      );
      const other = { type: '_network', host: 'example.com' };
      assert.deepEqual(a.decodePermissionRequest({ sessionId: S, title: 'Net?', subject: other, options }).subject, {
        type: 'unknown',
        rawType: '_network',
        raw: other,
      });
      assert.equal(a.decodePermissionRequest({ sessionId: S, title: 'x', subject: null, options }).subject, undefined);
      assert.throws(() => a.decodePermissionRequest({ sessionId: S, options }), ProtocolShapeError, 'title is required');
      assert.throws(() => a.decodePermissionRequest({ sessionId: S, title: 'x', subject: { type: 'command' }, options }), ProtocolShapeError);
    });

    it('encodes outcomes', () => {
      const r = a.encodePermissionOutcome({ outcome: 'selected', optionId: 'y' });
      assert.deepEqual(r, { outcome: { outcome: 'selected', optionId: 'y' } });
      assert.ok(V2_CLIENT_RESULTS['session/request_permission'].safeParse(r).success);
    });
  });

  describe('config, commands, info, usage, notices, unknown', () => {
    it('reads select options (flat or grouped), booleans and unknown option types', () => {
      const unknownOpt = { configId: 'temp', name: 'Temperature', type: '_slider', min: 0, max: 1 };
      const e = one({
        sessionUpdate: 'config_option_update',
        configOptions: [
          {
            configId: 'm',
            name: 'Model',
            type: 'select',
            currentValue: 'a',
            options: [
              { groupId: 'fast', name: 'Fast', options: [{ value: 'a', name: 'A', description: 'quick' }] },
              { groupId: 'slow', name: 'Slow', options: [{ value: 'b', name: 'B' }] },
            ],
          },
          { configId: 'b', name: 'Think', type: 'boolean', currentValue: true, _meta: { x: 1 } },
          unknownOpt,
          { configId: 'bad', name: 'Bad', type: 'select', currentValue: 3, options: [] },
        ],
      });
      assert.deepEqual(e, {
        sessionId: S,
        kind: 'config_options',
        options: [
          {
            kind: 'select',
            id: 'm',
            name: 'Model',
            currentValue: 'a',
            options: [
              { value: 'a', name: 'A', description: 'quick', group: 'Fast' },
              { value: 'b', name: 'B', group: 'Slow' },
            ],
          },
          { kind: 'boolean', id: 'b', name: 'Think', currentValue: true, _meta: { x: 1 } },
          { kind: 'unknown', id: 'temp', name: 'Temperature', raw: unknownOpt },
        ],
      });
    });

    it('reads commands with or without type:"command"', () => {
      assert.deepEqual(
        one({
          sessionUpdate: 'available_commands_update',
          availableCommands: [
            { name: 'a', description: 'A', input: { type: 'text', hint: 'h' } },
            { type: 'command', name: 'b', description: 'B' },
            { name: 'c', description: 'C', input: { type: '_rich' } },
            { description: 'no name' },
          ],
        }),
        {
          sessionId: S,
          kind: 'commands',
          commands: [
            { name: 'a', description: 'A', hint: 'h' },
            { name: 'b', description: 'B' },
            { name: 'c', description: 'C', input: { type: '_rich' } },
          ],
        },
      );
    });

    it('keeps a command input of an unknown type raw (no hint), and a known one as its hint', () => {
      const e = one({
        sessionUpdate: 'available_commands_update',
        availableCommands: [
          { type: 'command', name: 'pick', description: 'P', input: { type: 'choice', options: ['a', 'b'], _meta: { x: 1 } } },
          { type: 'command', name: 'say', description: 'S', input: { type: 'text', hint: 'what' } },
        ],
      });
      assert.ok(e.kind === 'commands');
      assert.deepEqual(e.commands[0].input, { type: 'choice', options: ['a', 'b'], _meta: { x: 1 } });
      assert.equal(e.commands[0].hint, undefined);
      assert.equal(e.commands[1].input, undefined);
      assert.equal(e.commands[1].hint, 'what');
    });

    it('decodes replay_complete, and _meta: null as null (it clears) while an omitted _meta stays omitted', () => {
      assert.deepEqual(one({ sessionUpdate: 'replay_complete' }), { sessionId: S, kind: 'replay_complete' });
      const cleared = one({ sessionUpdate: 'tool_call_update', toolCallId: 't', _meta: null });
      assert.ok(cleared.kind === 'tool_call');
      assert.equal(cleared.fields._meta, null);
      const kept = one({ sessionUpdate: 'tool_call_update', toolCallId: 't' });
      assert.ok(kept.kind === 'tool_call');
      assert.ok(!('_meta' in kept.fields));
      const msg = one({ sessionUpdate: 'agent_message', messageId: 'm', _meta: null });
      assert.ok(msg.kind === 'message');
      assert.equal(msg._meta, null);
    });

    it('reads session_info_update as a patch, usage_update and notice', () => {
      assert.deepEqual(one({ sessionUpdate: 'session_info_update', title: null }), { sessionId: S, kind: 'session_info', title: null });
      assert.deepEqual(one({ sessionUpdate: 'session_info_update' }), { sessionId: S, kind: 'session_info' });
      assert.deepEqual(one({ sessionUpdate: 'usage_update', used: 1, size: 2, cost: null }), { sessionId: S, kind: 'usage', used: 1, size: 2, cost: null });
      rejects({ sessionUpdate: 'usage_update', used: -1, size: 2 });
      assert.deepEqual(one({ sessionUpdate: 'notice', severity: '_debug', title: 'Hi', description: 'there' }), {
        sessionId: S,
        kind: 'notice',
        severity: '_debug',
        title: 'Hi',
        description: 'there',
      });
      rejects({ sessionUpdate: 'notice', severity: 'info', title: '' });
    });

    it('turns anything else into an unknown event', () => {
      for (const u of [
        { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'in_progress' },
        { sessionUpdate: 'plan', entries: [] },
        { sessionUpdate: '_x' },
      ]) {
        assert.deepEqual(one(u), { sessionId: S, kind: 'unknown', updateType: u.sessionUpdate, raw: u });
      }
    });
  });
});
