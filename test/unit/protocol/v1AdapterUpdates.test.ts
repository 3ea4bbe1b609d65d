// The v1 adapter, what it reads and answers: every v1 session update → model mapping, permission
// requests and their outcomes, and the client services (fs, terminal) with schema-valid results.
// Initialize, requests and prompt turns: v1Adapter.test.ts.
import * as assert from 'node:assert/strict';
import { createAdapter, ProtocolShapeError, type VersionAdapter } from '../../../src/protocol/adapter';
import { V1_MODE_CONFIG_ID } from '../../../src/protocol/domain';
import { V1_CLIENT_RESULTS } from '../../../src/protocol/v1/outgoing';
import { one, S, text, update } from './support/v1Adapter';

describe('v1 adapter', () => {
  let a: VersionAdapter;
  beforeEach(() => {
    a = createAdapter(1);
  });

  describe('session updates', () => {
    it('maps plan to plan_update items with planId "main", keeping cancelled and custom values', () => {
      const e = one(a, {
        sessionUpdate: 'plan',
        _meta: { k: 1 },
        entries: [
          { content: 'a', priority: 'high', status: 'pending' },
          { content: 'b', priority: 'low', status: 'cancelled' },
          { content: 'c', priority: '_urgent', status: '_blocked', _meta: { why: 'dep' } },
          { content: 'no status', priority: 'low' },
          7,
        ],
      });
      assert.deepEqual(e, {
        sessionId: S,
        kind: 'plan_update',
        _meta: { k: 1 },
        plan: {
          type: 'items',
          planId: 'main',
          entries: [
            { content: 'a', priority: 'high', status: 'pending' },
            { content: 'b', priority: 'low', status: 'cancelled' },
            { content: 'c', priority: '_urgent', status: '_blocked', _meta: { why: 'dep' } },
          ],
        },
      });
    });

    it('decodes the unstable plan_update and plan_removed', () => {
      assert.deepEqual(one(a, { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p', content: '# x' } }), {
        sessionId: S,
        kind: 'plan_update',
        plan: { type: 'markdown', planId: 'p', content: '# x' },
      });
      assert.deepEqual(one(a, { sessionUpdate: 'plan_removed', planId: 'p' }), { sessionId: S, kind: 'plan_removed', planId: 'p' });
      assert.throws(() => a.decodeUpdate(update({ sessionUpdate: 'plan_removed', id: 'p' })), ProtocolShapeError);
    });

    it('maps tool_call to a full replacement (defaults filled) and tool_call_update to a patch', () => {
      assert.deepEqual(one(a, { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read file', name: 'read', rawInput: { p: 1 } }), {
        sessionId: S,
        kind: 'tool_call',
        toolCallId: 't',
        fields: { name: 'read', title: 'Read file', kind: 'other', status: 'pending', content: [], locations: [], rawInput: { p: 1 }, rawOutput: null },
      });
      assert.deepEqual(
        one(a, { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed', title: null, locations: [{ path: '/a', line: 3 }, { line: 1 }] }),
        {
          sessionId: S,
          kind: 'tool_call',
          toolCallId: 't',
          fields: { status: 'completed', title: null, locations: [{ path: '/a', line: 3 }] },
        },
      );
      assert.throws(() => a.decodeUpdate(update({ sessionUpdate: 'tool_call', toolCallId: 't' })), ProtocolShapeError, 'a v1 tool_call needs a title');
    });

    it('maps a v1 diff to one change (add without old text, else modify) and keeps the texts', () => {
      const e = one(a, {
        sessionUpdate: 'tool_call_update',
        toolCallId: 't',
        content: [
          { type: 'diff', path: '/new.ts', newText: 'x' },
          { type: 'diff', path: '/old.ts', oldText: 'a', newText: 'b' },
          { type: 'content', content: text('done') },
          { type: 'terminal', terminalId: 'term1' },
        ],
      });
      assert.ok(e.kind === 'tool_call');
      assert.deepEqual(e.fields.content, [
        { type: 'diff', changes: [{ operation: 'add', path: '/new.ts' }], texts: [{ path: '/new.ts', oldText: null, newText: 'x' }] },
        { type: 'diff', changes: [{ operation: 'modify', path: '/old.ts' }], texts: [{ path: '/old.ts', oldText: 'a', newText: 'b' }] },
        { type: 'content', content: { type: 'text', text: 'done' } },
        { type: 'terminal', terminalId: 'term1' },
      ]);
    });

    it('maps current_mode_update to the mode select option', () => {
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
      const e = one(a, { sessionUpdate: 'current_mode_update', currentModeId: 'code' });
      assert.deepEqual(e, {
        sessionId: S,
        kind: 'config_options',
        options: [
          {
            kind: 'select',
            id: V1_MODE_CONFIG_ID,
            name: 'Mode',
            category: 'mode',
            currentValue: 'code',
            options: [
              { value: 'ask', name: 'Ask' },
              { value: 'code', name: 'Code' },
            ],
          },
        ],
      });
      const c = one(a, { sessionUpdate: 'config_option_update', configOptions: [{ id: 'fast', name: 'Fast', type: 'boolean', currentValue: false }] });
      assert.ok(c.kind === 'config_options');
      assert.deepEqual(
        c.options.map((o) => o.id),
        [V1_MODE_CONFIG_ID, 'fast'],
      );
    });

    it('maps commands, session info, usage and notices', () => {
      assert.deepEqual(
        one(a, {
          sessionUpdate: 'available_commands_update',
          availableCommands: [{ name: 'plan', description: 'Make a plan', input: { hint: 'what' } }, { name: 'x' }],
        }),
        { sessionId: S, kind: 'commands', commands: [{ name: 'plan', description: 'Make a plan', hint: 'what' }] },
      );
      assert.deepEqual(one(a, { sessionUpdate: 'session_info_update', title: 'T', updatedAt: null }), {
        sessionId: S,
        kind: 'session_info',
        title: 'T',
        updatedAt: null,
      });
      assert.deepEqual(one(a, { sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } }), {
        sessionId: S,
        kind: 'usage',
        used: 10,
        size: 100,
        cost: { amount: 0.5, currency: 'USD' },
      });
      assert.deepEqual(one(a, { sessionUpdate: 'notice', severity: 'warning', title: 'Slow' }), {
        sessionId: S,
        kind: 'notice',
        severity: 'warning',
        title: 'Slow',
      });
    });

    it('keeps an unknown sessionUpdate whole and throws only on a bad envelope or a malformed known variant', () => {
      const u = { sessionUpdate: '_vendor_thing', a: [1] };
      assert.deepEqual(one(a, u), { sessionId: S, kind: 'unknown', updateType: '_vendor_thing', raw: u });
      assert.throws(() => a.decodeUpdate({ update: u }), ProtocolShapeError);
      assert.throws(() => a.decodeUpdate({ sessionId: S, update: { a: 1 } }), ProtocolShapeError);
      assert.throws(() => a.decodeUpdate(update({ sessionUpdate: 'agent_message_chunk', content: 'x' })), ProtocolShapeError);
    });
  });

  describe('permission requests', () => {
    it('takes the title from the tool call and makes it the subject', () => {
      const req = a.decodePermissionRequest({
        sessionId: S,
        toolCall: { toolCallId: 't', title: 'Edit main.rs', status: 'pending' },
        options: [
          { optionId: 'y', name: 'Allow', kind: 'allow_once' },
          { optionId: 'n', name: 'Reject', kind: 'reject_once' },
        ],
      });
      assert.deepEqual(req, {
        sessionId: S,
        title: 'Edit main.rs',
        subject: { type: 'tool_call', toolCallId: 't', fields: { title: 'Edit main.rs', status: 'pending' } },
        options: [
          { optionId: 'y', name: 'Allow', kind: 'allow_once' },
          { optionId: 'n', name: 'Reject', kind: 'reject_once' },
        ],
      });
    });

    it('falls back to the title of the known tool call', () => {
      one(a, { sessionUpdate: 'tool_call', toolCallId: 't9', title: 'Run tests' });
      const req = a.decodePermissionRequest({ sessionId: S, toolCall: { toolCallId: 't9' }, options: [] });
      assert.equal(req.title, 'Run tests');
      assert.throws(() => a.decodePermissionRequest({ sessionId: S, options: [] }), ProtocolShapeError);
    });

    it('encodes both outcomes', () => {
      const sel = a.encodePermissionOutcome({ outcome: 'selected', optionId: 'y' });
      assert.deepEqual(sel, { outcome: { outcome: 'selected', optionId: 'y' } });
      assert.deepEqual(a.encodePermissionOutcome({ outcome: 'cancelled' }), { outcome: { outcome: 'cancelled' } });
      assert.ok(V1_CLIENT_RESULTS['session/request_permission'].safeParse(sel).success);
    });
  });

  describe('client services (fs, terminal)', () => {
    it('decodes the requests and encodes schema-valid results', () => {
      const s = a.clientServices;
      assert.ok(s);
      assert.deepEqual(s.readTextFile.decodeParams({ sessionId: S, path: '/a', line: 3, limit: 'x' }), { sessionId: S, path: '/a', line: 3 });
      assert.deepEqual(s.writeTextFile.decodeParams({ sessionId: S, path: '/a', content: 'c' }), { sessionId: S, path: '/a', content: 'c' });
      assert.throws(() => s.writeTextFile.decodeParams({ sessionId: S, path: '/a' }), ProtocolShapeError);
      assert.deepEqual(
        s.terminalCreate.decodeParams({ sessionId: S, command: 'npm', args: ['test', 3], env: [{ name: 'A', value: 'b' }], cwd: null, outputByteLimit: 100 }),
        { sessionId: S, command: 'npm', args: ['test'], env: [{ name: 'A', value: 'b' }], cwd: null, outputByteLimit: 100 },
      );
      assert.deepEqual(s.terminalOutput.decodeParams({ sessionId: S, terminalId: 't' }), { sessionId: S, terminalId: 't' });
      const results: [string, unknown][] = [
        [s.readTextFile.method, s.readTextFile.encodeResult({ content: 'x' })],
        [s.writeTextFile.method, s.writeTextFile.encodeResult(undefined)],
        [s.terminalCreate.method, s.terminalCreate.encodeResult({ terminalId: 't' })],
        [s.terminalOutput.method, s.terminalOutput.encodeResult({ output: 'o', truncated: false, exitStatus: { exitCode: 0, signal: null } })],
        [s.terminalWaitForExit.method, s.terminalWaitForExit.encodeResult({ exitCode: 1 })],
        [s.terminalKill.method, s.terminalKill.encodeResult(undefined)],
        [s.terminalRelease.method, s.terminalRelease.encodeResult(undefined)],
      ];
      for (const [method, result] of results) {
        assert.ok(V1_CLIENT_RESULTS[method].safeParse(result).success, `${method}: ${JSON.stringify(result)}`);
      }
      assert.deepEqual(
        results.map(([m]) => m),
        ['fs/read_text_file', 'fs/write_text_file', 'terminal/create', 'terminal/output', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/release'],
      );
      assert.deepEqual(results[1][1], {}, 'fs/write_text_file answers {} (not null)');
    });
  });
});
