// The v2 adapter, what it reads and answers: messages and content blocks, tool calls and terminals,
// permission requests and their outcomes, config options, commands, session info, usage, notices
// and unknown updates (alpha.3 and the later draft where they differ).
// Initialize, requests, plans and state_update: v2Adapter.test.ts.
import * as assert from 'node:assert/strict';
import { createAdapter, ProtocolShapeError, type VersionAdapter } from '../../../src/protocol/adapter';
import type { SessionEvent } from '../../../src/protocol/domain';
import { V2_CLIENT_RESULTS } from '../../../src/protocol/v2/outgoing';
import { decodeOne, decodeRejects, S, text } from './support/v2Adapter';

describe('v2 adapter', () => {
  let a: VersionAdapter;
  const one = (u: Record<string, unknown>): SessionEvent => decodeOne(a, u);
  const rejects = (u: Record<string, unknown>) => decodeRejects(a, u);
  beforeEach(() => {
    a = createAdapter(2);
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
        { sessionUpdate: '_vendor_progress', id: 'c', status: 'in_progress' },
        { sessionUpdate: 'plan', entries: [] },
        { sessionUpdate: '_x' },
      ]) {
        assert.deepEqual(one(u), { sessionId: S, kind: 'unknown', updateType: u.sessionUpdate, raw: u });
      }
    });
  });
});
