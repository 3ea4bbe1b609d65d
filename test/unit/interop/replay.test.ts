// Fast replays of real agents' recorded traffic (test/fixtures/recordings, made by the interop
// suite) through the adapters: what real agents send decodes to the plans, tool calls and turn
// states the user must see. The live versions of these turns run in test/interop/client.test.ts.
import assert from 'node:assert/strict';
import type { ToolCallContent } from '../../../src/protocol/domain';
import { AGENT, replay, type Replay } from './replay';

const plan = (r: Replay, planId: string) => r.store.get({ agentId: AGENT, sessionId: r.sessionId, planId });
const statuses = (r: Replay, planId: string) => {
  const p = plan(r, planId)?.plan;
  assert.ok(p && p.type === 'items', `items plan ${planId}`);
  return p.entries.map((e) => e.status);
};
const diffs = (call: Record<string, unknown> | undefined) =>
  ((call?.content as ToolCallContent[] | undefined) ?? []).filter((c): c is Extract<ToolCallContent, { type: 'diff' }> => c.type === 'diff');
const turnEnd = (r: Replay) =>
  r.events.filter((e) => e.kind === 'state' && e.state === 'idle' && e.stopReason != null).map((e) => (e.kind === 'state' ? e.stopReason : ''));
const unknowns = (r: Replay) => r.events.filter((e) => e.kind === 'unknown').map((e) => (e.kind === 'unknown' ? e.updateType : ''));

describe('interop replay: codex-acp 0.16.0', () => {
  it('plans, the edit diff, a tool call announced by its permission request, UUID request ids', () => {
    const r = replay('codex-acp-0.16.0.ndjson');
    assert.equal(r.version, 1);
    assert.deepEqual(unknowns(r), []);
    assert.deepEqual(turnEnd(r), ['end_turn']);
    assert.deepEqual(statuses(r, 'main'), ['completed', 'completed']);
    assert.equal(plan(r, 'main')?.version, 2);
    for (const q of r.agentRequests) assert.match(String(q.id), /^[0-9a-f-]{36}$/);
    const edit = [...r.toolCalls.values()].find((c) => c.kind === 'edit');
    assert.equal(edit?.status, 'completed');
    assert.equal(diffs(edit)[0]?.texts?.[0].newText, 'hello from the interop suite\n');
    assert.equal(diffs(edit)[0]?.changes[0].path, '/workspace/hello.txt');
    const exec = r.permissions.find((p) => p.subject?.type === 'tool_call' && p.subject.fields.kind === 'execute');
    assert.ok(exec?.subject?.type === 'tool_call');
    const execId = exec.subject.toolCallId;
    const first = r.events.findIndex((e) => e.kind === 'tool_call' && e.toolCallId === execId);
    const perm = r.events.findIndex((e) => e.kind === 'tool_call' && e.toolCallId === execId && e.fields.status === 'pending');
    assert.equal(first, perm, 'the permission request is the first news of the command');
    assert.equal(r.toolCalls.get(execId)?.status, 'completed');
  });

  it('a rejected permission ends the turn cancelled and leaves the edit call without a final status', () => {
    const r = replay('codex-acp-0.16.0-reject.ndjson');
    assert.deepEqual(turnEnd(r), ['cancelled']);
    const edit = [...r.toolCalls.values()].find((c) => c.kind === 'edit');
    assert.ok(edit && edit.status !== 'completed' && edit.status !== 'failed', String(edit?.status));
  });
});

describe('interop replay: claude-code-acp 0.16.2', () => {
  it('repeated tool_call for one id is an upsert; empty first input and generic title are replaced', () => {
    const r = replay('claude-code-acp-0.16.2.ndjson');
    assert.deepEqual(unknowns(r), []);
    assert.deepEqual(turnEnd(r), ['end_turn']);
    assert.deepEqual(statuses(r, 'main'), ['completed', 'completed']);
    const sub = r.permissions[0].subject;
    assert.ok(sub?.type === 'tool_call');
    const writeEvents = r.events.filter((e) => e.kind === 'tool_call' && e.toolCallId === sub.toolCallId);
    assert.ok(writeEvents.length >= 3);
    const write = r.toolCalls.get(sub.toolCallId);
    assert.equal(write?.title, 'Write /workspace/hello.txt');
    assert.deepEqual(write?.rawInput, { file_path: '/workspace/hello.txt', content: 'hello from the interop suite\n' });
    assert.equal(write?.status, 'completed');
    assert.equal(diffs(write)[0]?.texts?.[0].oldText, null);
    // The command ran in a client terminal, shown as terminal content.
    const bash = [...r.toolCalls.values()].find((c) => c.kind === 'execute');
    assert.ok((bash?.content as ToolCallContent[]).some((c) => c.type === 'terminal'));
    assert.deepEqual(
      r.agentRequests.map((q) => q.method),
      [
        'session/request_permission',
        'fs/write_text_file',
        'fs/read_text_file',
        'session/request_permission',
        'terminal/create',
        'terminal/wait_for_exit',
        'terminal/output',
        'terminal/release',
      ],
    );
    assert.equal(r.agentRequests[0].id, 0);
  });
});

describe('interop replay: claude-agent-acp 0.23.1', () => {
  it('tool input streamed through tool_call_update; plans; usage in the prompt result', () => {
    const r = replay('claude-agent-acp-0.23.1.ndjson');
    assert.deepEqual(unknowns(r), []);
    assert.deepEqual(turnEnd(r), ['end_turn']);
    assert.deepEqual(statuses(r, 'main'), ['completed', 'completed']);
    const calls = [...r.toolCalls.values()];
    assert.equal(calls.length, 3);
    assert.ok(calls.every((c) => c.status === 'completed'));
    assert.equal(diffs(calls.find((c) => c.kind === 'edit'))[0]?.texts?.[0].newText, 'hello from the interop suite\n');
    const end = r.events.find((e) => e.kind === 'state' && e.state === 'idle');
    assert.equal(end?.kind === 'state' ? end.usage?.totalTokens : undefined, 720);
    assert.ok(r.events.some((e) => e.kind === 'usage' && e.cost?.currency === 'USD'));
  });
});

describe('interop replay: SDK agents', () => {
  it('SDK 1.9.0 example agent (v1)', () => {
    const r = replay('sdk-1.9.0-example-agent.ndjson');
    assert.equal(r.version, 1);
    assert.deepEqual(unknowns(r), []);
    assert.deepEqual(turnEnd(r), ['end_turn']);
    assert.equal(r.permissions.length, 1);
  });

  it('SDK 1.9.0 dual-version agent (v2): messages and the idle end', () => {
    const r = replay('sdk-1.9.0-dual-version-agent-v2.ndjson');
    assert.equal(r.version, 2);
    assert.deepEqual(
      r.events.map((e) => (e.kind === 'state' ? `state:${e.state}` : e.kind === 'message' ? `message:${e.role}` : e.kind)),
      ['message:user', 'state:running', 'message:agent', 'state:idle'],
    );
    assert.deepEqual(turnEnd(r), ['end_turn']);
  });

  it('SDK 2.4.0 v2 test agent: items, markdown and file plans by planId, plan_removed, v2 permission and diff', () => {
    const r = replay('sdk-2.4.0-v2-test-agent.ndjson');
    assert.equal(r.version, 2);
    assert.deepEqual(unknowns(r), []);
    assert.deepEqual(turnEnd(r), ['end_turn']);
    assert.deepEqual(
      r.store
        .plans(AGENT, r.sessionId)
        .map((p) => `${p.plan.type}:${p.planId}`)
        .sort(),
      ['file:doc', 'items:main'],
    );
    assert.deepEqual(statuses(r, 'main'), ['completed', 'completed', 'completed']);
    assert.deepEqual(
      r.store.archived(AGENT, r.sessionId).map((p) => `${p.plan.type}:${p.planId}`),
      ['markdown:notes'],
    );
    const doc = plan(r, 'doc')?.plan;
    assert.ok(doc?.type === 'file' && doc.uri === 'file:///workspace/PLAN.md');
    assert.equal(r.permissions[0].title, 'Allow editing hello.txt?');
    const call = r.toolCalls.get('tc-edit');
    assert.equal(call?.status, 'completed');
    assert.deepEqual(
      diffs(call)[0]?.changes.map((c) => c.operation),
      ['add'],
    );
    assert.deepEqual(diffs(call)[0]?.patch?.format, 'git_patch');
  });
});
