// A hostile ACP agent for the hostile battery (test/integration/hostile.test.ts): plain Node, raw
// NDJSON on stdin/stdout, no dependencies. It answers `initialize` and `session/new` like any
// agent, then, when prompted, runs one phase of probes against the client and records what the
// client answered (test/agents/hostile/results.ts) in the results file the test named.
//
//   node hostileAgent.js <v1|v2> <results file> <session id prefix> [anything else, e.g. --api-key …]
//
// Prompt text: `<phase> <PhaseParams JSON>`, phase one of
//   consent   options that lie about their kind, two options named "OK", a shared optionId, a flood of 200
//   rules     an "always allow" of `rm -i tmp.txt`, then commands that rule must not cover
//   huge      200 KB markdown lines, 300 × 1 MB chunks, 10 MB plans × 20, 10,000 archives, file plans
//             at devices/FIFOs/environ/outside, requests with null and object ids
//   sessions  updates for `inventedSessions` invented session ids, a permission request for one
//   client    (v1) terminals, writes, reads, deep lines, the other agent's session, secrets on stderr
//   budget    230 Markdown plans of ~1 MiB under different planIds, then 120 subagent sessions each
//             with one: past the per-agent memory budget and the live-plan and children caps
// A phase that leaves requests unanswered waits for them; the turn ends once they are answered
// (the test cancels the turn). Results are written at the end of each phase and when stdin ends.
import { consent, huge, rules, sessions } from './hostile/agentPhases';
import { client } from './hostile/clientPhases';
import { budget, BUDGET_DEFAULTS } from './hostile/budgetPhase';
import { Results, type PhaseParams } from './hostile/results';
import type { Ctx } from './hostile/probes';
import { Wire, type Id, type Obj } from './hostile/wire';

const version: 1 | 2 = process.argv[2] === 'v1' ? 1 : 2;
const results = new Results(process.argv[3] ?? 'hostile-results.json');
const prefix = process.argv[4] ?? 'hostile';
const sessionIds: string[] = [];
const cancelled = new Set<string>();

const wire = new Wire(
  onRequest,
  (method, params) => {
    if (method === 'session/cancel') cancelled.add(String(params.sessionId));
  },
  () => {
    results.flush();
    process.exit(0);
  },
);

function onRequest(id: Id, method: string, params: Obj): void {
  switch (method) {
    case 'initialize':
      return wire.respond(
        id,
        version === 2
          ? { protocolVersion: 2, info: { name: 'hostile', version: '1.0.0' }, capabilities: { session: {} }, authMethods: [] }
          : { protocolVersion: 1, agentInfo: { name: 'hostile', version: '1.0.0' }, agentCapabilities: { loadSession: false }, authMethods: [] },
      );
    case 'session/new': {
      const sessionId = `${prefix}-sess-${sessionIds.length + 1}`;
      sessionIds.push(sessionId);
      return wire.respond(id, version === 2 ? { sessionId, configOptions: [] } : { sessionId });
    }
    case 'session/prompt':
      void prompt(id, params);
      return;
    case 'session/close':
    case 'session/delete':
      return wire.respond(id, {});
    default:
      return wire.fail(id, -32601, `Method not found: ${method}`);
  }
}

async function prompt(id: Id, params: Obj): Promise<void> {
  const sessionId = String(params.sessionId);
  const text = ((params.prompt as { text?: string }[] | undefined) ?? []).map((b) => b.text ?? '').join(' ');
  const space = text.indexOf(' ');
  const phase = space < 0 ? text : text.slice(0, space);
  const phaseParams = JSON.parse(space < 0 ? '{}' : text.slice(space + 1)) as PhaseParams;
  cancelled.delete(sessionId);
  if (version === 2) {
    wire.respond(id, {});
    await wire.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'state_update', state: 'running' } } });
  }
  const ctx: Ctx = { wire, results, version, sessionId, sessions: sessionIds, params: phaseParams, cancelled: () => cancelled.has(sessionId) };
  try {
    if (phase === 'consent') await consent(ctx);
    else if (phase === 'rules') await rules(ctx);
    else if (phase === 'huge') await huge(ctx);
    else if (phase === 'sessions') await sessions(ctx, phaseParams.inventedSessions ?? 100_000);
    else if (phase === 'client') await client(ctx);
    else if (phase === 'budget') await budget(ctx, phaseParams.budget ?? BUDGET_DEFAULTS);
    else process.stderr.write(`hostile agent: unknown phase ${phase}\n`);
  } catch (err) {
    process.stderr.write(`hostile agent: phase ${phase} failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  }
  results.flush();
  const stopReason = cancelled.has(sessionId) ? 'cancelled' : 'end_turn';
  if (version === 1) wire.respond(id, { stopReason });
  else
    await wire.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'state_update', state: 'idle', stopReason } } });
}
