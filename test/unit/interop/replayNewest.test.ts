// Replays of the newest adapters (codex-acp 2.6.0, claude-agent-acp 0.101.0; both v2), recorded by
// the interop suite (test/interop/newest.test.ts, kept by keep-recordings.mjs): what they send
// decodes to the plans, approvals and turn states the user must see. Elicitation and subagent
// recordings are here for the features that will handle them (TIGHTEN there: today they are kept
// raw / answered -32601).
import assert from 'node:assert/strict';
import type { PermissionRequest, SessionEvent, ToolCallContent } from '../../../src/protocol/domain';
import { foldToolCalls } from '../../interop/support/foldToolCalls';
import { AGENT, replay, type Replay } from './replay';

const PLAN_MD = '# Interop plan\n\n1. Write the greeting file\n2. Create the marker\n';
const plan = (r: Replay, planId: string) => r.store.get({ agentId: AGENT, sessionId: r.sessionId, planId });
const statuses = (r: Replay, planId: string) => {
  const p = plan(r, planId)?.plan;
  assert.ok(p && p.type === 'items', `items plan ${planId}`);
  return p.entries.map((e) => e.status);
};
const turnEnd = (r: Replay) =>
  r.events
    .filter((e) => e.kind === 'state' && e.state === 'idle' && e.stopReason != null && e.sessionId === r.sessionId)
    .map((e) => (e.kind === 'state' ? e.stopReason : ''));
const unknowns = (r: Replay) => [...new Set(r.events.filter((e) => e.kind === 'unknown').map((e) => (e.kind === 'unknown' ? e.updateType : '')))].sort();
const markdown = (r: Replay) => r.store.plans(AGENT, r.sessionId).filter((p) => p.plan.type === 'markdown');
/** The tool call as it stood when its permission was asked (the event the permission implies included). */
function atPermission(r: Replay, req: PermissionRequest): Record<string, unknown> | undefined {
  assert.ok(req.subject?.type === 'tool_call');
  const fields = req.subject.fields;
  const i = r.events.findIndex((e: SessionEvent) => e.kind === 'tool_call' && e.fields === fields);
  assert.ok(i >= 0, "the permission's tool call event");
  return foldToolCalls(r.events.slice(0, i + 1)).get(req.subject.toolCallId);
}

describe('interop replay: codex-acp 2.6.0 (v2)', () => {
  it('plan turn: plan_update items under codex-structured-plan, a v2 diff with its git patch, one permission', () => {
    const r = replay('codex-acp-2.6.0-v2.ndjson');
    assert.equal(r.version, 2);
    assert.deepEqual(unknowns(r), []);
    assert.deepEqual(turnEnd(r), ['end_turn']);
    assert.deepEqual(statuses(r, 'codex-structured-plan'), ['completed', 'completed']);
    assert.deepEqual(
      r.permissions.map((p) => p.title),
      ['Make edits?'],
    );
    const edit = [...r.toolCalls.values()].find((c) => c.kind === 'edit');
    const diff = (edit?.content as ToolCallContent[]).find((c) => c.type === 'diff');
    assert.ok(diff?.type === 'diff');
    assert.deepEqual(
      diff.changes.map((c) => [c.operation, c.path]),
      [['add', '/workspace/hello.txt']],
    );
    assert.equal(diff.patch?.format, 'git_patch');
    assert.equal(edit?.status, 'completed');
  });

  it('plan mode: a question (elicitation/create), the Markdown plan, then "Implement this plan?" (switch_mode, the plan as its input)', () => {
    const r = replay('codex-acp-2.6.0-v2-plan-mode.ndjson');
    assert.deepEqual(r.agentRequests.map((q) => q.method).slice(0, 2), ['elicitation/create', 'session/request_permission']);
    assert.deepEqual(unknowns(r), []);
    assert.deepEqual(turnEnd(r), ['end_turn']);
    const [md] = markdown(r);
    assert.ok(md?.plan.type === 'markdown');
    assert.equal(md.plan.content, PLAN_MD);
    const approval = r.permissions[0];
    assert.equal(approval.title, 'Implement this plan?');
    assert.ok(approval.subject?.type === 'tool_call');
    assert.deepEqual(atPermission(r, approval)?.rawInput, { plan: PLAN_MD });
  });

  it("subagent traffic is decoded (subagent_update announces the child; the child's events follow)", () => {
    const s = replay('codex-acp-2.6.0-v2-subagent.ndjson');
    assert.deepEqual(unknowns(s), []);
    const child = s.events.find((e) => e.kind === 'subagent');
    assert.ok(child && child.kind === 'subagent' && child.childSessionId.startsWith(`${s.sessionId}:subagent:`), 'a subagent_update announcing the child');
    assert.ok(
      s.events.some((e) => e.sessionId.startsWith(`${s.sessionId}:subagent:`)),
      'child events',
    );
  });
});

describe('interop replay: claude-agent-acp 0.101.0 (v2)', () => {
  it('plan turn: plan_update items under planId plan, two permissions, end_turn', () => {
    const r = replay('claude-agent-acp-0.101.0-v2.ndjson');
    assert.equal(r.version, 2);
    assert.deepEqual(unknowns(r), []);
    assert.deepEqual(turnEnd(r), ['end_turn']);
    assert.deepEqual(statuses(r, 'plan'), ['completed', 'completed']);
    assert.equal(r.permissions.length, 2);
  });

  it('plan mode: the plan stays visible when "Ready to code?" repeats the call\'s empty first snapshot; then plan-mode Markdown', () => {
    const r = replay('claude-agent-acp-0.101.0-v2-plan-mode.ndjson');
    assert.deepEqual(unknowns(r), []);
    assert.deepEqual(
      r.agentRequests.map((q) => q.method),
      ['elicitation/create', 'session/request_permission'],
    );
    const approval = r.permissions[0];
    assert.equal(approval.title, 'Ready to code?');
    assert.ok(approval.subject?.type === 'tool_call');
    const shown = atPermission(r, approval);
    assert.deepEqual(shown?.rawInput, { plan: PLAN_MD });
    assert.equal((shown?.content as ToolCallContent[]).length, 1);
    const md = plan(r, 'plan-mode');
    assert.ok(md?.plan.type === 'markdown');
    assert.equal(md.plan.content, PLAN_MD.trimEnd());
  });

  it('subagent traffic is decoded (subagent_update, session_message)', () => {
    const s = replay('claude-agent-acp-0.101.0-v2-subagent.ndjson');
    assert.deepEqual(unknowns(s), []);
    assert.ok(
      s.events.some((e) => e.kind === 'subagent'),
      'subagent_update decoded',
    );
    assert.ok(
      s.events.some((e) => e.kind === 'session_message'),
      'session_message decoded',
    );
  });
});
