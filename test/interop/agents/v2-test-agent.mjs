#!/usr/bin/env node
// A scripted ACP v2 test agent for the interop suite, written on the published SDK
// (@agentclientprotocol/sdk@2.4.0, entry point `experimental/v2/unstable`), so our client is
// checked against the SDK's own v2 encoder and validation, not only against ourselves.
//
// One prompt turn:
//   user_message → state running → plan_update items "main" (3 entries) → plan_update markdown
//   "notes" → plan_update file "doc" → tool_call_update "tc-edit" (pending) → state
//   requires_action → session/request_permission (subject tool_call) → tool_call_update
//   completed with a v2 diff (allowed) or failed (rejected) → state running → plan_update "main"
//   with progress → plan_removed "notes" → agent_message → state idle end_turn.
// A prompt whose text contains "hold" stops after the first plan and waits for session/cancel,
// then ends idle with stopReason "cancelled".
// Plain .mjs (not part of the root typecheck): it imports the SDK from test/interop/node_modules.
import { Readable, Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk/experimental/v2/unstable';

const sessions = new Map();

function update(client, sessionId, u) {
  return client.notify(acp.methods.client.session.update, { sessionId, update: u });
}

const entries = (statuses) => [
  { content: 'Read the brief', priority: 'high', status: statuses[0] },
  { content: 'Edit the file', priority: 'medium', status: statuses[1] },
  { content: 'Report back', priority: 'low', status: statuses[2] },
];

function waitForAbort(signal) {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

async function runTurn(client, sessionId, session, prompt, signal, userMessage) {
  const u = (x) => update(client, sessionId, x);
  await u(userMessage);
  await u({ sessionUpdate: 'state_update', state: 'running' });
  await u({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'main', entries: entries(['in_progress', 'pending', 'pending']) } });
  const text = prompt.map((b) => (b.type === 'text' ? b.text : '')).join(' ');
  if (text.includes('hold')) {
    await waitForAbort(signal);
    await u({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' });
    return;
  }
  await u({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'notes', content: '## Notes\n\n- first\n- second\n' } });
  const docUri = pathToFileURL(path.join(session.cwd, 'PLAN.md')).href;
  await u({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'doc', uri: docUri } });
  const filePath = path.join(session.cwd, 'hello.txt');
  await u({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'tc-edit',
    title: 'Edit hello.txt',
    kind: 'edit',
    status: 'pending',
    locations: [{ path: filePath }],
  });
  await u({ sessionUpdate: 'state_update', state: 'requires_action' });
  const answer = await client.request(acp.methods.client.session.requestPermission, {
    sessionId,
    title: 'Allow editing hello.txt?',
    description: 'The test agent wants to write one file.',
    subject: { type: 'tool_call', toolCall: { toolCallId: 'tc-edit', status: 'pending' } },
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  });
  const allowed = answer.outcome.outcome === 'selected' && answer.outcome.optionId === 'allow';
  await u({ sessionUpdate: 'state_update', state: 'running' });
  if (allowed) {
    await u({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'tc-edit',
      status: 'completed',
      content: [
        {
          type: 'diff',
          changes: [{ operation: 'add', path: filePath, fileType: 'text' }],
          patch: { format: 'git_patch', text: '--- /dev/null\n+++ b/hello.txt\n@@ -0,0 +1 @@\n+hello\n' },
        },
      ],
    });
  } else {
    await u({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'tc-edit',
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: 'Rejected by the user.' } }],
    });
  }
  await u({
    sessionUpdate: 'plan_update',
    plan: { type: 'items', planId: 'main', entries: entries(['completed', allowed ? 'completed' : 'cancelled', 'in_progress']) },
  });
  await u({ sessionUpdate: 'plan_removed', planId: 'notes' });
  await u({ sessionUpdate: 'agent_message', messageId: randomUUID(), content: [{ type: 'text', text: allowed ? 'Edited.' : 'Not edited.' }] });
  await u({
    sessionUpdate: 'plan_update',
    plan: { type: 'items', planId: 'main', entries: entries(['completed', allowed ? 'completed' : 'cancelled', 'completed']) },
  });
  await u({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
}

const app = acp
  .agent({ name: 'acp-plans-v2-test-agent' })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    if (params.protocolVersion < 2) throw acp.RequestError.unsupportedProtocolVersion(params.protocolVersion, [2]);
    return {
      protocolVersion: 2,
      info: { name: 'acp-plans-v2-test-agent', title: 'v2 test agent', version: '1.0.0' },
      capabilities: { session: {} },
    };
  })
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    const sessionId = randomUUID();
    sessions.set(sessionId, { cwd: params.cwd, turn: undefined });
    return { sessionId };
  })
  .onRequest(acp.methods.agent.session.list, () => ({ sessions: [...sessions].map(([sessionId, s]) => ({ sessionId, cwd: s.cwd })) }))
  .onRequest(acp.methods.agent.session.close, ({ params }) => {
    sessions.get(params.sessionId)?.turn?.controller.abort();
  })
  .onRequest(acp.methods.agent.session.prompt, ({ params, client }) => {
    const session = sessions.get(params.sessionId);
    if (!session) throw acp.RequestError.sessionNotFound(params.sessionId);
    if (session.turn) throw acp.RequestError.invalidRequest(undefined, 'a prompt is already running');
    const controller = new AbortController();
    const messageId = randomUUID();
    const userMessage = { sessionUpdate: 'user_message', messageId, content: params.prompt };
    // Answer the prompt (the insertion receipt) first, then stream the turn.
    const turn = { controller };
    session.turn = turn;
    setImmediate(() => {
      runTurn(client, params.sessionId, session, params.prompt, controller.signal, userMessage)
        .catch((err) =>
          update(client, params.sessionId, {
            sessionUpdate: 'state_update',
            state: 'idle',
            stopReason: 'error',
            error: { code: -32603, message: String(err?.message ?? err) },
          }),
        )
        .catch(() => {
          /* connection gone */
        })
        .finally(() => {
          if (session.turn === turn) session.turn = undefined;
        });
    });
    return { messageId };
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    sessions.get(params.sessionId)?.turn?.controller.abort();
  });

app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
