// THE NEWEST ADAPTERS through OUR client: @agentclientprotocol/codex-acp 2.6.0 and
// @agentclientprotocol/claude-agent-acp 0.101.0 (both negotiate v2). Each: a turn with its plan and
// a permission, a plan-mode turn with a question (an elicitation) before the plan (the plan shown
// at the approval, approved, the Markdown plan in the plan store), and a subagent (see shared/acp/PREVIEW.md for how each is
// triggered; what they send is listed in test/interop/README.md).
//
// Subagent traffic is decoded (subagent_update, session_message). Elicitation: our client
// advertises form elicitation (a handler is given) and the "user" answers each question with its
// first option (firstChoices), as a person would in the extension's form card.
import assert from 'node:assert/strict';
import { clientTurn, AGENT_ID, type ClientTurn } from './support/clientTurn';
import type { PermissionRequest, SessionEvent, ToolCallContent } from '../../src/protocol/domain';
import type { ElicitationRequest, ElicitationResponse } from '../../src/protocol/elicitation';
import { FILE_NAME, FINAL_TEXT, MARKER } from './support/scenarios';
import { foldToolCalls } from './support/foldToolCalls';
import {
  CODEX_IMPLEMENT,
  PLAN_MD,
  QUESTION,
  claudeNextPlanScenario,
  claudePlanModeScenario,
  claudeSubagentScenario,
  codexNextPlanScenario,
  codexPlanModeScenario,
  codexSubagentScenario,
} from './support/newestScenarios';

type Msg = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { code: number; message: string } };

const report = (name: string, t: ClientTurn) => {
  console.log(`      ${name}: v${t.conn.version} ${t.conn.agentName ?? '?'}, turn ${t.turnMs} ms`);
  assert.deepEqual(t.logs, [], 'protocol warnings');
};
const plan = (t: ClientTurn, planId: string) => t.store.get({ agentId: AGENT_ID, sessionId: t.sessionId, planId });
const statuses = (t: ClientTurn, planId: string) => {
  const p = plan(t, planId)?.plan;
  assert.ok(p && p.type === 'items', `items plan ${planId}`);
  return p.entries.map((e) => e.status);
};
const unknownKinds = (t: ClientTurn, sessionId = t.sessionId) =>
  t.events.filter((e): e is Extract<SessionEvent, { kind: 'unknown' }> => e.kind === 'unknown' && e.sessionId === sessionId).map((e) => e.updateType);
const received = (t: ClientTurn, method: string) => t.wire.filter((l) => l.dir === 'receive' && (l.msg as Msg).method === method).map((l) => l.msg as Msg);
/** Our answer on the wire to the agent's request `req`. */
const answerTo = (t: ClientTurn, req: Msg) =>
  t.wire.find((l) => l.dir === 'send' && (l.msg as Msg).id === req.id && !(l.msg as Msg).method)?.msg as Msg | undefined;
const allowOnce = (req: PermissionRequest) => req.options.find((o) => o.kind === 'allow_once')?.optionId;
const configValue = (t: ClientTurn, id: string) => {
  const last = [...t.events].reverse().find((e) => e.kind === 'config_options');
  const o = last?.kind === 'config_options' ? last.options.find((x) => x.id === id) : undefined;
  return o && o.kind !== 'unknown' ? o.currentValue : undefined;
};
const diffsOf = (call: Record<string, unknown> | undefined) =>
  ((call?.content as ToolCallContent[] | undefined) ?? []).filter((c): c is Extract<ToolCallContent, { type: 'diff' }> => c.type === 'diff');

/**
 * The user at the form: picks the first option of every choice (a question's first answer), the
 * default or a short text elsewhere. What a person does in the extension's form card.
 */
function firstChoices(req: ElicitationRequest): ElicitationResponse {
  if (req.mode !== 'form') return { action: 'decline' };
  const content: Record<string, string | boolean | number | string[]> = {};
  for (const f of req.form.fields) {
    if (f.kind === 'choice') content[f.name] = f.default ?? f.options[0]?.value ?? '';
    else if (f.kind === 'string') content[f.name] = f.default ?? 'yes';
    else if (f.kind === 'boolean') content[f.name] = f.default ?? true;
    else if (f.kind === 'number' || f.kind === 'integer') content[f.name] = f.default ?? f.minimum ?? 0;
  }
  return { action: 'accept', content };
}

/** The elicitation arrived well-formed (form mode, a schema of properties) and the user's answer went back. */
function assertElicitationAnswered(t: ClientTurn): Msg {
  const [req, ...more] = received(t, 'elicitation/create');
  assert.ok(req, 'elicitation/create received');
  assert.deepEqual(more, []);
  assert.equal(req.params?.sessionId, t.sessionId);
  assert.equal(req.params?.mode, 'form');
  const schema = req.params?.requestedSchema as { type?: string; properties?: Record<string, unknown> } | undefined;
  assert.equal(schema?.type, 'object');
  assert.ok(Object.keys(schema?.properties ?? {}).length >= 1);
  const answer = answerTo(t, req);
  assert.ok(answer, 'answered');
  const result = answer.result as { action?: string; content?: Record<string, unknown> } | undefined;
  assert.equal(result?.action, 'accept', JSON.stringify(answer));
  assert.ok(Object.values(result?.content ?? {}).includes('English'), JSON.stringify(result));
  return req;
}

/** Children announced by `subagent_update` (decoded as `subagent` events) and the events that arrived for them. */
function subagents(t: ClientTurn): { ids: string[]; childEvents: SessionEvent[] } {
  const ids = [...new Set(t.events.flatMap((e) => (e.kind === 'subagent' ? [e.childSessionId] : [])))];
  return { ids, childEvents: t.events.filter((e) => ids.includes(e.sessionId)) };
}

describe('interop (our client): codex-acp 2.6.0 (v2)', function () {
  this.timeout(60_000);

  it('plans on v2 (plan_update items, planId codex-structured-plan), an edit asked and allowed', async () => {
    const t = await clientTurn({ agent: 'codex-acp-2.6', scenario: () => codexNextPlanScenario(), record: 'client-codex-acp-2.6-plan' });
    report('codex-acp 2.6 plan', t);
    assert.equal(t.conn.version, 2);
    assert.equal(t.conn.agentName, '@agentclientprotocol/codex-acp');
    assert.equal(t.stopReason, 'end_turn');
    assert.deepEqual(unknownKinds(t), []);
    assert.deepEqual(
      t.store.plans(AGENT_ID, t.sessionId).map((p) => p.planId),
      ['codex-structured-plan'],
    );
    assert.deepEqual(statuses(t, 'codex-structured-plan'), ['completed', 'completed']);
    const p = plan(t, 'codex-structured-plan');
    assert.equal(p?.version, 2);
    assert.deepEqual(p?.revisions[0].plan.type === 'items' && p.revisions[0].plan.entries.map((e) => e.status), ['in_progress', 'pending']);
    assert.deepEqual(
      t.permissions.map((x) => [x.req.title, x.optionId]),
      [['Make edits?', 'allow_once']],
    );
    const sub = t.permissions[0].req.subject;
    assert.ok(sub?.type === 'tool_call');
    const edit = t.toolCalls.get(sub.toolCallId);
    assert.equal(edit?.kind, 'edit');
    assert.equal(edit?.status, 'completed');
    assert.deepEqual(
      diffsOf(edit)[0]?.changes.map((c) => [c.operation, c.path.endsWith(`/${FILE_NAME}`)]),
      [['add', true]],
    );
    assert.equal(diffsOf(edit)[0]?.patch?.format, 'git_patch');
    assert.ok(t.files.includes(FILE_NAME), `files: ${t.files}`);
    assert.ok(
      t.events.some((e) => e.kind === 'state' && e.state === 'requires_action'),
      'requires_action while asking',
    );
  });

  // One turn for plan mode and the elicitation (one agent start less: the interop CI budget).
  it('plan mode: a question (elicitation), the Markdown plan before "Implement this plan?", approved, then the edit in the same prompt', async () => {
    const t = await clientTurn({
      agent: 'codex-acp-2.6',
      scenario: () => codexPlanModeScenario({ ask: true }),
      record: 'client-codex-acp-2.6-plan-mode',
      config: [{ configId: 'collaboration_mode', value: 'plan' }],
      policy: allowOnce,
      elicit: firstChoices,
    });
    report('codex-acp 2.6 plan mode', t);
    assert.equal(t.stopReason, 'end_turn');
    assert.deepEqual(unknownKinds(t), []);
    // The question (request_user_input, only asked in plan mode, only with form elicitation
    // advertised): one property per question (its id), the options as `oneOf` consts, plus a note.
    const req = assertElicitationAnswered(t);
    const props = (req.params?.requestedSchema as { properties: Record<string, { oneOf?: { const: string }[] }> }).properties;
    assert.deepEqual(
      props[QUESTION.id]?.oneOf?.slice(0, 2).map((o) => o.const),
      ['English', 'French'],
    );
    assert.equal(typeof req.params?.toolCallId, 'string');
    const [md] = t.store.plans(AGENT_ID, t.sessionId).filter((p) => p.plan.type === 'markdown');
    assert.ok(md, 'markdown plan in the store');
    assert.match(md.planId, /-plan$/);
    assert.equal(md.plan.type === 'markdown' && md.plan.content, PLAN_MD);
    // The approval: a switch_mode permission carrying the plan as its input, after the plan_update.
    const [approval, edit] = t.permissions;
    assert.equal(approval.req.title, 'Implement this plan?');
    assert.deepEqual(
      approval.req.options.map((o) => [o.optionId, o.kind]),
      [
        ['implement_plan', 'allow_once'],
        ['revise_plan', 'reject_once'],
      ],
    );
    assert.equal(approval.optionId, 'implement_plan');
    assert.ok(approval.req.subject?.type === 'tool_call');
    assert.equal(approval.req.subject.fields.kind, 'switch_mode');
    assert.deepEqual(approval.req.subject.fields.rawInput, { plan: PLAN_MD });
    const planAt = t.events.findIndex((e) => e.kind === 'plan_update' && e.plan.planId === md.planId);
    const askedAt = t.events.findIndex(
      (e) => e.kind === 'tool_call' && e.toolCallId === (approval.req.subject?.type === 'tool_call' ? approval.req.subject.toolCallId : ''),
    );
    assert.ok(planAt >= 0 && planAt < askedAt, `plan (${planAt}) before the approval (${askedAt})`);
    // Approved: back to the default collaboration mode, codex continues in the same prompt.
    assert.equal(configValue(t, 'collaboration_mode'), 'default');
    assert.ok(t.events.some((e) => e.kind === 'message_chunk' && e.role === 'user' && e.content.type === 'text' && e.content.text === CODEX_IMPLEMENT));
    assert.equal(edit?.req.title, 'Make edits?');
    assert.ok(t.files.includes(FILE_NAME), `files: ${t.files}`);
  });

  it("subagent (spawn_agent): subagent_update and the child's events arrive, decoded and kept; the turn ends", async () => {
    const t = await clientTurn({
      agent: 'codex-acp-2.6',
      scenario: () => codexSubagentScenario(),
      record: 'client-codex-acp-2.6-subagent',
      launch: { config: { features: { multi_agent_v2: true } } },
      // spawn_agent returns at once: the parent's turn may end before the child reports its state.
      awaitAfterTurn: (e) => e.kind === 'state' && e.sessionId.includes(':subagent:'),
    });
    report('codex-acp 2.6 subagent', t);
    assert.equal(t.stopReason, 'end_turn');
    const { ids, childEvents } = subagents(t);
    assert.equal(ids.length, 1);
    assert.deepEqual(unknownKinds(t, ids[0]), [], "the child's updates are decoded too");
    assert.ok(ids[0].startsWith(`${t.sessionId}:subagent:`), ids[0]);
    // The child is announced on its parent with its title (the tree nests it there: unit and
    // integration tests of the store and the tree cover the nesting).
    const announce = t.events.find((e) => e.kind === 'subagent' && typeof e.title === 'string');
    assert.ok(announce?.kind === 'subagent');
    assert.equal(announce.sessionId, t.sessionId);
    assert.deepEqual(unknownKinds(t), []);
    assert.ok(
      childEvents.some((e) => e.kind === 'state'),
      "the child's own state updates arrive",
    );
    assert.ok(t.events.indexOf(announce) < t.events.indexOf(childEvents[0]), 'announced before its first event');
  });
});

describe('interop (our client): claude-agent-acp 0.101.0 (v2)', function () {
  this.timeout(90_000);

  it('plans on v2 (plan_update items, planId plan), write and command asked and allowed', async () => {
    const t = await clientTurn({
      agent: 'claude-agent-acp-0.101',
      scenario: (cwd) => claudeNextPlanScenario(cwd),
      record: 'client-claude-agent-acp-0.101-plan',
    });
    report('claude-agent-acp 0.101 plan', t);
    assert.equal(t.conn.version, 2);
    assert.equal(t.conn.agentName, '@agentclientprotocol/claude-agent-acp');
    assert.equal(t.stopReason, 'end_turn');
    assert.deepEqual(unknownKinds(t), []);
    assert.deepEqual(
      t.store.plans(AGENT_ID, t.sessionId).map((p) => p.planId),
      ['plan'],
    );
    assert.deepEqual(statuses(t, 'plan'), ['completed', 'completed']);
    assert.equal(plan(t, 'plan')?.version, 2);
    assert.equal(t.permissions.length, 2);
    assert.deepEqual(
      t.permissions.map((p) => p.optionId),
      ['allow-once', 'allow-once'],
    );
    const sub = t.permissions[0].req.subject;
    assert.ok(sub?.type === 'tool_call');
    const write = t.toolCalls.get(sub.toolCallId);
    assert.equal(write?.status, 'completed');
    assert.ok(t.files.includes(FILE_NAME) && t.files.includes(MARKER), `files: ${t.files}`);
    assert.ok(
      t.events.some((e) => e.kind === 'terminal_update'),
      'the command as a display terminal',
    );
    assert.ok(t.events.some((e) => e.kind === 'message_chunk' && e.role === 'agent' && e.content.type === 'text' && e.content.text === FINAL_TEXT));
    assert.equal(t.services.calls.writes.length + t.services.calls.terminals.length, 0, 'v2: no client fs/terminal');
  });

  // One turn for plan mode and the elicitation (one agent start less: the interop CI budget).
  it('plan mode: a question (elicitation), "Approve Plan" shows the plan at the approval, approved, then the Markdown plan (planId plan-mode)', async () => {
    const t = await clientTurn({
      agent: 'claude-agent-acp-0.101',
      scenario: () => claudePlanModeScenario({ ask: true }),
      record: 'client-claude-agent-acp-0.101-plan-mode',
      config: [{ configId: 'mode', value: 'plan' }],
      policy: allowOnce,
      elicit: firstChoices,
    });
    report('claude-agent-acp 0.101 plan mode', t);
    assert.equal(t.stopReason, 'end_turn');
    // The question (AskUserQuestion, only with form elicitation advertised).
    const req = assertElicitationAnswered(t);
    assert.equal(req.params?.message, QUESTION.question);
    const props = (req.params?.requestedSchema as { properties: Record<string, { oneOf?: { const: string }[] }> }).properties;
    assert.deepEqual(
      props.question_0?.oneOf?.map((o) => o.const),
      ['English', 'French'],
    );
    const ask = t.toolCalls.get(String(req.params?.toolCallId));
    assert.equal(ask?.name, 'AskUserQuestion');
    // Answered: the question's call completes (the model gets the choice).
    assert.equal(ask?.status, 'completed');
    const [approval] = t.permissions;
    assert.equal(t.permissions.length, 1);
    assert.equal(approval.req.title, 'Ready to code?');
    assert.deepEqual(
      approval.req.options.map((o) => `${o.optionId}:${o.kind}`),
      ['exit-plan-default:allow_once', 'exit-plan-auto:allow_always', 'exit-plan-bypass:allow_always', 'reject:reject_once'],
    );
    assert.ok(approval.req.subject?.type === 'tool_call');
    assert.equal(approval.req.subject.fields.kind, 'switch_mode');
    assert.equal(approval.req.subject.fields.title, 'Approve Plan');
    // The plan came as the call's input and content before the permission; the permission's
    // stale empty snapshot (`rawInput: {}`, `content: []`) does not hide it (v2 adapter).
    const id = approval.req.subject.toolCallId;
    const askedAt = t.events.findIndex(
      (e) => e.kind === 'tool_call' && e.fields === (approval.req.subject?.type === 'tool_call' && approval.req.subject.fields),
    );
    assert.ok(askedAt > 0, "the permission's tool call event");
    const shown = foldToolCalls(t.events.slice(0, askedAt + 1)).get(id);
    assert.deepEqual(shown?.rawInput, { plan: PLAN_MD });
    assert.deepEqual(
      (shown?.content as ToolCallContent[]).map((c) => c.type === 'content' && c.content.type === 'text' && c.content.text),
      [PLAN_MD],
    );
    assert.deepEqual(t.toolCalls.get(id)?.rawInput, { plan: PLAN_MD });
    assert.equal(t.toolCalls.get(id)?.status, 'completed');
    // Approved: mode back to default, then the Markdown plan.
    assert.equal(configValue(t, 'mode'), 'default');
    const md = plan(t, 'plan-mode');
    assert.ok(md?.plan.type === 'markdown', 'markdown plan plan-mode');
    assert.equal(md.plan.content, PLAN_MD.trimEnd());
    assert.ok(
      t.events.some((e) => e.kind === 'notice'),
      'its notice is decoded',
    );
    assert.deepEqual(unknownKinds(t), []);
  });

  it("subagent (Agent tool): subagent_update, session_message and the child's events arrive, decoded and kept", async () => {
    const t = await clientTurn({
      // No capability needed: on v2 both adapters send subagent traffic unasked (v2's client
      // capabilities have no `subagents`; v1's unstable `clientCapabilities.subagents` is the opt-in).
      agent: 'claude-agent-acp-0.101',
      scenario: () => claudeSubagentScenario(),
      record: 'client-claude-agent-acp-0.101-subagent',
      // The child runs in the background: the parent's turn may end first.
      awaitAfterTurn: (e) => e.kind === 'subagent' && e.state === 'idle',
    });
    report('claude-agent-acp 0.101 subagent', t);
    assert.equal(t.stopReason, 'end_turn');
    const { ids, childEvents } = subagents(t);
    assert.equal(ids.length, 1);
    assert.deepEqual(unknownKinds(t, ids[0]), [], "the child's updates are decoded too");
    // Inter-session messages on both sessions, decoded.
    assert.deepEqual(unknownKinds(t), []);
    const sent = t.events.find((e) => e.kind === 'session_message' && e.sessionId === t.sessionId);
    assert.ok(sent?.kind === 'session_message');
    assert.equal(sent.recipientSessionId, ids[0]);
    assert.ok(
      childEvents.some((e) => e.kind === 'session_message'),
      "the child's side of the message",
    );
    // Listed as background work of the parent while it runs (state_update.background).
    assert.ok(
      t.events.some((e) => e.kind === 'state' && e.sessionId === t.sessionId && JSON.stringify(e).includes(ids[0])),
      'background subagent',
    );
    assert.ok(
      childEvents.some((e) => e.kind === 'message_chunk' && e.role === 'agent'),
      "the child's answer in its own session",
    );
  });
});
